import type { Redis } from 'ioredis';
import type { SlackMarks } from '../slack/slack-marks.js';
import { StoreKeys } from './keys.js';
import { defineStoreScripts, type ScriptCall } from './lua/index.js';

/** How long a post mark is kept, in ms (longer than any retry of the job that posts). */
const POST_MARK_TTL_MS = 7 * 24 * 3600 * 1000;

/** {@link SlackMarks} in Redis: post marks and thread memberships, each a key with a TTL. */
export class RedisSlackMarks implements SlackMarks {
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

  async getPost(key: string): Promise<string | null> {
    return this.redis.get(this.keys.slackPost(key));
  }

  async beginPost(key: string): Promise<boolean> {
    return (await this.redis.set(this.keys.slackPost(key), 'pending', 'PX', POST_MARK_TTL_MS, 'NX')) === 'OK';
  }

  async abandonPost(key: string): Promise<void> {
    await this.redis.eval(
      "if redis.call('GET', KEYS[1]) == 'pending' then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      this.keys.slackPost(key),
    );
  }

  async finishPost(key: string, ts: string): Promise<void> {
    await this.redis.set(this.keys.slackPost(key), ts, 'PX', POST_MARK_TTL_MS);
  }

  async markThread(threadKey: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.slackThread(threadKey), '1', 'PX', ttlMs);
  }

  async isThreadMarked(threadKey: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.slackThread(threadKey))) === 1;
  }

  async claimEvent(eventId: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.event(eventId), '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async claimDraw(askId: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.slackDrawLock(askId), token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async releaseDraw(askId: string, token: string): Promise<void> {
    await this.releaseToken(this.keys.slackDrawLock(askId), token);
  }

  async drawnRevision(askId: string): Promise<number> {
    const value = await this.redis.get(this.keys.slackDrawn(askId));
    const revision = value === null ? Number.NaN : Number(value);
    return Number.isInteger(revision) ? revision : -1;
  }

  async markDrawn(askId: string, revision: number): Promise<void> {
    await this.redis.set(this.keys.slackDrawn(askId), String(revision), 'PX', POST_MARK_TTL_MS);
  }
}
