import type { ModelMessage } from 'ai';

/** Where a message object sits in a stored turn: the turn's key, its index, and the chunk that holds it. */
interface Position {
  key: string;
  index: number;
  /** Index of the chunk (hash field `c<chunk>`) that holds it. */
  chunk: number;
  /** The chunk's first message index and the index after its last. */
  chunkStart: number;
  chunkEnd: number;
}

/** What a commit writes: the chunks it keeps and the messages after them (one new chunk). */
export interface MessageDelta {
  /** Chunks `c0 … c<keepChunks - 1>` stay as they are. */
  keepChunks: number;
  /** The messages those chunks hold; the new chunk holds `messages.slice(keptMessages)`. */
  keptMessages: number;
}

/**
 * Where one store last read or wrote each message object of a turn. A turn's messages are stored in
 * chunks (one hash field per commit's new messages). The engine never changes a message in place (it copies
 * the list and replaces what it changes), so a message object found at the index it was stored at is
 * unchanged there: a commit keeps every chunk wholly inside the longest such prefix and writes the rest as
 * one new chunk. Weak, and one per store (so per Redis and key prefix): forgetting costs a full rewrite,
 * never a lost message.
 */
export class MessagePositions {
  readonly #positions = new WeakMap<object, Position>();

  /**
   * Records that `messages` are stored under the turn key `key` in chunks of the given sizes, in order
   * (after a read or a write).
   */
  remember(key: string, messages: readonly ModelMessage[], chunkSizes: readonly number[]): void {
    let index = 0;
    chunkSizes.forEach((size, chunk) => {
      const chunkStart = index;
      const chunkEnd = index + size;
      for (; index < chunkEnd && index < messages.length; index += 1) {
        this.#positions.set(messages[index] as object, { key, index, chunk, chunkStart, chunkEnd });
      }
    });
  }

  /** Records a commit that kept `delta` of `messages` and wrote the rest as one new chunk. */
  rememberCommit(key: string, messages: readonly ModelMessage[], delta: MessageDelta): void {
    const chunkStart = delta.keptMessages;
    const chunkEnd = messages.length;
    for (let index = chunkStart; index < chunkEnd; index += 1) {
      this.#positions.set(messages[index] as object, {
        key,
        index,
        chunk: delta.keepChunks,
        chunkStart,
        chunkEnd,
      });
    }
  }

  /**
   * What a commit of `messages` under `key` keeps: the chunks wholly inside the longest prefix of
   * messages stored at the same index. Nothing for messages this store never read or wrote.
   */
  delta(key: string, messages: readonly ModelMessage[]): MessageDelta {
    let same = 0;
    let last: Position | undefined;
    while (same < messages.length) {
      const position = this.#positions.get(messages[same] as object);
      if (position?.key !== key || position.index !== same) break;
      last = position;
      same += 1;
    }
    if (!last) return { keepChunks: 0, keptMessages: 0 };
    return last.chunkEnd === same
      ? { keepChunks: last.chunk + 1, keptMessages: same }
      : { keepChunks: last.chunk, keptMessages: last.chunkStart };
  }
}
