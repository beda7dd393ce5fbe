import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedis } from '../../../src/ops/redis-checks.js';
import { type RedisServerHandle, startRedisServer } from '../../support/redis-server.js';

function client(url: string, options: { username?: string; password?: string } = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true, ...options });
}

describe('checkRedis against real redis-server processes', () => {
  let lru: RedisServerHandle;
  let noeviction: RedisServerHandle;
  const clients: Redis[] = [];

  beforeAll(async () => {
    [lru, noeviction] = await Promise.all([
      startRedisServer(['--maxmemory', '50mb', '--maxmemory-policy', 'allkeys-lru']),
      startRedisServer(['--maxmemory-policy', 'noeviction']),
    ]);
  });

  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await Promise.all([lru?.stop(), noeviction?.stop()]);
  });

  function connect(url: string, options: { username?: string; password?: string } = {}): Redis {
    const redis = client(url, options);
    clients.push(redis);
    return redis;
  }

  it('refuses allkeys-lru with a message that says why and how to fix it', async () => {
    const result = await checkRedis(connect(lru.url));
    expect(result.ok).toBe(false);
    expect(result.policy).toBe('allkeys-lru');
    expect(result.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.warnings).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toContain('maxmemory-policy is allkeys-lru');
    expect(result.problems[0]).toContain('BullMQ job locks and paused turns');
    expect(result.problems[0]).toContain('maxmemory-policy noeviction');
  });

  it('accepts noeviction', async () => {
    const result = await checkRedis(connect(noeviction.url));
    expect(result).toMatchObject({ ok: true, policy: 'noeviction', problems: [], warnings: [] });
  });

  it('falls back to CONFIG GET and HELLO when INFO is forbidden', async () => {
    const admin = connect(lru.url);
    await admin.call('ACL', 'SETUSER', 'noinfo', 'on', '>pw-noinfo', '~*', '+@all', '-info');
    const result = await checkRedis(connect(lru.url, { username: 'noinfo', password: 'pw-noinfo' }));
    expect(result.policy).toBe('allkeys-lru');
    expect(result.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.ok).toBe(false);
    expect(result.warnings).toEqual([]);
  });

  it('gives exactly one warning when neither INFO nor CONFIG may be read', async () => {
    const admin = connect(lru.url);
    await admin.call('ACL', 'SETUSER', 'locked', 'on', '>pw-locked', '~*', '+@all', '-info', '-config');
    const result = await checkRedis(connect(lru.url, { username: 'locked', password: 'pw-locked' }));
    expect(result.policy).toBeNull();
    expect(result.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('Could not read maxmemory-policy');
  });

  it('throws when Redis is unreachable', async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const redis = new Redis(gone.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    clients.push(redis);
    await expect(checkRedis(redis)).rejects.toThrow();
  });
});
