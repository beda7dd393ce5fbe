import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { inject } from 'vitest';
import { redisClientFor } from './redis-client.js';

export { isClusterRun, redisClientFor } from './redis-client.js';

/** The Redis URL the global setup provided (private server or `REDIS_URL`). */
export function testRedisUrl(): string {
  return inject('redisUrl');
}

/** A unique key prefix per test so that tests sharing one Redis never see each other's keys. */
export function uniquePrefix(label = 't'): string {
  return `hpt-${label}-${randomUUID().slice(0, 8)}`;
}

/** A plain ioredis client (a cluster client in a cluster run) for assertions; call `quit()` when done. */
export function testRedisClient(): Redis {
  return redisClientFor(testRedisUrl(), { maxRetriesPerRequest: null });
}
