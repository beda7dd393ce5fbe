import type { AskOf, AskWakeups, ProgramNotifier, WaiterHandler } from './ask-ports.js';
import type { AskStore } from './ask-store.js';
import type { ConversationRef } from './conversation.js';

/** What a {@link ProgramWaiter} needs. */
export interface ProgramWaiterDeps {
  store: Pick<AskStore, 'unindexAsk'>;
  /** Shows the ask (the ask service's `show`, bound late: the service holds this waiter). */
  show: (conversation: ConversationRef, ask: AskOf<'api'>) => Promise<unknown>;
  /** Queues the webhook. */
  notifier: ProgramNotifier;
  /**
   * Brings the ask's message up to date (the service's `syncQuietly`): nothing else redraws a program's ask
   * after a cancel, as a turn's resume does for a turn's ask. Default: nothing.
   */
  sync?: (ask: AskOf<'api'>) => Promise<unknown>;
  /** Wakes the program's long-polls and MCP calls waiting on the ask. Default: nothing (they look again on their own). */
  wakeups?: AskWakeups;
}

/**
 * The waiter of an ask a program opened (HTTP API, MCP, CLI): nothing runs when it resolves; the program
 * reads the resolution from the store (its long-poll, woken by an announcement, returns), and one that gave
 * a `callbackUrl` gets a webhook. So going on is announcing the resolution, queuing that webhook (idempotent
 * by jobId) and then taking the resolved ask out of the index (a crash in between leaves it there, and the
 * sweep does it all again); showing an ask a crash left unshown is showing it.
 */
export class ProgramWaiter implements WaiterHandler<'api'> {
  readonly #deps: ProgramWaiterDeps;

  constructor(deps: ProgramWaiterDeps) {
    this.#deps = deps;
  }

  async continue(ask: AskOf<'api'>): Promise<void> {
    await this.#deps.wakeups?.announce(ask.askId);
    if (ask.waiter.callbackUrl) await this.#deps.notifier.notifyProgram(ask.scope, ask.askId);
    await this.#deps.sync?.(ask);
    await this.#deps.store.unindexAsk(ask.scope, ask.askId);
  }

  async overridden(ask: AskOf<'api'>, questionIndex: number): Promise<void> {
    await this.#deps.wakeups?.announce(ask.askId);
    if (ask.waiter.callbackUrl) await this.#deps.notifier.notifyOverride(ask.scope, ask.askId, questionIndex);
  }

  async reshow(ask: AskOf<'api'>): Promise<void> {
    await this.#deps.show(ask.conversation, ask);
  }
}
