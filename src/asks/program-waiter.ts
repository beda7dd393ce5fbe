import type { AskOf, WaiterHandler } from './ask-ports.js';
import type { AskStore } from './ask-store.js';
import type { ConversationRef } from './conversation.js';

/**
 * The waiter of an ask a program opened (HTTP API, MCP, CLI): nothing runs when it resolves, the program
 * reads the resolution from the store (its long-poll returns). So going on is only taking the resolved ask
 * out of the index, and showing an ask a crash left unshown is showing it.
 */
export class ProgramWaiter implements WaiterHandler<'api'> {
  readonly #store: Pick<AskStore, 'unindexAsk'>;
  readonly #show: (conversation: ConversationRef, ask: AskOf<'api'>) => Promise<unknown>;

  /** @param show shows the ask (the ask service's `show`, bound late: the service holds this waiter). */
  constructor(
    store: Pick<AskStore, 'unindexAsk'>,
    show: (conversation: ConversationRef, ask: AskOf<'api'>) => Promise<unknown>,
  ) {
    this.#store = store;
    this.#show = show;
  }

  async continue(ask: AskOf<'api'>): Promise<void> {
    await this.#store.unindexAsk(ask.scope, ask.askId);
  }

  async reshow(ask: AskOf<'api'>): Promise<void> {
    await this.#show(ask.conversation, ask);
  }
}
