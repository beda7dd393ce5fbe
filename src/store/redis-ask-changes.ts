import type { Redis } from 'ioredis';
import type { AskChanges } from '../api/ask-changes.js';
import type { AskWakeups } from '../asks/ask-ports.js';
import { StoreKeys } from './keys.js';

/**
 * Ask announcements over Redis pub/sub: one channel per store prefix (`<p>:asks:changed`), whose messages
 * are ask ids. {@link announce} publishes on any client; readers of this process share one subscription on
 * a dedicated connection (ioredis resubscribes it after a reconnect). An announcement lost while that
 * connection was down only delays a reader to its next look at the store.
 */
export class RedisAskChanges implements AskWakeups, AskChanges {
  readonly #publisher: Redis;
  readonly #subscriber: Redis | null;
  readonly #channel: string;
  readonly #listeners = new Map<string, Set<() => void>>();

  /**
   * @param publisher any client (commands); announcements go out on it
   * @param subscriber a connection of its own, put in subscriber mode by {@link start}; null in a process
   *   that only announces (a worker)
   */
  constructor(publisher: Redis, subscriber: Redis | null, options: { prefix?: string } = {}) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#channel = `${new StoreKeys(options.prefix).prefix}:asks:changed`;
    subscriber?.on('message', (channel: string, askId: string) => {
      if (channel !== this.#channel) return;
      for (const listener of this.#listeners.get(askId) ?? []) listener();
    });
  }

  /** Subscribes (a no-op without a subscriber). @throws when Redis refuses or cannot be reached. */
  async start(): Promise<void> {
    await this.#subscriber?.subscribe(this.#channel);
  }

  async announce(askId: string): Promise<void> {
    try {
      await this.#publisher.publish(this.#channel, askId);
    } catch {
      // Best effort: readers look at the store again within a second anyway.
    }
  }

  onChange(askId: string, listener: () => void): () => void {
    const set = this.#listeners.get(askId) ?? new Set();
    set.add(listener);
    this.#listeners.set(askId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(askId) === set) this.#listeners.delete(askId);
    };
  }

  /** Listeners still registered (for tests: a finished long-poll leaves none). */
  get listenerCount(): number {
    let count = 0;
    for (const set of this.#listeners.values()) count += set.size;
    return count;
  }
}
