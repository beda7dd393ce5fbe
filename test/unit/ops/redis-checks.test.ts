import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { checkRedis } from '../../../src/ops/redis-checks.js';

/** A stand-in for the commands checkRedis sends, answering like a server of the given version and policy. */
function fakeRedis(version: string, policy: string): Redis {
  const fake = {
    ping: async () => 'PONG',
    info: async (section: string) =>
      section === 'server'
        ? `# Server\r\nredis_version:${version}\r\n`
        : `# Memory\r\nmaxmemory_policy:${policy}\r\n`,
    call: async () => {
      throw new Error('not expected');
    },
  };
  return fake as unknown as Redis;
}

describe('checkRedis version rule', () => {
  it.each([
    ['5.0.14', false],
    ['6.0.20', false],
    ['6.2.0', true],
    ['6.2.14', true],
    ['7.0.15', true],
    ['7.4.2', true],
    ['10.0.0', true],
  ])('Redis %s ok=%s', async (version, ok) => {
    const result = await checkRedis(fakeRedis(version, 'noeviction'));
    expect(result.ok).toBe(ok);
    expect(result.version).toBe(version);
    if (!ok) expect(result.problems[0]).toContain(`Redis ${version} is too old`);
  });

  it.each(['volatile-lru', 'allkeys-lru', 'volatile-ttl', 'allkeys-random', 'volatile-lfu'])(
    'refuses %s',
    async (policy) => {
      const result = await checkRedis(fakeRedis('7.2.4', policy));
      expect(result.ok).toBe(false);
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]).toContain(`maxmemory-policy is ${policy}`);
    },
  );
});
