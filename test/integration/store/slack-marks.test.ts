import { afterAll, describe, expect, it } from 'vitest';
import { StoreKeys } from '../../../src/store/keys.js';
import { RedisSlackMarks } from '../../../src/store/redis-slack-marks.js';
import { testRedisClient, uniquePrefix } from '../../support/redis.js';

const redis = testRedisClient();
const prefix = uniquePrefix('marks');
const marks = new RedisSlackMarks(redis, { prefix });
const keys = new StoreKeys(prefix);
afterAll(async () => {
  await redis.quit();
});

describe('claimEvent', () => {
  it('is true the first time only, with a TTL', async () => {
    expect(await marks.claimEvent('Ev1', 3_600_000)).toBe(true);
    expect(await marks.claimEvent('Ev1', 3_600_000)).toBe(false);
    expect(await redis.pttl(keys.event('Ev1'))).toBeGreaterThan(3_500_000);
  });

  it('lets exactly one of 50 concurrent claims win', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => marks.claimEvent('Ev-race', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('is true again after the TTL', async () => {
    expect(await marks.claimEvent('Ev-short', 20)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await marks.claimEvent('Ev-short', 20)).toBe(true);
  });
});

describe('the ask message draw lock and revision', () => {
  it('one holder at a time; released only with its token; the drawn revision defaults to -1', async () => {
    expect(await marks.drawnRevision('ask-1')).toBe(-1);
    expect(await marks.claimDraw('ask-1', 'a', 10_000)).toBe(true);
    expect(await marks.claimDraw('ask-1', 'b', 10_000)).toBe(false);
    await marks.releaseDraw('ask-1', 'b');
    expect(await marks.claimDraw('ask-1', 'b', 10_000)).toBe(false);
    await marks.releaseDraw('ask-1', 'a');
    expect(await marks.claimDraw('ask-1', 'b', 10_000)).toBe(true);
    await marks.markDrawn('ask-1', 3);
    expect(await marks.drawnRevision('ask-1')).toBe(3);
  });
});

describe('held replies (a thread reply offered as an answer)', () => {
  const reply = {
    channel: 'C0OPS',
    ts: '1780000000.000900',
    threadTs: '1780000000.000100',
    userId: 'U0BOB',
    text: 'let me check',
    turnId: 'turn-1',
    askId: 'ask-1',
    questionIndex: 0,
    follow: false,
  };

  it('keeps the reply with a TTL; the first decision stands, only its author decides', async () => {
    await marks.holdReply(reply, 60_000);
    expect(await redis.pttl(keys.slackHeldReply(reply.channel, reply.ts))).toBeGreaterThan(50_000);
    expect(await marks.decideReply(reply.channel, reply.ts, 'use', 'U0CAROL')).toEqual({
      status: 'forbidden',
    });
    expect(await marks.decideReply(reply.channel, reply.ts, 'dismiss', 'U0BOB')).toEqual({
      status: 'decided',
      decision: 'dismiss',
      reply,
    });
    expect(await marks.decideReply(reply.channel, reply.ts, 'use', 'U0BOB')).toEqual({
      status: 'decided-before',
      decision: 'dismiss',
      reply,
    });
    // Holding it again (a retried listener) keeps the decision.
    await marks.holdReply(reply, 60_000);
    expect(await marks.decideReply(reply.channel, reply.ts, 'use', 'U0BOB')).toMatchObject({
      decision: 'dismiss',
    });
  });

  it('lets exactly one of 20 concurrent decisions make it', async () => {
    const other = { ...reply, ts: '1780000000.000901' };
    await marks.holdReply(other, 60_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        marks.decideReply(other.channel, other.ts, i % 2 ? 'use' : 'dismiss', 'U0BOB'),
      ),
    );
    expect(results.filter((result) => result.status === 'decided')).toHaveLength(1);
    const decisions = new Set(results.map((result) => ('decision' in result ? result.decision : null)));
    expect(decisions.size).toBe(1);
  });

  it('finds nothing for a reply never held', async () => {
    expect(await marks.decideReply('C0OPS', '1.2', 'use', 'U0BOB')).toEqual({ status: 'not-found' });
  });
});

describe('cached display names', () => {
  it('reads back what was cached, null for the rest, with a TTL', async () => {
    await marks.cacheUserName('U0ALICE', 'Alice Smith', 60_000);
    expect(await marks.userNames(['U0ALICE', 'U0NOBODY'])).toEqual(['Alice Smith', null]);
    expect(await marks.userNames([])).toEqual([]);
    expect(await redis.pttl(keys.slackUserName('U0ALICE'))).toBeGreaterThan(50_000);
  });
});
