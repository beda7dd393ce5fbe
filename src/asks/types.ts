import type { AskQuestion, QuestionResolution, TimeoutPolicy } from '../ask/types.js';
import type { ConversationRef } from './conversation.js';

/**
 * Schema version of {@link AskRecord} written by this code. Version 1 (a turn's ask: `turnId`,
 * `toolCallId`) is still read and upgraded (`store/schemas.ts`).
 */
export const ASK_RECORD_VERSION = 2;

/**
 * Who continues when an ask resolves. A union: each kind has its handler (`AskWaiters`), and a new kind
 * adds a member and a handler, nothing else (no Lua transition, no renderer change).
 * - `turn`: an agent turn paused on its `ask_question` call `toolCallId`; it resumes with the answers.
 * - `api`: a program that asked through the HTTP API, MCP or the CLI; `clientName` is the name of its API
 *   token. It reads the resolution from the store (long-poll), or is told by a signed webhook to
 *   `callbackUrl`; the ask is of its own scope.
 */
export type Waiter =
  | { kind: 'turn'; turnId: string; toolCallId: string }
  | { kind: 'api'; clientName: string; callbackUrl?: string };

/** The scope of an ask that belongs to no turn: its own id, marked so it never collides with a turn id. Pure. */
export function standaloneScope(askId: string): string {
  return `ask-${askId}`;
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

/** The immutable part of an ask, written once when it is opened (for a turn: when the turn pauses). */
export interface AskDefinition {
  version: typeof ASK_RECORD_VERSION;
  askId: string;
  /**
   * What the ask's keys are grouped under (one Redis Cluster hash tag): its turn's id for a turn's ask, so
   * the pause stays one atomic script. Every reference to the ask (store calls, button values, the ask
   * index) is `scope` plus `askId`.
   */
  scope: string;
  /** Who continues when the ask resolves. */
  waiter: Waiter;
  /** 0-based ordinal of this ask within its scope (a turn's first ask is 0). */
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
  /** A program's own data about the ask (JSON object, at most 4 KB), returned as given. */
  metadata?: Record<string, unknown> | null;
  /** A line a program shows above the questions (escaped like model text), at most 2000 characters. */
  intro?: string | null;
  /** Set when the ask is an approval of tool calls (its waiter is their turn). */
  approval?: ApprovalSpec | null;
  /** Reminders, escalation, snooze, quorum and late answers; absent (asks stored before them): none. */
  followUp?: AskFollowUp | null;
}

/**
 * A reminder point, counted from when the ask was shown: a fraction of the time to the deadline (which
 * moves when the deadline is extended), or a fixed time after shown, in ms.
 */
export type ReminderPoint = { kind: 'fraction'; fraction: number } | { kind: 'after'; ms: number };

/** Who else may answer once nobody did for `afterMs` after the ask was shown. */
export interface Escalation {
  /** ms after shown. */
  afterMs: number;
  userIds: string[];
  groupIds: string[];
}

/**
 * What happens around an open ask besides its answers and its timeout (see DESIGN.md "Reaching people").
 * Written with the definition, so every worker agrees on it whatever its own settings.
 */
export interface AskFollowUp {
  /** Reminder points, each sent at most once (only while questions are open). */
  reminders: ReminderPoint[];
  escalation: Escalation | null;
  /** What the snooze menu offers, ms each; empty: no snooze. */
  extendByMs: number[];
  /** The latest deadline, ms after the ask was shown (ASK_MAX_DEADLINE). */
  maxDeadlineMs: number;
  /** How long after an assumed resolution an answerer may still change it, ms; 0: never. */
  overrideWindowMs: number;
  /**
   * Distinct allowed people who must choose the same answer before a question resolves; 1: the first
   * answer decides. For an approval any single Deny decides at once.
   */
  quorum: number;
}

/** The follow-up of an ask that has none (asks stored before follow-ups existed). */
export const NO_FOLLOW_UP: AskFollowUp = {
  reminders: [],
  escalation: null,
  extendByMs: [],
  maxDeadlineMs: 0,
  overrideWindowMs: 0,
  quorum: 1,
};

/** A late answer that replaced an assumed resolution (recorded once per question). */
export interface AnswerOverride {
  /** What the person chose (option labels) or typed instead. */
  selected: string[];
  other: string | null;
  /** Who changed it. */
  by: string;
  /** ISO 8601. */
  at: string;
}

/** One tool call an approval decides (one question of the approval ask each, in order). */
export interface ApprovalCall {
  toolCallId: string;
  /** The name the model called it by (`<server>_<tool>`). */
  toolName: string;
  /** The MCP server and its own name for the tool, shown to the approver; null for a tool of no server. */
  server: string | null;
  tool: string;
  /** The call's arguments as the model gave them (shown escaped, never interpreted). */
  input: unknown;
}

/** The approve and deny options of an approval's questions, in this order. */
export const APPROVAL_OPTIONS = { approve: 'Approve', deny: 'Deny' } as const;

/**
 * What makes an ask an approval: a turn's gated tool calls, one question each with the options
 * {@link APPROVAL_OPTIONS} (the one `onTimeout` picks is its recommended option). Approve runs the call; Deny,
 * a typed answer ("Deny with reason…"), a cancel or a timeout that picks Deny do not.
 */
export interface ApprovalSpec {
  calls: ApprovalCall[];
  /** The model's text of that step, shown as its reason (escaped), or null. */
  reason: string | null;
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
  /**
   * Changes that resolve nothing (extension, escalation, delegation, votes, reminders, late answers), counted;
   * part of the ask's revision, so each one redraws the message.
   */
  changes: number;
  /** Epoch ms of the resolution; null while open. */
  resolvedAt: number | null;
  /** Who last extended the deadline; null when never extended. */
  extendedBy: string | null;
  /** People added as answerers by "Ask someone else…", in order. */
  delegates: string[];
  /**
   * Follow-up points claimed (`r<i>` reminder i, `e` the escalation) and done (`r<i>!`, `e!`: posted, or
   * skipped as superseded).
   */
  nudged: string[];
  /** Quorum votes per question: user id to the vote (see {@link voteKey}). */
  votes: Array<Record<string, string>>;
  /** Per question: the late answer that replaced its assumed resolution, or null. */
  overrides: (AnswerOverride | null)[];
}

/**
 * How long the ask actually waited for people, in ms: from shown to its (possibly extended) deadline; the
 * configured timeout before it was shown. Pure.
 */
export function waitedForMs(ask: Pick<AskRecord, 'timeoutMs' | 'shownAt' | 'deadline'>): number {
  return ask.shownAt !== null && ask.deadline !== null ? ask.deadline - ask.shownAt : ask.timeoutMs;
}

/** The mutable fields of an ask just opened: open, nothing resolved, not shown, no changes. Pure. */
export function openAskState(
  definition: Pick<AskDefinition, 'questions'>,
): Omit<AskRecord, keyof AskDefinition> {
  return {
    status: 'open',
    resolutions: definition.questions.map(() => null),
    shownAt: null,
    deadline: null,
    messageRef: null,
    resumeQueuedAt: null,
    changes: 0,
    resolvedAt: null,
    extendedBy: null,
    delegates: [],
    nudged: [],
    votes: definition.questions.map(() => ({})),
    overrides: definition.questions.map(() => null),
  };
}

/** The vote of a quorum answer: its labels (sorted) and typed text, so equal answers count together. Pure. */
export function voteKey(resolution: Pick<QuestionResolution, 'selected' | 'other'>): string {
  return JSON.stringify([[...resolution.selected].sort(), resolution.other ?? null]);
}

/** Outcome of one ask transition (one Lua script). Never thrown for a lost race. */
export type AskTransitionStatus =
  | 'recorded' // this answer was stored; other questions are still open
  | 'completed' // this transition resolved the last open question; the ask is now resolved
  | 'already-resolved' // the question already had a resolution (see `ask.resolutions`)
  | 'closed' // the ask is no longer open
  | 'forbidden' // this person may not do this
  | 'voted' // a quorum vote was counted; the question waits for more
  | 'duplicate' // this person already voted on that question (one person counts once)
  | 'not-due' // the timeout found the deadline moved (extended): nothing changed
  | 'not-found'; // no such ask (expired or never existed)

/** Result of an ask transition, with the ask as it is after the script ran (null when not found). */
export interface AskTransitionResult {
  status: AskTransitionStatus;
  ask: AskRecord | null;
}

/**
 * The resolution every unresolved question gets when `byUserId` cancels the ask at `at` (ISO 8601); null
 * `byUserId`: nobody did (the workspace uninstalled the app). Pure.
 */
export function canceledResolution(byUserId: string | null, at: string): QuestionResolution {
  return {
    status: 'canceled',
    selected: [],
    other: null,
    answeredBy: byUserId,
    answeredAt: at,
    source: 'cancel',
    assumption: null,
  };
}

/**
 * Who the ask's message names as asking (unescaped; the renderer escapes it): "the agent" for a turn's
 * ask, the API token's name for a program's. Pure; the one place a waiter kind chooses this.
 */
export function askerLabel(waiter: Waiter): string {
  switch (waiter.kind) {
    case 'turn':
      return 'the agent';
    case 'api':
      return waiter.clientName;
  }
}

/**
 * Whether someone in the conversation may cancel the ask (its message then offers Cancel): the person who
 * started a turn may cancel its ask; a program's ask is canceled by the program (`DELETE /v1/asks/{id}`),
 * people answer it. Pure; the one place a waiter kind chooses this.
 */
export function cancelableInConversation(waiter: Waiter): boolean {
  switch (waiter.kind) {
    case 'turn':
      return true;
    case 'api':
      return false;
  }
}
