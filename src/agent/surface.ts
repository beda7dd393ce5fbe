import type { ModelMessage } from 'ai';
import type { AskSurface } from '../asks/ask-ports.js';
import type { ConversationRef } from '../asks/conversation.js';
import type { AskRecord } from '../asks/types.js';

/**
 * Where asks are shown and replies posted (Slack, or a recording surface in tests).
 * The turn engine calls these from workers; every method may be retried after a crash, so each
 * must be idempotent by the given key (the Slack surface looks for its own earlier message by
 * metadata before posting again).
 */
/** The message that started a turn. */
export interface TurnTrigger {
  /** The text of the message that started the turn (surface-escaped text is decoded by the surface). */
  text: string;
  /** Surface timestamp of that message (Slack `ts`). */
  ts: string;
  /** Who wrote it. */
  userId: string;
  /**
   * Set when no person wrote `text` (a late answer changed an assumption): the history is the thread up to
   * `ts`, then `text` as the last user message.
   */
  synthetic?: boolean;
}

/** A step shown in a streamed reply as a short status line (Slack: a `task_update` chunk). */
export interface StreamTask {
  /** Stable per step, e.g. the tool call id: a later update with the same id replaces the line. */
  id: string;
  /** Plain text, at most {@link STREAM_TASK_TITLE_MAX} characters. */
  title: string;
  status: 'in_progress' | 'complete' | 'error';
}

/** Longest {@link StreamTask.title}, in characters (the surface cuts longer ones). */
export const STREAM_TASK_TITLE_MAX = 150;

/**
 * A reply written into the conversation while the model produces it: one message per stretch of a turn
 * between its start (or a resume) and its next pause or end. Best effort: the methods never throw, and
 * what they could not show is shown by the reply or notice that follows.
 */
export interface ReplyStream {
  /** Appends model text (markdown as the model writes it). */
  text(delta: string): Promise<void>;
  /** Shows or updates a status line for a step. */
  task(task: StreamTask): Promise<void>;
}

/** What a turn is doing, for the surface's status; null when it does nothing (ended, or paused on an ask). */
export type TurnActivity = { kind: 'thinking' } | { kind: 'tool'; toolName: string } | null;

/** Where a turn's status shows: its conversation, and the message that started it when a person wrote one. */
export interface ActivityTarget {
  conversation: ConversationRef;
  /** Surface timestamp of the message that started the turn; absent: the conversation's first message. */
  triggerTs?: string | undefined;
}

/** Where turns happen: the asks' surface plus the conversation's history, replies and a working indicator. */
export interface Surface extends AskSurface {
  /**
   * The conversation so far as model messages, up to and including the trigger message: earlier human
   * messages as `user` messages, the bot's own messages as `assistant` messages.
   */
  loadHistory(conversation: ConversationRef, trigger: TurnTrigger): Promise<ModelMessage[]>;
  /**
   * Posts text once per `key` (final reply, or an error such as "too many invalid questions"). When
   * `streamKey` names a stream of this turn, a reply finishes that stream's message (which then reads
   * `text` if what was streamed was lost), and an error closes the stream and is posted below it.
   */
  postMessage(
    conversation: ConversationRef,
    text: string,
    key: string,
    kind: 'reply' | 'error',
    streamKey?: string,
  ): Promise<void>;
  /**
   * The stream for `key` (one per stretch of a turn; see {@link ReplyStream}), for the person who started
   * the turn. Nothing is posted until the first text or task. Optional: a surface without it only posts.
   */
  openStream?(conversation: ConversationRef, key: string, recipientUserId: string): ReplyStream;
  /**
   * Ends the stream for `key` without a reply (the turn paused on an ask), showing `last` as its final
   * status line. A no-op when nothing was streamed under `key`. Best effort: never throws.
   */
  closeStream?(conversation: ConversationRef, key: string, last?: StreamTask): Promise<void>;
  /**
   * Shows on a decided approval's message what each approved call did (by question; null: not run).
   * Best effort: never throws. Optional: a surface without it shows the decisions only.
   */
  showApprovalOutcomes?(
    ask: AskRecord,
    outcomes: ReadonlyArray<{ ok: boolean; text: string } | null>,
  ): Promise<void>;
  /**
   * Shows what a turn is doing (a status such as "is thinking…", or a reaction on the message that
   * started it) or, with null, clears it. Best effort: never throws.
   */
  setActivity(target: ActivityTarget, activity: TurnActivity): Promise<void>;
}
