import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { HeldReply, ReplyDecision, SlackMarks } from '../slack/slack-marks.js';
import { StoreKeys } from './keys.js';
import { defineStoreScripts, type ScriptCall } from './lua/index.js';
import { SCRIPT_CODE } from './script-codes.js';

const heldReplySchema = z.object({
  channel: z.string(),
  ts: z.string(),
  threadTs: z.string(),
  teamId: z.string().optional(),
  userId: z.string(),
  text: z.string(),
  turnId: z.string(),
  askId: z.string(),
  questionIndex: z.number().int().min(0),
  follow: z.boolean(),
});

function parseHeldReply(data: unknown): HeldReply | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = heldReplySchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How long a post mark is kept, in ms (longer than any retry of the job that posts). */
const POST_MARK_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * {@link SlackMarks} in Redis: post marks, thread memberships, held replies and cached names, each a key
 * with a TTL.
 */
export class RedisSlackMarks implements SlackMarks {
  private readonly keys: StoreKeys;
  /** Compare-and-delete of a token key (the store's lease release script serves any token lock). */
  private readonly releaseToken: ScriptCall;
  private readonly decideHeldReply: ScriptCall;

  constructor(
    private readonly redis: Redis,
    options: { prefix?: string } = {},
  ) {
    this.keys = new StoreKeys(options.prefix);
    const scripts = defineStoreScripts(redis);
    this.releaseToken = scripts.releaseLease;
    this.decideHeldReply = scripts.decideHeldReply;
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

  async holdReply(reply: HeldReply, ttlMs: number): Promise<void> {
    const key = this.keys.slackHeldReply(reply.channel, reply.ts);
    // A second hold of the same reply (a retried listener) keeps a decision already made.
    await this.redis
      .multi()
      .hset(key, 'data', JSON.stringify(reply), 'user', reply.userId)
      .pexpire(key, ttlMs)
      .exec();
  }

  async decideReply(
    channel: string,
    ts: string,
    decision: 'use' | 'dismiss',
    userId: string,
  ): Promise<ReplyDecision> {
    const raw = (await this.decideHeldReply(this.keys.slackHeldReply(channel, ts), decision, userId)) as [
      number,
      string?,
      string?,
    ];
    const [code, decided, data] = raw;
    if (code === SCRIPT_CODE.forbidden) return { status: 'forbidden' };
    const reply = parseHeldReply(data);
    if (code === SCRIPT_CODE.notFound || !reply || (decided !== 'use' && decided !== 'dismiss'))
      return { status: 'not-found' };
    return { status: code === SCRIPT_CODE.ok ? 'decided' : 'decided-before', decision: decided, reply };
  }

  async userNames(userIds: readonly string[]): Promise<Array<string | null>> {
    if (userIds.length === 0) return [];
    return this.redis.mget(userIds.map((userId) => this.keys.slackUserName(userId)));
  }

  async cacheUserName(userId: string, name: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.slackUserName(userId), name, 'PX', ttlMs);
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
