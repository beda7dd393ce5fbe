import type { ModelMessage } from 'ai';
import type { ConversationRef } from '../asks/conversation.js';
import type { AskRecord } from '../asks/types.js';

/** Schema version of {@link TurnRecord} written by this code. */
export const TURN_RECORD_VERSION = 2;

/**
 * Lifecycle of a turn.
 * - `running`: a worker may run model steps.
 * - `paused`: waiting on `pendingAskId`.
 * - `completed`: final reply posted (or being posted, see `reply`).
 * - `failed`: ended with an error message to the surface.
 */
export type TurnStatus = 'running' | 'paused' | 'completed' | 'failed';

/** Progress of posting a message that must appear exactly once (final reply, error message). */
export interface OutboxEntry {
  /** Idempotency key given to the surface (e.g. `reply-<turnId>`). */
  key: string;
  kind: 'reply' | 'error';
  text: string;
  /** `pending`: decided but not known to be posted. `posted`: the surface confirmed. */
  state: 'pending' | 'posted';
}

/** A turn as stored in Redis (one JSON document, compare-and-set on `rev`). */
export interface TurnRecord {
  version: typeof TURN_RECORD_VERSION;
  turnId: string;
  /** Incremented by every commit; the store refuses a commit whose expected rev is stale. */
  rev: number;
  status: TurnStatus;
  conversation: ConversationRef;
  /** Slack user id of the person whose message started the turn (may cancel its asks). */
  requestedBy: string;
  /** The model conversation so far (AI SDK `ModelMessage`s, JSON-safe). Always satisfies the tool pairing rule except for the one `ask_question` call of `pendingAskId`. */
  messages: ModelMessage[];
  /** The open ask the turn waits on (status `paused`), else null. */
  pendingAskId: string | null;
  /** Model steps run so far. */
  stepCount: number;
  /** `ask_question` calls rejected as invalid so far. */
  invalidAskCount: number;
  /** Asks created so far (the next ask's ordinal). */
  askCount: number;
  /** Messages to post exactly once when the turn ends. */
  outbox: OutboxEntry[];
  /**
   * Surface timestamp of the message a person wrote to start the turn (its working indicator goes there);
   * absent for turns stored before it was kept and for turns no person's message started.
   */
  triggerTs?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
}

/**
 * A turn as the lease holder just stored it (and its ask, when it just paused on one): the next transition
 * starts from it instead of reading the turn back. Every write of a turn is a compare-and-set on `rev`, so a
 * record that went stale (someone else wrote the turn meanwhile) makes the next write fail, and the loop
 * then reads the turn again.
 */
export interface KnownTurn {
  turn: TurnRecord;
  /** The ask `turn.pendingAskId` as stored with the pause (not shown yet). */
  ask?: AskRecord;
}
