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

/** Where turns happen: the asks' surface plus the conversation's history, replies and a working indicator. */
export interface Surface extends AskSurface {
  /**
   * The conversation so far as model messages, up to and including the trigger message: earlier human
   * messages as `user` messages, the bot's own messages as `assistant` messages.
   */
  loadHistory(conversation: ConversationRef, trigger: TurnTrigger): Promise<ModelMessage[]>;
  /** Posts text once per `key` (final reply, or an error such as "too many invalid questions"). */
  postMessage(
    conversation: ConversationRef,
    text: string,
    key: string,
    kind: 'reply' | 'error',
  ): Promise<void>;
  /**
   * Shows on a decided approval's message what each approved call did (by question; null: not run).
   * Best effort: never throws. Optional: a surface without it shows the decisions only.
   */
  showApprovalOutcomes?(
    ask: AskRecord,
    outcomes: ReadonlyArray<{ ok: boolean; text: string } | null>,
  ): Promise<void>;
  /** Shows or clears a "working" indicator in the conversation (best effort; never throws). */
  setWorking(conversation: ConversationRef, working: boolean): Promise<void>;
}
