import type { AskOf, WaiterHandler } from '../asks/ask-ports.js';
import type { AskStore } from '../asks/ask-store.js';
import type { Scheduler } from './scheduler.js';
import type { TurnStore } from './turn-store.js';

/** What {@link TurnWaiter} needs. */
export interface TurnWaiterDeps {
  store: Pick<TurnStore, 'getTurn'> & Pick<AskStore, 'markResumeQueued' | 'unindexAsk'>;
  scheduler: Pick<Scheduler, 'resume'>;
  /** Epoch ms. */
  now: () => number;
}

/**
 * The waiter of an ask asked by an agent turn: once the ask resolved, the turn's `resume` job is added
 * (jobId `resume-<askId>`, so adding it twice runs it once) and noted on the ask. On recovery it first
 * checks that the turn still waits on this ask; when the turn has moved on, the ask leaves the index.
 */
export class TurnWaiter implements WaiterHandler<'turn'> {
  readonly #deps: TurnWaiterDeps;

  constructor(deps: TurnWaiterDeps) {
    this.#deps = deps;
  }

  async continue(ask: AskOf<'turn'>, options: { recover: boolean }): Promise<void> {
    const { store, scheduler, now } = this.#deps;
    const { turnId } = ask.waiter;
    if (options.recover) {
      const turn = await store.getTurn(turnId);
      if (turn?.status !== 'paused' || turn.pendingAskId !== ask.askId) {
        await store.unindexAsk(ask.scope, ask.askId);
        return;
      }
    }
    await Promise.all([
      scheduler.resume(turnId, ask.askId, { recover: options.recover }),
      store.markResumeQueued(ask.scope, ask.askId, now()),
    ]);
  }

  async reshow(ask: AskOf<'turn'>): Promise<void> {
    // The resume job advances the paused turn, which shows its ask.
    await this.#deps.scheduler.resume(ask.waiter.turnId, ask.askId, { recover: true });
  }
}
