import { afterAll, describe, expect, it } from 'vitest';
import { storeForTest } from './builders.js';

const { redis, store, close } = storeForTest('threads', { retentionMs: 600_000 });
afterAll(close);

const item = (turnId: string): string => JSON.stringify({ turnId, text: `message for ${turnId}` });

describe('admitToThread / releaseThread / threadHolder', () => {
  it('starts the first turn, queues the others in order, hands over on release, then frees the thread', async () => {
    const thread = 'slack-C1-1.1';
    expect(await store.threadHolder(thread)).toBeNull();
    expect(await store.admitToThread(thread, 't1', item('t1'))).toBe('start');
    expect(await store.admitToThread(thread, 't2', item('t2'))).toBe('queued');
    expect(await store.admitToThread(thread, 't3', item('t3'))).toBe('queued');
    expect(await store.threadHolder(thread)).toBe('t1');

    expect(await store.releaseThread(thread, 't1')).toBe(item('t2'));
    expect(await store.threadHolder(thread)).toBe('t2');
    expect(await store.releaseThread(thread, 't2')).toBe(item('t3'));
    expect(await store.threadHolder(thread)).toBe('t3');
    expect(await store.releaseThread(thread, 't3')).toBeNull();
    expect(await store.threadHolder(thread)).toBeNull();
    expect(await store.admitToThread(thread, 't4', item('t4'))).toBe('start');
  });

  it('lets the holder re-admit itself (a retried job) and does not queue an item twice', async () => {
    const thread = 'slack-C1-2.2';
    expect(await store.admitToThread(thread, 't1', item('t1'))).toBe('start');
    expect(await store.admitToThread(thread, 't1', item('t1'))).toBe('start');
    expect(await store.admitToThread(thread, 't2', item('t2'))).toBe('queued');
    expect(await store.admitToThread(thread, 't2', item('t2'))).toBe('queued');
    expect(await redis.llen(store.keys.threadInbox(thread))).toBe(1);
  });

  it('changes nothing when a turn that does not hold the thread releases it', async () => {
    const thread = 'slack-C1-3.3';
    await store.admitToThread(thread, 't1', item('t1'));
    await store.admitToThread(thread, 't2', item('t2'));
    expect(await store.releaseThread(thread, 't2')).toBeNull();
    expect(await store.releaseThread('slack-C1-free', 't2')).toBeNull();
    expect(await store.threadHolder(thread)).toBe('t1');
    expect(await redis.lrange(store.keys.threadInbox(thread), 0, -1)).toStrictEqual([item('t2')]);
  });

  it('drops inbox items without a turnId and hands over to the next valid one', async () => {
    const thread = 'slack-C1-4.4';
    await store.admitToThread(thread, 't1', item('t1'));
    await store.admitToThread(thread, 'bad1', 'not json');
    await store.admitToThread(thread, 'bad2', JSON.stringify({ turnId: 42 }));
    await store.admitToThread(thread, 't2', item('t2'));
    expect(await store.releaseThread(thread, 't1')).toBe(item('t2'));
    expect(await store.threadHolder(thread)).toBe('t2');
  });

  it('admits exactly one of 30 concurrent turns', async () => {
    const thread = 'slack-C1-5.5';
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.admitToThread(thread, `t${i}`, item(`t${i}`))),
    );
    expect(results.filter((r) => r === 'start')).toHaveLength(1);
    expect(await redis.llen(store.keys.threadInbox(thread))).toBe(29);
    // Every queued turn gets the thread exactly once, in inbox (FIFO) order.
    const first = await store.threadHolder(thread);
    const queued = (await redis.lrange(store.keys.threadInbox(thread), 0, -1)).map(
      (text) => (JSON.parse(text) as { turnId: string }).turnId,
    );
    const order: string[] = [];
    let holder = first;
    while (holder !== null) {
      order.push(holder);
      await store.releaseThread(thread, holder);
      holder = await store.threadHolder(thread);
    }
    expect(order).toStrictEqual([first, ...queued]);
    expect(new Set(order).size).toBe(30);
  });

  it('gives holder and inbox a TTL', async () => {
    const thread = 'slack-C1-6.6';
    await store.admitToThread(thread, 't1', item('t1'));
    await store.admitToThread(thread, 't2', item('t2'));
    expect(await redis.pttl(store.keys.threadHolder(thread))).toBeGreaterThan(590_000);
    expect(await redis.pttl(store.keys.threadInbox(thread))).toBeGreaterThan(590_000);
  });
});
