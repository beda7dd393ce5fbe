import type { TurnRecord } from '../agent/turn-record.js';
import type { QuestionResolution } from '../ask/types.js';
import type { AskDefinition, AskRecord, AskTransitionResult } from '../asks/types.js';

/** Outcome of {@link TurnStore.commitTurn}. */
export type CommitResult =
  | { ok: true; rev: number }
  | { ok: false; reason: 'conflict' | 'not-found'; rev: number | null };

/**
 * Everything holdpoint keeps in Redis about turns and asks.
 * Every method is one round trip (or one Lua script) and never throws for a lost race:
 * races come back as statuses. Methods throw {@link import('../errors.js').StateError} for unreadable
 * records (unknown schema version, failed zod check) and {@link import('../errors.js').SystemError}
 * when Redis fails.
 */
export interface TurnStore {
  /** Creates a new turn at rev 1. Returns false (and writes nothing) when the turn id exists. */
  createTurn(turn: TurnRecord): Promise<boolean>;
  /** Reads a turn; null when absent. */
  getTurn(turnId: string): Promise<TurnRecord | null>;
  /**
   * Compare-and-set: writes `next` (with `rev = expectedRev + 1`) only when the stored rev is
   * `expectedRev`. Sets key TTLs from `next.status` (see {@link TurnStoreOptions}).
   */
  commitTurn(next: TurnRecord, expectedRev: number): Promise<CommitResult>;
  /**
   * Pauses a turn and creates its ask in one atomic step: CAS on the turn rev, writes the ask
   * definition with status `open` and empty resolutions, and indexes the ask as open.
   */
  pauseTurn(next: TurnRecord, expectedRev: number, ask: AskDefinition): Promise<CommitResult>;
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
    options?: { inAllowedGroup?: boolean },
  ): Promise<AskTransitionResult>;
  /**
   * Resolves every still-unresolved question with the given fallback (one per question, e.g. from the
   * timeout policy, or `not_shown`). Answers given earlier stay. `closed` if the ask was already resolved.
   */
  resolveOpenQuestions(
    turnId: string,
    askId: string,
    fallbacks: QuestionResolution[],
  ): Promise<AskTransitionResult>;
  /**
   * The requester cancels: every unresolved question gets `canceled` (with `byUserId`); `forbidden` for anyone else.
   */
  cancelAsk(turnId: string, askId: string, byUserId: string, at: string): Promise<AskTransitionResult>;
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
  /**
   * Slack event de-duplication: `SET NX` with a TTL. Returns true the first time an id is seen
   * within `ttlMs`.
   */
  claimEvent(eventId: string, ttlMs: number): Promise<boolean>;
  /**
   * One turn at a time per thread. When no turn holds `threadKey`, `turnId` takes it and the result is
   * `start`; otherwise `item` (an opaque JSON string describing the waiting turn) is appended to the
   * thread's inbox and the result is `queued`.
   */
  admitToThread(threadKey: string, turnId: string, item: string): Promise<'start' | 'queued'>;
  /**
   * `turnId` gives up the thread. The next inbox item (if any) is popped, its turn id (the item's
   * `turnId` field) takes the thread, and the item is returned; otherwise the thread is freed and null
   * is returned. Null and no change when `turnId` does not hold the thread.
   */
  releaseThread(threadKey: string, turnId: string): Promise<string | null>;
  /** The turn id holding the thread, or null. */
  threadHolder(threadKey: string): Promise<string | null>;
  /**
   * Takes the turn's lease (`SET NX PX`): only its holder advances the turn, so two jobs for one turn never
   * run model steps side by side. Returns false when someone else holds it.
   */
  acquireTurnLease(turnId: string, token: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease if `token` still holds it; false when it was lost. */
  renewTurnLease(turnId: string, token: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `token` still holds it. */
  releaseTurnLease(turnId: string, token: string): Promise<void>;
}
