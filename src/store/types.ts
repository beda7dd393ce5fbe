import type { ModelMessage } from 'ai';
import type { ConversationRef } from '../agent/conversation.js';
import type { AskQuestion, QuestionResolution, TimeoutPolicy } from '../ask/types.js';

/** Schema version of {@link TurnRecord} written by this code. */
export const TURN_RECORD_VERSION = 2;
/** Schema version of {@link AskRecord} written by this code. */
export const ASK_RECORD_VERSION = 1;

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
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
}

/**
 * Who may answer an ask.
 * - `anyone`: anyone who can click in the conversation.
 * - `requester`: only the person who started the turn.
 * - `list`: the listed user ids, or members of the listed user groups (membership is checked by the surface and passed in as `inAllowedGroup`).
 */
export type AnswererPolicy =
  | { mode: 'anyone' }
  | { mode: 'requester' }
  | { mode: 'list'; userIds: string[]; groupIds: string[] };

/** The immutable part of an ask, written once when the turn pauses. */
export interface AskDefinition {
  version: typeof ASK_RECORD_VERSION;
  askId: string;
  turnId: string;
  /** The `ask_question` tool call this ask answers. */
  toolCallId: string;
  /** 0-based ordinal of this ask within its turn. */
  ordinal: number;
  questions: AskQuestion[];
  conversation: ConversationRef;
  requestedBy: string;
  answerers: AnswererPolicy;
  /** Timeout length in ms, counted from when the ask was shown. */
  timeoutMs: number;
  policy: TimeoutPolicy;
  /** ISO 8601. */
  createdAt: string;
}

/** `open` until every question has a resolution; then `resolved`. */
export type AskStatus = 'open' | 'resolved';

/** An ask as read from Redis: its definition plus the mutable fields the Lua transitions change. */
export interface AskRecord extends AskDefinition {
  status: AskStatus;
  /** One slot per question, null while unresolved. */
  resolutions: (QuestionResolution | null)[];
  /** Epoch ms when the surface showed the ask; null until shown. */
  shownAt: number | null;
  /** Epoch ms when the ask resolves by itself (`shownAt + timeoutMs`); null until shown. */
  deadline: number | null;
  /** Surface reference of the shown message (Slack: JSON `{channel, ts}`), null until shown. */
  messageRef: string | null;
  /** Epoch ms when the resume job was added after resolution; null until then. */
  resumeQueuedAt: number | null;
}

/** Outcome of one ask transition (one Lua script). Never thrown for a lost race. */
export type AskTransitionStatus =
  | 'recorded' // this answer was stored; other questions are still open
  | 'completed' // this transition resolved the last open question; the ask is now resolved
  | 'already-resolved' // the question already had a resolution (see `ask.resolutions`)
  | 'closed' // the ask is no longer open
  | 'forbidden' // this person may not do this
  | 'not-found'; // no such ask (expired or never existed)

/** Result of an ask transition, with the ask as it is after the script ran (null when not found). */
export interface AskTransitionResult {
  status: AskTransitionStatus;
  ask: AskRecord | null;
}
