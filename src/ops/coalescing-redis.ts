import type { Writable } from 'node:stream';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * Most commands {@link CoalescingRedis} holds back before it writes them: 16. Measured with the answer-record
 * benchmark at 50 concurrent answers on the 2-core machine: one write per command costs the Node process about
 * 8 µs of CPU per command in socket writes; holding a whole tick back (ioredis `enableAutoPipelining`)
 * saves that but sends all 50 at once, so Redis idles while Node works and the other way round (p50 2.1 ms
 * against 1.0 ms); batches of at most 16 keep both busy (Node CPU per answer 23 -> 17 µs).
 */
export const DEFAULT_MAX_BATCH = 16;

/** Options of {@link CoalescingRedis}: ioredis options plus the batch bound. */
export interface CoalescingRedisOptions extends RedisOptions {
  /** Most commands held back before they are written; default {@link DEFAULT_MAX_BATCH}. 1 turns coalescing off. */
  maxBatch?: number;
}

type SendCommand = Redis['sendCommand'];

/**
 * An ioredis client that writes the commands issued within one tick of the event loop to its socket
 * together (one `writev` for up to `maxBatch` commands) instead of one socket write per command. Commands,
 * replies and their order are exactly those of a plain client; only the socket writes are grouped: the
 * socket is corked at the first command of a tick and uncorked at `process.nextTick` (after the promise
 * continuations pending then have run), or as soon as `maxBatch` commands are waiting. A pipeline or `MULTI`
 * is written in one go, as by a plain client, and held back with whatever this tick sent before it.
 *
 * A command is therefore not on the wire when its method returns, only by the end of the tick: code that
 * must know a command left the process before it goes on (a write nobody awaits, followed by work a crash
 * must not overtake) calls {@link CoalescingRedis.flushWrites} (or {@link flushWrites} for any client).
 */
export class CoalescingRedis extends Redis {
  readonly #maxBatch: number;
  #corked: Writable | null = null;
  #waiting = 0;

  /**
   * @param url `redis://` or `rediss://` URL.
   * @throws RangeError when `maxBatch` is not an integer >= 1 (before any connection is opened).
   */
  constructor(url: string, options: CoalescingRedisOptions = {}) {
    const { maxBatch = DEFAULT_MAX_BATCH, ...redisOptions } = options;
    if (!Number.isInteger(maxBatch) || maxBatch < 1) {
      throw new RangeError(`maxBatch must be an integer >= 1, got ${maxBatch}`);
    }
    super(url, redisOptions);
    this.#maxBatch = maxBatch;
  }

  override sendCommand(...args: Parameters<SendCommand>): ReturnType<SendCommand> {
    // A command with its own stream belongs to a pipeline, which ioredis writes in one go.
    if (args[1] === undefined && this.#maxBatch > 1) this.#cork();
    const result = super.sendCommand(...args);
    if (this.#corked && ++this.#waiting >= this.#maxBatch) this.flushWrites();
    return result;
  }

  /** Writes every command held back so far to the socket now (synchronously, as far as the kernel takes it). */
  flushWrites(): void {
    const stream = this.#corked;
    if (!stream) return;
    this.#corked = null;
    this.#waiting = 0;
    stream.uncork();
  }

  #cork(): void {
    if (this.#corked || this.status !== 'ready') return;
    const stream: Writable | undefined = this.stream;
    if (!stream?.writable) return;
    stream.cork();
    this.#corked = stream;
    process.nextTick(() => {
      if (this.#corked === stream) this.flushWrites();
    });
  }
}

/**
 * Puts the commands `redis` holds back on the wire now when it is a {@link CoalescingRedis}; a no-op for any
 * other client (it writes each command as it is sent).
 */
export function flushWrites(redis: Redis): void {
  if (redis instanceof CoalescingRedis) redis.flushWrites();
}
