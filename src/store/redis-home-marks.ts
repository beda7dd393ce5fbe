import type { Redis } from 'ioredis';
import type { HomeMarks } from '../slack/home-tab.js';
import { StoreKeys } from './keys.js';
import { defineStoreScripts, type ScriptCall } from './lua/index.js';

/**
 * {@link HomeMarks} in Redis: the recent Home tab viewers are one zset (`<p>:slack:home:viewers`, member the
 * user id, score when they opened it), trimmed on every write to the viewers of the last `ttlMs` and to the
 * `max` newest, with a key TTL of `ttlMs`; the publish lock and the "publish again" mark are keys with TTLs.
 */
export class RedisHomeMarks implements HomeMarks {
  private readonly keys: StoreKeys;
  /** Compare-and-delete of a token key (the store's lease release script serves any token lock). */
  private readonly releaseToken: ScriptCall;

  constructor(
    private readonly redis: Redis,
    options: { prefix?: string } = {},
  ) {
    this.keys = new StoreKeys(options.prefix);
    this.releaseToken = defineStoreScripts(redis).releaseLease;
  }

  async recordOpened(userId: string, at: number, ttlMs: number, max: number): Promise<void> {
    const key = this.keys.homeViewers();
    await this.redis
      .multi()
      .zadd(key, at, userId)
      .zremrangebyscore(key, '-inf', `(${at - ttlMs}`)
      .zremrangebyrank(key, 0, -(max + 1))
      .pexpire(key, ttlMs)
      .exec();
  }

  async recentViewers(since: number, max: number): Promise<string[]> {
    return this.redis.zrevrangebyscore(this.keys.homeViewers(), '+inf', since, 'LIMIT', 0, max);
  }

  async markDirty(userId: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.homeDirty(userId), '1', 'PX', ttlMs);
  }

  async takeDirty(userId: string): Promise<boolean> {
    return (await this.redis.del(this.keys.homeDirty(userId))) === 1;
  }

  async isDirty(userId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.homeDirty(userId))) === 1;
  }

  async claimPublish(userId: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.homeLock(userId), token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async releasePublish(userId: string, token: string): Promise<void> {
    await this.releaseToken(this.keys.homeLock(userId), token);
  }
}
