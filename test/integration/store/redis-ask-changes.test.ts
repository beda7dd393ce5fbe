/**
 * Ask announcements over real Redis pub/sub: a listener wakes for its own ask only, a watch misses no
 * announcement made between its start and its wait, the subscription comes back after Redis dropped the
 * connection, and announcing never throws (also with Redis gone).
 */
import { randomUUID } from 'node:crypto';
import { type Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchAsk } from '../../../src/api/ask-changes.js';
import { createSubscriberConnection } from '../../../src/ops/redis-connections.js';
import { RedisAskChanges } from '../../../src/store/redis-ask-changes.js';
import { waitFor } from '../../support/engine-harness.js';
import { isClusterRun, testRedisClient, testRedisUrl } from '../../support/redis.js';

let publisher: Redis;
let subscriber: ReturnType<typeof createSubscriberConnection>;
let changes: RedisAskChanges;
let announcer: RedisAskChanges;
const prefix = `hp-changes-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  publisher = testRedisClient();
  subscriber = createSubscriberConnection(testRedisUrl(), {
    connectionName: `${prefix}-test`,
    cluster: isClusterRun(),
  });
  changes = new RedisAskChanges(publisher, subscriber, { prefix });
  await changes.start();
  // Another process (a worker) announces on its own client, without subscribing.
  announcer = new RedisAskChanges(testRedisClient(), null, { prefix });
});
afterAll(async () => {
  await subscriber.closeQuietly();
  await publisher.quit();
});

describe('RedisAskChanges', () => {
  it('wakes the listeners of the announced ask only, across connections and prefixes', async () => {
    const woken: string[] = [];
    const offA = changes.onChange('a1', () => woken.push('a1'));
    const offB = changes.onChange('b1', () => woken.push('b1'));
    const elsewhere = new RedisAskChanges(testRedisClient(), null, { prefix: `${prefix}-other` });
    await elsewhere.announce('a1');
    await announcer.announce('a1');
    await waitFor(async () => woken.length > 0, 5000, 'the announcement');
    // A round trip on the subscriber's channel after both: whatever else was coming has come.
    let offMarker = () => {};
    const marker = new Promise<void>((resolve) => {
      offMarker = changes.onChange('marker', resolve);
    });
    await announcer.announce('marker');
    await marker;
    expect(woken).toEqual(['a1']);
    for (const off of [offA, offB, offMarker]) off();
  });

  it('a watch started before the announcement returns at it, long before its wait ends', async () => {
    const watch = watchAsk(changes, 'w1');
    await announcer.announce('w1');
    // Waits up to 10 min: only the announcement (already arrived, or arriving) ends it within the test.
    await watch.next(600_000);
    watch.stop();
    expect(changes.listenerCount).toBe(0);
  }, 10_000);

  it('stop wakes a waiting watch', async () => {
    const watch = watchAsk(changes, 'w2');
    const waiting = watch.next(600_000);
    watch.stop();
    await waiting;
  }, 10_000);

  it('the subscription comes back after Redis drops the connection', async () => {
    const admin = testRedisClient();
    await admin.ping(); // a cluster client knows its nodes once connected
    // In a cluster run the subscriber is connected to one of the masters: list and kill on each of them.
    const servers = isClusterRun() ? (admin as unknown as Cluster).nodes('master') : [admin];
    const name = `${prefix}-test-subscriber`;
    const list = (await Promise.all(servers.map((server) => server.client('LIST')))).map(String).join('\n');
    expect(list).toContain(name);
    await Promise.all(servers.map((server) => server.client('KILL', 'SKIPME', 'yes', 'TYPE', 'pubsub')));
    await admin.quit();
    // Announce until one arrives: before the resubscription they are lost (and long-polls look again on their own).
    let woken = false;
    const off = changes.onChange('r1', () => {
      woken = true;
    });
    await waitFor(
      async () => {
        await announcer.announce('r1');
        return woken;
      },
      10_000,
      'an announcement after the reconnect',
    );
    off();
  }, 15_000);

  it('announcing never throws, also when Redis cannot be reached', async () => {
    const gone = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    gone.on('error', () => {});
    await expect(new RedisAskChanges(gone, null).announce('x')).resolves.toBeUndefined();
    gone.disconnect();
  });
});
