import type { TestProject } from 'vitest/node';
import {
  hasRedisServerBinary,
  NO_REDIS_MESSAGE,
  type RedisServerHandle,
  startRedisServer,
} from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

let server: RedisServerHandle | undefined;

/**
 * Vitest global setup: uses `REDIS_URL` when set, otherwise starts a private `redis-server`
 * on a free port in a temporary directory. Fails the whole run at once when neither exists.
 */
export async function setup(project: TestProject): Promise<void> {
  let url = process.env.REDIS_URL;
  if (!url) {
    if (!hasRedisServerBinary()) throw new Error(NO_REDIS_MESSAGE);
    server = await startRedisServer();
    url = server.url;
  }
  process.env.HOLDPOINT_TEST_REDIS_URL = url;
  project.provide('redisUrl', url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}
