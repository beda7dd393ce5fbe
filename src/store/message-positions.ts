import type { ModelMessage } from 'ai';

/**
 * Where one store last read or wrote each message object of a turn: the turn's key and the message's index
 * in the stored list. The engine never changes a message in place (it copies the list and replaces what it
 * changes), so a message object found at the index it was stored at is unchanged there, and a commit
 * writes only the messages after the longest such prefix. Weak, and one per store (so per Redis and key
 * prefix): forgetting costs a full rewrite, never a lost message.
 */
export class MessagePositions {
  readonly #positions = new WeakMap<object, { key: string; index: number }>();

  /** Records that `messages` are stored at their indexes under the turn key `key` (after a read or a write). */
  remember(key: string, messages: readonly ModelMessage[]): void {
    messages.forEach((message, index) => {
      this.#positions.set(message, { key, index });
    });
  }

  /**
   * How many leading messages of `messages` are stored already, at the same index, under `key`: a commit
   * keeps those and writes the rest. 0 for messages this store never read or wrote.
   */
  storedPrefix(key: string, messages: readonly ModelMessage[]): number {
    let keep = 0;
    while (keep < messages.length) {
      const position = this.#positions.get(messages[keep] as object);
      if (position?.key !== key || position.index !== keep) break;
      keep += 1;
    }
    return keep;
  }
}
