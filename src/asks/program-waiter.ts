import type { AskOf, ProgramNotifier, WaiterHandler } from './ask-ports.js';
import type { AskStore } from './ask-store.js';
import type { ConversationRef } from './conversation.js';

/**
 * The waiter of an ask a program opened (HTTP API, MCP, CLI): nothing runs when it resolves; the program
 * reads the resolution from the store (its long-poll returns), and one that gave a `callbackUrl` gets a
 * webhook. So going on is queuing that webhook (idempotent by jobId) and then taking the resolved ask out of
 * the index (a crash in between leaves it there, and the sweep queues again); showing an ask a crash left
 * unshown is showing it.
 */
export class ProgramWaiter implements WaiterHandler<'api'> {
  readonly #store: Pick<AskStore, 'unindexAsk'>;
  readonly #show: (conversation: ConversationRef, ask: AskOf<'api'>) => Promise<unknown>;
  readonly #notifier: ProgramNotifier;
  readonly #sync: (ask: AskOf<'api'>) => Promise<unknown>;

  /**
   * @param show shows the ask (the ask service's `show`, bound late: the service holds this waiter)
   * @param notifier queues the webhook
   * @param sync brings the ask's message up to date (the service's `syncQuietly`): nothing else redraws a
   *   program's ask after a cancel, as a turn's resume does for a turn's ask
   */
  constructor(
    store: Pick<AskStore, 'unindexAsk'>,
    show: (conversation: ConversationRef, ask: AskOf<'api'>) => Promise<unknown>,
    notifier: ProgramNotifier,
    sync: (ask: AskOf<'api'>) => Promise<unknown> = async () => undefined,
  ) {
    this.#store = store;
    this.#show = show;
    this.#notifier = notifier;
    this.#sync = sync;
  }

  async continue(ask: AskOf<'api'>): Promise<void> {
    if (ask.waiter.callbackUrl) await this.#notifier.notifyProgram(ask.scope, ask.askId);
    await this.#sync(ask);
    await this.#store.unindexAsk(ask.scope, ask.askId);
  }

  async reshow(ask: AskOf<'api'>): Promise<void> {
    await this.#show(ask.conversation, ask);
  }
}
