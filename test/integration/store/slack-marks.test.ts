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
