import { afterAll, describe, expect, it } from 'vitest';
import { RedisTurnStore } from '../../../src/store/redis-turn-store.js';
import { testRedisClient, uniquePrefix } from '../../support/redis.js';

describe('turn lease', () => {
  const redis = testRedisClient();
  const store = new RedisTurnStore(redis, { prefix: uniquePrefix('lease') });
  afterAll(async () => {
    await redis.quit();
  });

  it('one holder at a time; renew and release only with the holder token', async () => {
    expect(await store.acquireTurnLease('t1', 'a', 5000)).toBe(true);
    expect(await store.acquireTurnLease('t1', 'b', 5000)).toBe(false);
    expect(await store.renewTurnLease('t1', 'b', 5000)).toBe(false);
    expect(await store.renewTurnLease('t1', 'a', 9000)).toBe(true);
    expect(await redis.pttl(store.keys.turnLease('t1'))).toBeGreaterThan(5000);
    await store.releaseTurnLease('t1', 'b');
    expect(await store.acquireTurnLease('t1', 'b', 5000)).toBe(false);
    await store.releaseTurnLease('t1', 'a');
    expect(await store.acquireTurnLease('t1', 'b', 5000)).toBe(true);
  });

  it('lapses after its time to live, so a crashed holder does not block the turn', async () => {
    expect(await store.acquireTurnLease('t2', 'dead', 50)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await store.acquireTurnLease('t2', 'next', 5000)).toBe(true);
  });
});
