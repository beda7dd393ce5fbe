import type { AskDefinition } from '../asks/types.js';
import type { TurnRecord } from './turn-record.js';

/** Outcome of {@link TurnStore.commitTurn}. */
export type CommitResult =
  | { ok: true; rev: number }
  | { ok: false; reason: 'conflict' | 'not-found'; rev: number | null };

/**
 * Where turns live. Pausing writes the turn and its ask in one atomic step, so it is the turn store's.
 * Every method is one round trip (or one Lua script) and never throws for a lost race:
 * races come back as statuses. Methods throw {@link import('../errors.js').StateError} for unreadable
 * records (unknown schema version, failed zod check) and {@link import('../errors.js').SystemError}
 * when the store fails.
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
}

/** One process at a time advances a turn: a lease with a token and a TTL. */
export interface TurnLeases {
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

/** One turn at a time per thread: the thread's holder and the inbox of turns waiting for it. */
export interface ThreadQueue {
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
}

/** What is known about one tool call's run: begun (outcome unknown until finished), or finished. */
export type ToolCallRun = { state: 'started' } | { state: 'finished'; output: string; isError: boolean };

/**
 * The at-most-once log of tool calls: a call's run is claimed before it starts and its outcome stored
 * after, so a retried step never runs a call twice and reuses its result.
 */
export interface ToolCallLog {
  /**
   * Claims the run of call `toolCallId` of turn `turnId` (`SET NX` with a TTL of `ttlMs`).
   * @returns `{ claimed: true }` for this caller, else what the earlier claim recorded.
   */
  claimToolCall(
    turnId: string,
    toolCallId: string,
    ttlMs: number,
  ): Promise<{ claimed: true } | { claimed: false; run: ToolCallRun }>;
  /** Stores a claimed call's outcome, for `ttlMs`. */
  finishToolCall(
    turnId: string,
    toolCallId: string,
    outcome: { output: string; isError: boolean },
    ttlMs: number,
  ): Promise<void>;
}
