import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSlot } from '../../../src/store/cluster-slot.js';
import { StoreKeys } from '../../../src/store/keys.js';
import { RedisTurnStore } from '../../../src/store/redis-turn-store.js';
import { type RedisServerHandle, startRedisServer } from '../../support/redis-server.js';
import { answer, assumed, pausedAsk } from './builders.js';

/**
 * A one-node Redis Cluster that owns every slot: it answers `CLUSTER KEYSLOT`, and it refuses any script
 * or command whose keys span slots with CROSSSLOT, exactly as a multi-node cluster would (C17).
 */
let server: RedisServerHandle;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']);
  redis = new Redis(server.url, { maxRetriesPerRequest: null });
  await redis.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  for (let i = 0; i < 100; i += 1) {
    const info = String(await redis.call('CLUSTER', 'INFO'));
    if (info.includes('cluster_state:ok')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the one-node cluster did not reach cluster_state:ok');
}, 30_000);

afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});

describe('Redis Cluster slots', () => {
  const keys = new StoreKeys('hp');
  const turnIds = ['T1', '123456', 'slack-C0123-1700000000.000100', 'a:b:c', 'x}y', 'ünïcødé-🙂'];

  it('computes the same slot as CLUSTER KEYSLOT', async () => {
    const all = turnIds.flatMap((id) => [
      keys.turn(id),
      keys.ask(id, 'ask-0'),
      keys.threadHolder(id),
      keys.threadInbox(id),
      keys.event(id),
    ]);
    all.push(keys.askIndex(), 'foo', '{user1000}.following', 'foo{}{bar}');
    for (const key of all) {
      expect(clusterSlot(key)).toBe(Number(await redis.call('CLUSTER', 'KEYSLOT', key)));
    }
  });

  it('runs every script and index command without CROSSSLOT', async () => {
    const store = new RedisTurnStore(redis, { prefix: 'hpc' });
    await pausedAsk(store, 'c1', 'a', { questionCount: 2 });
    await store.markAskShown('c1', 'a', Date.now(), 'ref');
    expect((await store.answerQuestion('c1', 'a', 0, answer('U1'))).status).toBe('recorded');
    expect((await store.resolveOpenQuestions('c1', 'a', [assumed(), assumed()])).status).toBe('completed');
    expect(await store.markResumeQueued('c1', 'a', Date.now())).toBe(true);
    await pausedAsk(store, 'c2', 'a');
    expect((await store.cancelAsk('c2', 'a', 'U_REQ', new Date().toISOString())).status).toBe('completed');
    expect(await store.listUnresumedAsks(10)).toHaveLength(2);
    expect(await store.listOverdueAsks(Date.now(), 0, 10)).toHaveLength(0);
    await store.unindexAsk('c1', 'a');
    const turn = await store.getTurn('c1');
    if (!turn) throw new Error('missing');
    expect((await store.commitTurn({ ...turn, status: 'completed' }, turn.rev)).ok).toBe(true);
    expect(await store.admitToThread('th', 'c1', JSON.stringify({ turnId: 'c1' }))).toBe('start');
    expect(await store.admitToThread('th', 'c2', JSON.stringify({ turnId: 'c2' }))).toBe('queued');
    expect(await store.releaseThread('th', 'c1')).toBe(JSON.stringify({ turnId: 'c2' }));
    expect(await store.threadHolder('th')).toBe('c2');
  });

  it('really enforces CROSSSLOT on this server (the check above is meaningful)', async () => {
    await expect(redis.eval('return 1', 2, 'hp:{t:a}:turn', 'hp:{t:b}:turn')).rejects.toThrow(/CROSSSLOT/);
  });
});
