import { afterAll, describe, expect, it } from 'vitest';
import { testRedisClient, uniquePrefix } from '../support/redis.js';

describe('test Redis', () => {
  const redis = testRedisClient();
  afterAll(async () => {
    await redis.quit();
  });

  it('is a real Redis 7 that runs Lua', async () => {
    const key = `${uniquePrefix()}:probe`;
    const result = await redis.eval(
      "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])",
      1,
      key,
      'v',
    );
    expect(result).toBe('v');
    const info = await redis.info('server');
    expect(info).toMatch(/redis_version:[7-9]\./);
  });
});
