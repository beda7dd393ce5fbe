import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { CoalescingRedis } from './coalescing-redis.js';

/** Defaults of the request-path client (see {@link createRedisConnections}). */
export const REQUEST_CLIENT_DEFAULTS = {
  /** Retries of one command across reconnects before it fails (ioredis default is 20). */
  maxRetriesPerRequest: 1,
  /** A command without a reply after this many ms fails, also while queued offline. */
  commandTimeoutMs: 1000,
} as const;

/** Options of {@link createRedisConnections}. */
export interface RedisConnectionsOptions {
  /** Prefix of the `CLIENT SETNAME` names (`<prefix>-bullmq`, `<prefix>-request`); default `holdpoint`. */
  connectionName?: string;
  /** Do not connect until the first command (tests, `doctor`); default false. */
  lazyConnect?: boolean;
  /** Request-path bounds; defaults in {@link REQUEST_CLIENT_DEFAULTS}. */
  request?: {
    maxRetriesPerRequest?: number;
    commandTimeoutMs?: number;
    /** Most commands grouped into one socket write (see {@link CoalescingRedis}); 1 turns grouping off. */
    maxBatch?: number;
  };
  /** Extra ioredis options for both clients (e.g. `tls`); the retry options above win. */
  base?: RedisOptions;
  /**
   * `url` is one node of a Redis Cluster (`REDIS_CLUSTER=on`): the clients are ioredis `Cluster`s, which
   * find the other nodes and follow MOVED/ASK redirects. Default false.
   */
  cluster?: boolean;
}

/** The two Redis clients of a process. */
export interface RedisConnections {
  /**
   * For BullMQ `Queue`, `Worker`, `QueueEvents` and `FlowProducer` (`connection: bullmq`): retries forever
   * while Redis is down (`maxRetriesPerRequest: null`, which BullMQ workers require) and waits for Redis to
   * be ready (`enableReadyCheck: true`). BullMQ duplicates it for its blocking connections (plain clients).
   * A {@link CoalescingRedis} too: a timer sweep or a job issues several commands per tick, and one socket
   * write per command was a fifth of the timer lane's CPU (100,000 timeouts due at once fired at 4,000 per
   * second with plain writes, 6,000 with grouped ones; `npm run bench`, section 9). Not on a Redis Cluster.
   */
  bullmq: Redis;
  /**
   * For Slack request paths (listeners that must ack within 3 s) and other latency-bound reads and writes,
   * including the turn store when it is called from a listener: fails fast while Redis is down
   * (`maxRetriesPerRequest` 1, `commandTimeout` 1000 ms) so a handler can answer "temporarily unavailable"
   * instead of hanging. A {@link CoalescingRedis}: the commands of one tick go out in one socket write.
   */
  request: Redis;
  /** Closes both clients: QUIT, then disconnect if QUIT fails (Redis down). Never throws. */
  close(): Promise<void>;
}

/**
 * Creates the BullMQ client and the separate request-path client for one Redis URL (CASES C19: one shared
 * client with default options either breaks BullMQ or leaves request handlers hanging while Redis is down).
 * Both reconnect with ioredis' default backoff forever. Neither throws on connection errors: an `error`
 * listener must be attached by the caller (the composition root logs them); until then errors are ignored.
 *
 * @param url `redis://` or `rediss://` URL (`Config.redis.url`).
 */
export function createRedisConnections(url: string, options: RedisConnectionsOptions = {}): RedisConnections {
  const name = options.connectionName ?? 'holdpoint';
  const lazyConnect = options.lazyConnect ?? false;
  if (options.cluster) return createClusterConnections(url, options);
  // First: its constructor throws on a bad maxBatch, before any connection is open.
  const request = new CoalescingRedis(url, {
    ...options.base,
    ...(options.request?.maxBatch === undefined ? {} : { maxBatch: options.request.maxBatch }),
    connectionName: `${name}-request`,
    lazyConnect,
    maxRetriesPerRequest:
      options.request?.maxRetriesPerRequest ?? REQUEST_CLIENT_DEFAULTS.maxRetriesPerRequest,
    commandTimeout: options.request?.commandTimeoutMs ?? REQUEST_CLIENT_DEFAULTS.commandTimeoutMs,
    enableReadyCheck: true,
    enableOfflineQueue: true,
  });
  const bullmq = new CoalescingRedis(url, {
    ...options.base,
    connectionName: `${name}-bullmq`,
    lazyConnect,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  });
  return connectionPair(bullmq, request);
}

/**
 * {@link createRedisConnections} for a Redis Cluster: the same two roles with the same bounds, as ioredis
 * `Cluster` clients (no command grouping on the request path: a cluster client already groups by node).
 */
function createClusterConnections(url: string, options: RedisConnectionsOptions): RedisConnections {
  const name = options.connectionName ?? 'holdpoint';
  const lazyConnect = options.lazyConnect ?? false;
  const request = clusterClient(
    url,
    {
      ...options.base,
      connectionName: `${name}-request`,
      maxRetriesPerRequest:
        options.request?.maxRetriesPerRequest ?? REQUEST_CLIENT_DEFAULTS.maxRetriesPerRequest,
      commandTimeout: options.request?.commandTimeoutMs ?? REQUEST_CLIENT_DEFAULTS.commandTimeoutMs,
    },
    lazyConnect,
  );
  const bullmq = clusterClient(
    url,
    {
      ...options.base,
      connectionName: `${name}-bullmq`,
      maxRetriesPerRequest: null,
    },
    lazyConnect,
  );
  return connectionPair(bullmq, request);
}

/** The two clients as {@link RedisConnections}, their errors ignored until the caller adds a listener. */
function connectionPair(bullmq: Redis, request: Redis): RedisConnections {
  // Without a listener ioredis prints "Unhandled error event"; callers add their own logging listener.
  const ignore = (): void => {};
  bullmq.on('error', ignore);
  request.on('error', ignore);
  return {
    bullmq,
    request,
    async close() {
      await Promise.all([closeClient(bullmq), closeClient(request)]);
    },
  };
}

/**
 * An ioredis `Cluster` seeded with the node of `url` (its user, password and `rediss:` TLS go to every
 * node). Typed as `Redis`: the store, the Lua loader and BullMQ use only the command API both share
 * (ioredis documents `Cluster` as taking the same commands; BullMQ accepts either as `connection`).
 * @throws TypeError when `url` is not a URL (the config check catches that first).
 */
export function clusterClient(url: string, nodeOptions: RedisOptions, lazyConnect = false): Redis {
  const parsed = new URL(url);
  const port = Number(parsed.port || 6379);
  const cluster = new Cluster([{ host: parsed.hostname, port }], {
    lazyConnect,
    enableReadyCheck: true,
    enableOfflineQueue: true,
    redisOptions: {
      ...nodeOptions,
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: nodeOptions.tls ?? {} } : {}),
    },
  });
  return cluster as unknown as Redis;
}

/**
 * A connection for pub/sub subscriptions only (a subscribed client cannot send other commands): retries
 * forever and resubscribes after a reconnect (ioredis `autoResubscribe`). Its errors are ignored until the
 * caller adds a listener, as with {@link createRedisConnections}.
 * @param url `redis://` or `rediss://` URL.
 */
export function createSubscriberConnection(
  url: string,
  options: Pick<RedisConnectionsOptions, 'connectionName' | 'base' | 'cluster'> = {},
): Redis & { closeQuietly(): Promise<void> } {
  const subscriberOptions: RedisOptions = {
    ...options.base,
    connectionName: `${options.connectionName ?? 'holdpoint'}-subscriber`,
    maxRetriesPerRequest: null,
    autoResubscribe: true,
  };
  // In a cluster, PUBLISH on any node reaches subscribers on every node.
  const subscriber = options.cluster
    ? clusterClient(url, subscriberOptions)
    : new Redis(url, subscriberOptions);
  subscriber.on('error', () => {});
  return Object.assign(subscriber, { closeQuietly: () => closeClient(subscriber) });
}

async function closeClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
