import type { ConversationRef } from './conversation.js';
import type { PeopleRef } from './follow-up.js';
import type { AskRecord, Waiter } from './types.js';

/**
 * Where asks are shown and answered (Slack, or a recording surface in tests). Every method may be
 * retried after a crash, so each is idempotent by the ask id.
 */
export interface AskSurface {
  /**
   * Shows an ask in the conversation. Idempotent by `ask.askId`: when a message for this ask was
   * already posted, returns its reference instead of posting again.
   * @returns an opaque reference to the shown message (stored in `AskRecord.messageRef`).
   * @throws when the ask cannot be shown after the surface's own retries.
   */
  showAsk(conversation: ConversationRef, ask: AskRecord): Promise<string>;
  /**
   * Makes the shown message of `ask` show the ask as stored now (controls of resolved questions go, the
   * choices and who made them stay). Idempotent and safe to call from any process at any time: the
   * surface reads the ask afresh and never lets an older state overwrite a newer one. A no-op when the
   * ask was never shown or its message already shows this state.
   * @throws when the surface refuses the update.
   */
  syncAsk(ask: AskRecord): Promise<void>;
  /**
   * The ask is now recorded as shown (its deadline is set): views that list open asks (the Slack Home tab)
   * may show it. Optional; best effort, never throws.
   */
  shown?(ask: AskRecord): Promise<void>;
  /**
   * Posts a notice about the ask as a reply in its thread (the ask message's thread for a program's ask
   * posted as a new message), exactly once per `notice.key` across retries and processes.
   * @throws when the surface refuses the post.
   */
  postNotice(ask: AskRecord, notice: AskNotice): Promise<void>;
}

/** A thread reply about an ask; `key` makes it exactly-once (`<kind>-<askId>-…`). */
export type AskNotice = { key: string } & (
  | { kind: 'reminder'; waitingOn: PeopleRef }
  | { kind: 'escalation'; targets: PeopleRef }
  | { kind: 'delegated'; by: string; to: string }
  | { kind: 'overridden'; questionIndex: number; by: string }
);

/**
 * The ask's timers. Implemented over BullMQ in `src/jobs/`; idempotent by a deterministic jobId, so
 * calling twice never fires twice.
 */
export interface AskTimers {
  /** Sets the ask's timeout timer due at `dueAt` (epoch ms); setting it again moves it (one timer per ask). */
  timeout(turnId: string, askId: string, dueAt: number): Promise<void>;
  /** Removes the ask's timeout and nudge timers. Tidying only: the answer-once step decides. */
  cancelTimeout(turnId: string, askId: string): Promise<void>;
  /** Sets the ask's nudge timer (reminders and the escalation) due at `dueAt` (epoch ms); one per ask. */
  nudge(turnId: string, askId: string, dueAt: number): Promise<void>;
}

/**
 * Tells a program its ask resolved (implemented over BullMQ: a `webhook` job, jobId `webhook-<askId>`, so
 * one resolution is delivered once however often this is called).
 */
export interface ProgramNotifier {
  /** Queues the signed `ask.resolved` webhook of a resolved ask whose waiter gave a `callbackUrl`. */
  notifyProgram(scope: string, askId: string): Promise<void>;
  /** Queues the signed `ask.overridden` webhook of question `questionIndex` (jobId `override-<askId>-q<i>`). */
  notifyOverride(scope: string, askId: string, questionIndex: number): Promise<void>;
}

/**
 * Tells readers waiting on an ask, in every process, that it resolved (Redis pub/sub in `src/store/`), so a
 * long-poll returns at once instead of at its next look. Best effort: a lost announcement only delays a
 * reader to its next look at the store, so implementations never throw.
 */
export interface AskWakeups {
  /** Announces that ask `askId` changed (resolved or canceled). Never throws. */
  announce(askId: string): Promise<void>;
}

/** An ask whose waiter is of kind `K`. */
export type AskOf<K extends Waiter['kind']> = AskRecord & { waiter: Extract<Waiter, { kind: K }> };

/**
 * Who continues once an ask resolved, for one kind of waiter. The ask service calls it after the
 * resolution is stored; it must be idempotent (it is called again after crashes, by the timeout job
 * and the sweep).
 */
export interface WaiterHandler<K extends Waiter['kind'] = Waiter['kind']> {
  /**
   * Makes the waiter go on with the resolved `ask` (for a turn: add its resume job). With `recover`
   * (timeout job re-run, sweep), first check that the waiter still waits on this ask; when it does
   * not, take the ask out of the indexes instead.
   */
  continue(ask: AskOf<K>, options: { recover: boolean }): Promise<void>;
  /** The ask was stored but a crash left it unshown: have it shown (for a turn: its resume job advances the turn, which shows it). */
  reshow(ask: AskOf<K>): Promise<void>;
  /**
   * A late answer replaced the assumed resolution of question `questionIndex` (stored once, in
   * `ask.overrides`): tell the waiter (for a turn: a new turn in its thread; for a program: an
   * `ask.overridden` webhook). Idempotent by ask and question.
   */
  overridden(ask: AskOf<K>, questionIndex: number): Promise<void>;
}

/** One handler per waiter kind. Adding a kind adds an entry here; transitions and rendering stay as they are. */
export type AskWaiters = { [Kind in Waiter['kind']]: WaiterHandler<Kind> };

/** The handler of `ask`'s waiter (the one place the kind and its handler are matched). */
export function waiterHandlerOf(waiters: AskWaiters, ask: AskRecord): WaiterHandler {
  return waiters[ask.waiter.kind] as WaiterHandler;
}
