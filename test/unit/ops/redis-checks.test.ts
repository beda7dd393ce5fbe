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

/** `INFO server` as Valkey 8.1 answers it (abridged): the Redis version it is compatible with, and its own. */
const VALKEY_INFO = [
  '# Server',
  'redis_version:7.2.4',
  'server_name:valkey',
  'valkey_version:8.1.1',
  'valkey_release_stage:ga',
  'redis_git_sha1:00000000',
  'redis_mode:standalone',
  'os:Linux 6.1.0 x86_64',
  '',
].join('\r\n');

describe('checkRedis on Valkey (the compose image)', () => {
  function fakeValkey(serverInfo: string, hello: unknown[] | null): Redis {
    const fake = {
      ping: async () => 'PONG',
      info: async (section: string) => {
        if (section === 'server' && hello !== null) throw new Error('NOPERM this user has no permissions');
        return section === 'server' ? serverInfo : '# Memory\r\nmaxmemory_policy:noeviction\r\n';
      },
      call: async (command: string) => {
        if (command === 'HELLO' && hello !== null) return hello;
        throw new Error('not expected');
      },
    };
    return fake as unknown as Redis;
  }

  it('accepts Valkey 8.1 by its redis_version 7.2.4 and keeps valkey_version', async () => {
    const result = await checkRedis(fakeValkey(VALKEY_INFO, null));
    expect(result).toMatchObject({
      ok: true,
      version: '7.2.4',
      valkeyVersion: '8.1.1',
      policy: 'noeviction',
    });
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('accepts Valkey when INFO is refused and HELLO answers (server "redis", version 7.2.4)', async () => {
    const hello = ['server', 'redis', 'version', '7.2.4', 'proto', 2, 'id', 5, 'mode', 'standalone'];
    const result = await checkRedis(fakeValkey(VALKEY_INFO, hello));
    expect(result).toMatchObject({ ok: true, version: '7.2.4', valkeyVersion: null });
  });

  it('a plain Redis has no valkeyVersion', async () => {
    const result = await checkRedis(fakeRedis('7.4.2', 'noeviction'));
    expect(result.valkeyVersion).toBeNull();
  });
});
