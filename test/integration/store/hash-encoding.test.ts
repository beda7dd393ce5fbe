import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRedisFlags } from '../../../scripts/redis-flags.mjs';
import { RedisTurnStore } from '../../../src/store/redis-turn-store.js';
import { type RedisServerHandle, startRedisServer } from '../../support/redis-server.js';
import { makeTurn, pausedAsk } from './builders.js';

// A Redis started as docker-compose.yml starts it (its own server: the shared test server may run without
// the compose flags).
let server: RedisServerHandle;
let redis: Redis;
let store: RedisTurnStore;
beforeAll(async () => {
  server = await startRedisServer(readRedisFlags());
  redis = new Redis(server.url, { maxRetriesPerRequest: null });
  store = new RedisTurnStore(redis, { prefix: 'enc' });
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

describe('hash encodings under the compose flags (--hash-max-ziplist-value 1024)', () => {
  it('an open ask is one compact listpack, not a hashtable of separately allocated fields', async () => {
    await pausedAsk(store, 'enc-1', 'ask-1');
    expect(await redis.object('ENCODING', store.keys.ask('enc-1', 'ask-1'))).toBe('listpack');
  });

  it('a turn whose chunks are under 1 KB stored (a deflated 2 KB history) is one listpack too', async () => {
    const messages = Array.from({ length: 24 }, (_, index) => ({
      role: 'user' as const,
      content: `message ${index} about the canary deploy of payments-api and its error rate ${index * 37}`,
    }));
    await store.createTurn(makeTurn('enc-2', { messages }));
    expect(JSON.stringify(messages).length).toBeGreaterThan(2000);
    expect(((await redis.hgetBuffer(store.keys.turn('enc-2'), 'c0')) as Buffer)[0]).toBe(0x78);
    expect(await redis.object('ENCODING', store.keys.turn('enc-2'))).toBe('listpack');
  });
});
