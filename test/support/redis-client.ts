/** Redis clients for tests and their child processes (no vitest import: worker children load this too). */
import { Redis, type RedisOptions } from 'ioredis';
import { clusterClient } from '../../src/ops/redis-connections.js';

/**
 * Whether the tests run against a Redis Cluster (`HOLDPOINT_TEST_REDIS_CLUSTER=1`, set by `.ci/run` for its
 * cluster pass): `REDIS_URL` is then one node of it, and every client is an ioredis `Cluster`.
 */
export function isClusterRun(): boolean {
  return process.env.HOLDPOINT_TEST_REDIS_CLUSTER === '1';
}

/** A client of `url` as this run needs it: a plain `Redis`, or a `Cluster` in a cluster run. */
export function redisClientFor(url: string, options: RedisOptions = {}): Redis {
  return isClusterRun() ? clusterClient(url, options) : new Redis(url, options);
}
