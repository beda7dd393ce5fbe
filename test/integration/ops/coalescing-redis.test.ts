import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoalescingRedis, flushWrites } from '../../../src/ops/coalescing-redis.js';
import { captureChild } from '../../support/child-output.js';
import { testRedisClient, testRedisUrl } from '../../support/redis.js';

const CHILD = fileURLToPath(new URL('../../support/coalescing-child.ts', import.meta.url));

/** Runs the child, which sends `sets` SETs in one tick and dies by SIGKILL; returns which keys reached Redis. */
async function keysThatReachedRedis(
  redis: Redis,
  options: { sets: number; maxBatch: number; flush: boolean; reconnectFirst?: boolean; expected: number },
): Promise<number[]> {
  const prefix = `hp-coalesce-${randomUUID()}`;
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      HP_REDIS_URL: testRedisUrl(),
      HP_PREFIX: prefix,
      HP_SETS: String(options.sets),
      HP_MAX_BATCH: String(options.maxBatch),
      HP_FLUSH: options.flush ? '1' : '0',
      HP_RECONNECT_FIRST: options.reconnectFirst ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { exited, output } = captureChild(child);
  const { signal } = await exited;
  expect(signal, output()).toBe('SIGKILL');
  // What the kernel had taken before the kill is still delivered: wait until the expected keys arrived (up to
  // 5 s), then a little longer, so that keys that should not arrive had their chance to.
  const keys = async () =>
    (await redis.keys(`${prefix}:*`)).map((key) => Number(key.slice(prefix.length + 1)));
  for (let waited = 0; waited < 5000 && (await keys()).length < options.expected; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  return (await keys()).sort((a, b) => a - b);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('CoalescingRedis against a real Redis', () => {
  let redis: Redis;
  let client: CoalescingRedis;
  beforeAll(async () => {
    redis = testRedisClient();
    client = new CoalescingRedis(testRedisUrl(), { maxBatch: 16 });
    await client.ping();
  });
  afterAll(async () => {
    await client.quit();
    await redis.quit();
  });

  it('gives every command of a tick its own reply, in order, across several batches', async () => {
    const key = `hp-coalesce-${randomUUID()}`;
    const replies = await Promise.all([
      ...range(100).map(() => client.incr(key)),
      client.get(key),
      client.del(key),
      client.get(key),
    ]);
    expect(replies).toEqual([...range(100).map((i) => i + 1), '100', 1, null]);
  });

  it('sends a command issued on its own without waiting for anything else', async () => {
    expect(await client.ping()).toBe('PONG');
    expect(await client.echo('alone')).toBe('alone');
  });

  it('keeps pipelines and MULTI working', async () => {
    const key = `hp-coalesce-${randomUUID()}`;
    const piped = await client.pipeline().set(key, 'a').append(key, 'b').get(key).exec();
    expect(piped?.map(([error, value]) => [error, value])).toEqual([
      [null, 'OK'],
      [null, 2],
      [null, 'ab'],
    ]);
    expect(await client.multi().append(key, 'c').get(key).del(key).exec()).toEqual([
      [null, 3],
      [null, 'abc'],
      [null, 1],
    ]);
  });

  it('replies correctly on the new socket after a reconnect', async () => {
    const id = await client.client('ID');
    const closed = new Promise((resolve) => client.once('close', resolve));
    await redis.client('KILL', 'ID', String(id));
    await closed;
    const key = `hp-coalesce-${randomUUID()}`;
    expect(await Promise.all([client.set(key, 'x'), client.get(key), client.del(key)])).toEqual([
      'OK',
      'x',
      1,
    ]);
    expect(await client.client('ID')).not.toBe(id);
  });

  it('rejects a maxBatch that is not an integer >= 1 before it opens a connection', () => {
    for (const maxBatch of [0, -1, 1.5, Number.NaN]) {
      expect(() => new CoalescingRedis(testRedisUrl(), { maxBatch })).toThrow(
        `maxBatch must be an integer >= 1, got ${maxBatch}`,
      );
    }
  });

  it('flushWrites() on a plain client does nothing (and does not throw)', () => {
    expect(() => flushWrites(redis)).not.toThrow();
  });

  // Each child process dies by SIGKILL before its tick ends, so only what was written to the socket by then
  // reaches Redis.
  it('holds the commands of a tick back until the tick ends: a process killed within the tick sent none', async () => {
    expect(await keysThatReachedRedis(redis, { sets: 5, maxBatch: 16, flush: false, expected: 0 })).toEqual(
      [],
    );
  }, 30_000);

  it('flushWrites() puts the held-back commands on the wire at once', async () => {
    expect(await keysThatReachedRedis(redis, { sets: 5, maxBatch: 16, flush: true, expected: 5 })).toEqual(
      range(5),
    );
  }, 30_000);

  it('writes as soon as maxBatch commands wait, without waiting for the tick to end', async () => {
    expect(await keysThatReachedRedis(redis, { sets: 20, maxBatch: 8, flush: false, expected: 16 })).toEqual(
      range(16),
    );
  }, 30_000);

  it('goes on holding commands back on the new socket after a reconnect', async () => {
    expect(
      await keysThatReachedRedis(redis, {
        sets: 5,
        maxBatch: 16,
        flush: false,
        reconnectFirst: true,
        expected: 0,
      }),
    ).toEqual([]);
  }, 30_000);

  it('with maxBatch 1 writes every command as it is sent', async () => {
    expect(await keysThatReachedRedis(redis, { sets: 5, maxBatch: 1, flush: false, expected: 5 })).toEqual(
      range(5),
    );
  }, 30_000);
});
