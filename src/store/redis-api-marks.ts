import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApiMarks } from '../api/api-marks.js';
import { StoreKeys } from './keys.js';

/** {@link ApiMarks} in Redis: one key per idempotency key (by digest) and per rate window, each with a TTL. */
export class RedisApiMarks implements ApiMarks {
  readonly #keys: StoreKeys;

  constructor(
    private readonly redis: Redis,
    options: { prefix?: string } = {},
  ) {
    this.#keys = new StoreKeys(options.prefix);
  }

  #idempotencyKey(client: string, key: string): string {
    const digest = createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32);
    return this.#keys.apiIdempotency(client, digest);
  }

  async claimIdempotencyKey(
    client: string,
    key: string,
    askId: string,
    bodyDigest: string,
    ttlMs: number,
  ): Promise<{ askId: string; sameBody: boolean }> {
    const redisKey = this.#idempotencyKey(client, key);
    if ((await this.redis.set(redisKey, `${askId} ${bodyDigest}`, 'PX', ttlMs, 'NX')) === 'OK')
      return { askId, sameBody: true };
    const [holder = askId, digest = bodyDigest] = ((await this.redis.get(redisKey)) ?? '').split(' ');
    return { askId: holder || askId, sameBody: digest === bodyDigest };
  }

  async releaseIdempotencyKey(client: string, key: string, askId: string): Promise<void> {
    await this.redis.eval(
      "local v = redis.call('GET', KEYS[1]) if v and string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      this.#idempotencyKey(client, key),
      askId,
    );
  }

  async countRequest(client: string, windowMs: number, now: number): Promise<number> {
    const key = this.#keys.apiRate(client, Math.floor(now / windowMs));
    const [[, count]] = (await this.redis
      .multi()
      .incr(key)
      .pexpire(key, windowMs * 2)
      .exec()) as [[Error | null, number], [Error | null, number]];
    return count;
  }

  async isDelivered(askId: string): Promise<boolean> {
    return (await this.redis.exists(this.#keys.apiDelivered(askId))) === 1;
  }

  async markDelivered(askId: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.#keys.apiDelivered(askId), '1', 'PX', ttlMs);
  }
}
