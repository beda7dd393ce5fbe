import { afterEach, describe, expect, it } from 'vitest';
import { CoalescingRedis } from '../../../src/ops/coalescing-redis.js';
import { createRedisConnections, type RedisConnections } from '../../../src/ops/redis-connections.js';

describe('createRedisConnections (CASES C19)', () => {
  let connections: RedisConnections | undefined;
  afterEach(async () => {
    await connections?.close();
    connections = undefined;
  });

  it('gives BullMQ unlimited retries and a ready check', () => {
    connections = createRedisConnections('redis://127.0.0.1:6390/3', { lazyConnect: true });
    const { options } = connections.bullmq;
    expect(options.maxRetriesPerRequest).toBeNull();
    expect(options.enableReadyCheck).toBe(true);
    expect(options.connectionName).toBe('holdpoint-bullmq');
    expect(options.port).toBe(6390);
    expect(options.db).toBe(3);
  });

  it('gives the request path a separate client with bounded retries and a command timeout', () => {
    connections = createRedisConnections('redis://127.0.0.1:6390', { lazyConnect: true });
    expect(connections.request).not.toBe(connections.bullmq);
    const { options } = connections.request;
    expect(options.maxRetriesPerRequest).toBe(1);
    expect(options.commandTimeout).toBe(1000);
    expect(options.connectionName).toBe('holdpoint-request');
    expect(connections.request).toBeInstanceOf(CoalescingRedis);
    // The worker client groups its writes too (the timer lane's sweeps issue many commands per tick).
    expect(connections.bullmq).toBeInstanceOf(CoalescingRedis);
  });

  it('refuses a bad request maxBatch before it creates either client', () => {
    expect(() => createRedisConnections('redis://127.0.0.1:6390', { request: { maxBatch: 0 } })).toThrow(
      'maxBatch must be an integer >= 1, got 0',
    );
  });

  it('takes overrides for the request bounds and the connection names', () => {
    connections = createRedisConnections('redis://127.0.0.1:6390', {
      lazyConnect: true,
      connectionName: 'hp-test',
      request: { maxRetriesPerRequest: 2, commandTimeoutMs: 750 },
      base: { maxRetriesPerRequest: 99, keyPrefix: '' },
    });
    expect(connections.request.options).toMatchObject({
      maxRetriesPerRequest: 2,
      commandTimeout: 750,
      connectionName: 'hp-test-request',
    });
    expect(connections.bullmq.options.maxRetriesPerRequest).toBeNull();
    expect(connections.bullmq.options.commandTimeout).toBeUndefined();
  });

  it('closes clients that never connected without throwing', async () => {
    const created = createRedisConnections('redis://127.0.0.1:1', { lazyConnect: true });
    await expect(created.close()).resolves.toBeUndefined();
    expect(created.bullmq.status).toBe('end');
    expect(created.request.status).toBe('end');
  });
});
