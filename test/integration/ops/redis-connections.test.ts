import { afterAll, describe, expect, it } from 'vitest';
import { createRedisConnections } from '../../../src/ops/redis-connections.js';
import { testRedisUrl } from '../../support/redis.js';
import { startRedisServer } from '../../support/redis-server.js';

describe('createRedisConnections against a real Redis', () => {
  it('both clients work and name themselves', async () => {
    const connections = createRedisConnections(testRedisUrl());
    try {
      expect(await connections.bullmq.ping()).toBe('PONG');
      expect(await connections.request.ping()).toBe('PONG');
      expect(await connections.request.client('GETNAME')).toBe('holdpoint-request');
      expect(await connections.bullmq.client('GETNAME')).toBe('holdpoint-bullmq');
    } finally {
      await connections.close();
    }
  });

  describe('while Redis is down', () => {
    const opened: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const close of opened) await close();
    });

    it('the request client fails within about a second instead of hanging', async () => {
      const server = await startRedisServer();
      const connections = createRedisConnections(server.url);
      opened.push(() => connections.close());
      expect(await connections.request.ping()).toBe('PONG');
      await server.stop();
      const started = Date.now();
      await expect(connections.request.set('hp-down-probe', '1')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(2500);
    });
  });
});
