import type { QuestionResolution } from '../ask/types.js';
import type { AnswerOverride, AskDefinition, AskRecord, AskTransitionResult } from './types.js';

/** The outcome of an ask change that resolves nothing, with the ask as it is after it (null when not found). */
export type AskChange<S extends string> = { status: S; ask: AskRecord } | { status: 'not-found'; ask: null };

/** How one answer counts (see {@link AskStore.answerQuestion}). */
export interface AnswerOptions {
  /**
   * The surface found the person allowed beyond the stored lists: in one of the policy's user groups, or an
   * escalation target once the ask escalated (the stored lists and delegates the store checks itself).
   */
  inAllowedGroup?: boolean;
  /**
   * Distinct people whose equal answers ({@link import('./types.js').voteKey}) resolve the question
   * (default 1: the first answer does); below it an answer is a vote (`voted`), and a second vote by the
   * same person is `duplicate`.
   */
  quorum?: number;
  /** The answer decides at once whatever the quorum (an approval's Deny). */
  decisive?: boolean;
}

/**
 * Where asks live (Redis in production, see `store/redis-turn-store.ts`; an in-memory fake in tests).
 * Every method is one round trip (or one Lua script) and never throws for a lost race:
 * races come back as statuses. Methods throw {@link import('../errors.js').StateError} for unreadable
 * records (unknown schema version, failed zod check) and {@link import('../errors.js').SystemError}
 * when the store fails.
 */
export interface AskStore {
  /**
   * Opens an ask of its own scope (not a turn's: those open with the turn's pause): writes the definition
   * with status `open` and empty resolutions, and indexes it as open, not yet shown. Returns false (and
   * writes nothing) when the ask id exists.
   */
  openAsk(ask: AskDefinition): Promise<boolean>;
  /** Reads an ask; null when absent. */
  getAsk(turnId: string, askId: string): Promise<AskRecord | null>;
  /**
   * Records that the surface showed the ask (first call wins: later calls change nothing and return
   * the stored values). Sets `shownAt`, `deadline = shownAt + timeoutMs`, `messageRef`.
   */
  markAskShown(
    turnId: string,
    askId: string,
    shownAt: number,
    messageRef: string | null,
  ): Promise<AskRecord | null>;
  /**
   * A person answers one question. Stores `resolution` at `questionIndex` only if the ask is open,
   * that question is unresolved and the person is allowed by the ask's answerer policy
   * (`inAllowedGroup` says whether the surface found the person in one of the policy's user groups).
   * Returns `completed` when this was the last open question.
   */
  answerQuestion(
    turnId: string,
    askId: string,
    questionIndex: number,
    resolution: QuestionResolution,
    options?: AnswerOptions,
  ): Promise<AskTransitionResult>;
  /**
   * Resolves every still-unresolved question with the given fallback (one per question, e.g. from the
   * timeout policy, or `not_shown`). Answers given earlier stay. `closed` if the ask was already resolved.
   */
  resolveOpenQuestions(
    turnId: string,
    askId: string,
    fallbacks: QuestionResolution[],
    options?: { onlyIfDue?: boolean },
  ): Promise<AskTransitionResult>;
  /**
   * Moves the deadline of an open, shown ask `addMs` later, at most to `latestDeadline` (epoch ms). Only
   * while the deadline has not passed, and only for someone who may answer it (as in {@link answerQuestion}).
   * Of an extension and the timeout (`onlyIfDue`), whichever the store runs first wins.
   */
  extendAsk(
    turnId: string,
    askId: string,
    input: { byUserId: string; addMs: number; latestDeadline: number; inAllowedGroup: boolean },
  ): Promise<AskChange<'extended' | 'closed' | 'forbidden' | 'at-limit'>>;
  /** Claims follow-up point `pointId` of an open ask (each point once, ever). */
  claimNudge(
    turnId: string,
    askId: string,
    pointId: string,
  ): Promise<AskChange<'claimed' | 'claimed-before' | 'closed'>>;
  /** Someone who may answer an open ask makes `delegateId` an answerer too. */
  addDelegate(
    turnId: string,
    askId: string,
    input: { byUserId: string; inAllowedGroup: boolean; delegateId: string },
  ): Promise<AskChange<'added' | 'unchanged' | 'closed' | 'forbidden'>>;
  /**
   * A late answer replaces the assumed resolution of question `questionIndex` (once per question, first
   * wins) within `windowMs` of the resolution, by someone who may answer the ask.
   */
  overrideAnswer(
    turnId: string,
    askId: string,
    questionIndex: number,
    override: AnswerOverride,
    options: { inAllowedGroup: boolean; windowMs: number },
  ): Promise<AskChange<'recorded' | 'closed' | 'not-assumed' | 'forbidden' | 'duplicate'>>;
  /**
   * The requester cancels: every unresolved question gets `canceled` (with `byUserId`); `forbidden` for anyone
   * else. With `uninstalled`, the workspace removed the app: no requester check, and nobody is named.
   */
  cancelAsk(
    turnId: string,
    askId: string,
    byUserId: string,
    at: string,
    options?: { uninstalled?: boolean },
  ): Promise<AskTransitionResult>;
  /** Notes that the resume job was added (first call wins). Returns true when this call set it. */
  markResumeQueued(turnId: string, askId: string, at: number): Promise<boolean>;
  /** Asks indexed as open whose deadline is at or before `now` (epoch ms), or that were never shown and were created before `now - unshownGraceMs`. */
  listOverdueAsks(
    now: number,
    unshownGraceMs: number,
    limit: number,
  ): Promise<Array<{ turnId: string; askId: string }>>;
  /** Asks that are resolved but whose turn has not consumed them yet (index maintained by the store). */
  listUnresumedAsks(limit: number): Promise<Array<{ turnId: string; askId: string }>>;
  /** Removes an ask from the ask index (after the turn consumed it). */
  unindexAsk(turnId: string, askId: string): Promise<void>;
}
