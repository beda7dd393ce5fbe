import type { Redis } from 'ioredis';
import type { SlackMarks } from '../slack/slack-marks.js';
import { StoreKeys } from './keys.js';

/** How long a post mark is kept, in ms (longer than any retry of the job that posts). */
const POST_MARK_TTL_MS = 7 * 24 * 3600 * 1000;

/** {@link SlackMarks} in Redis: post marks and thread memberships, each a key with a TTL. */
export class RedisSlackMarks implements SlackMarks {
  private readonly keys: StoreKeys;

  constructor(
    private readonly redis: Redis,
    options: { prefix?: string } = {},
  ) {
    this.keys = new StoreKeys(options.prefix);
  }

  async getPost(key: string): Promise<string | null> {
    return this.redis.get(this.keys.slackPost(key));
  }

  async beginPost(key: string): Promise<boolean> {
    return (await this.redis.set(this.keys.slackPost(key), 'pending', 'PX', POST_MARK_TTL_MS, 'NX')) === 'OK';
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
}
