import type { AskOf, WaiterHandler } from '../asks/ask-ports.js';
import type { AskStore } from '../asks/ask-store.js';
import { overrideNote } from '../asks/override-note.js';
import type { Scheduler } from './scheduler.js';
import { submitTurn } from './thread-admission.js';
import type { ThreadQueue, TurnStore } from './turn-store.js';

/** What {@link TurnWaiter} needs. */
export interface TurnWaiterDeps {
  store: Pick<TurnStore, 'getTurn'> &
    Pick<AskStore, 'markResumeQueued' | 'unindexAsk'> &
    Pick<ThreadQueue, 'admitToThread'>;
  scheduler: Pick<Scheduler, 'resume' | 'startTurn'>;
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

  /**
   * A late answer changed an assumption the turn already went on with: a new turn in the ask's thread
   * (turnId `override-<askId>-q<i>`, so telling it twice starts it once) whose input says plainly who
   * replaced which assumed answer with what ({@link overrideNote}).
   */
  async overridden(ask: AskOf<'turn'>, questionIndex: number): Promise<void> {
    const note = overrideNote(ask, questionIndex);
    const override = ask.overrides[questionIndex];
    if (note === null || !override) return;
    const at = Date.parse(override.at);
    await submitTurn(this.#deps, {
      turnId: `override-${ask.askId}-q${questionIndex}`,
      conversation: ask.conversation,
      requestedBy: override.by,
      trigger: { text: note, ts: slackTs(at), userId: override.by, synthetic: true },
    });
  }

  async reshow(ask: AskOf<'turn'>): Promise<void> {
    // The resume job advances the paused turn, which shows its ask.
    await this.#deps.scheduler.resume(ask.waiter.turnId, ask.askId, { recover: true });
  }
}

/** A Slack-style message ts for epoch ms (`<seconds>.<micros>`): the point in the thread a turn starts from. */
function slackTs(ms: number): string {
  const safe = Number.isFinite(ms) ? ms : Date.now();
  return `${Math.floor(safe / 1000)}.${String((safe % 1000) * 1000).padStart(6, '0')}`;
}
