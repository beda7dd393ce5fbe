import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

/** The Redis URL the global setup provided (private server or `REDIS_URL`). */
export function testRedisUrl(): string {
  return inject('redisUrl');
}

/** A unique key prefix per test so that tests sharing one Redis never see each other's keys. */
export function uniquePrefix(label = 't'): string {
  return `hpt-${label}-${randomUUID().slice(0, 8)}`;
}

/** A plain ioredis client for assertions; call `quit()` when done. */
export function testRedisClient(): Redis {
  return new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
}
