import type { Redis } from 'ioredis';

/** Oldest Redis holdpoint supports (BullMQ 5+ and our Lua scripts need 6.2 commands). */
export const MIN_REDIS_VERSION = '6.2.0';

/** Outcome of {@link checkRedis}. */
export interface RedisCheckResult {
  /** True when there are no problems (warnings allowed). */
  ok: boolean;
  /**
   * `redis_version` as reported (e.g. `7.4.2`), or null when it could not be read. Valkey reports the Redis
   * version it is compatible with (`7.2.4`) here; this is the one the version rule checks.
   */
  version: string | null;
  /** `valkey_version` when the server is Valkey (e.g. `8.1.1`), else null. */
  valkeyVersion: string | null;
  /** `maxmemory-policy` (e.g. `noeviction`), or null when it could not be read. */
  policy: string | null;
  /**
   * The hash listpack value limit (bytes) and the name the server answered to: `hash-max-listpack-value`
   * (Redis 7, Valkey) or `hash-max-ziplist-value` (Redis 6.2); null when CONFIG GET was refused or answered
   * neither name. Optional tuning, never a problem or warning here: see {@link RECOMMENDED_LISTPACK_VALUE}.
   */
  listpackValue: ListpackSetting | null;
  /** Each a full sentence with why it matters and how to fix it. Start-up refuses when non-empty. */
  problems: string[];
  /** Each a full sentence; log once at WARN. */
  warnings: string[];
}

/** A hash listpack value limit as the server reported it: the setting's name and its value in bytes. */
export interface ListpackSetting {
  name: 'hash-max-listpack-value' | 'hash-max-ziplist-value';
  value: number;
}

/**
 * `hash-max-listpack-value` docker-compose.yml runs Redis with (bytes; it passes the older name
 * `--hash-max-ziplist-value`, which Redis 6.2, 7 and Valkey all take): an open ask's hash (its definition is
 * 0.5-1 KB of JSON) and a small turn's hash then stay one listpack, about 530 B less per open ask than
 * Redis's default of 64 (measured by `npm run bench`, section 5c).
 */
export const RECOMMENDED_LISTPACK_VALUE = 1024;

/** Reads `field:value` from `INFO` text. */
function infoField(info: string, field: string): string | null {
  const match = new RegExp(`^${field}:(.*)$`, 'm').exec(info);
  return match?.[1]?.trim() || null;
}

function compareVersions(a: string, b: string): number {
  const parse = (version: string): number[] =>
    version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parse(a), parse(b)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The Redis version (and Valkey's own version) from `INFO server`, else from `HELLO 2`. Valkey answers both
 * with the Redis version it is compatible with (`redis_version:7.2.4`, HELLO `version` `7.2.4`) and adds
 * `valkey_version` to INFO.
 */
async function readVersion(redis: Redis): Promise<{ version: string | null; valkeyVersion: string | null }> {
  try {
    const info = await redis.info('server');
    const version = infoField(info, 'redis_version');
    if (version !== null) return { version, valkeyVersion: infoField(info, 'valkey_version') };
  } catch {
    // INFO may be forbidden by ACL; HELLO is allowed to every authenticated connection.
  }
  try {
    const reply = await redis.call('HELLO', '2');
    if (Array.isArray(reply)) {
      const index = reply.findIndex((item) => String(item) === 'version');
      if (index >= 0 && reply[index + 1] !== undefined)
        return { version: String(reply[index + 1]), valkeyVersion: null };
    }
  } catch {
    // Redis before 6 has no HELLO.
  }
  return { version: null, valkeyVersion: null };
}

async function readPolicy(redis: Redis): Promise<string | null> {
  try {
    const policy = infoField(await redis.info('memory'), 'maxmemory_policy');
    if (policy !== null) return policy;
  } catch {
    // INFO forbidden: try CONFIG GET.
  }
  try {
    const reply = await redis.call('CONFIG', 'GET', 'maxmemory-policy');
    if (Array.isArray(reply) && reply[1] !== undefined) return String(reply[1]);
  } catch {
    // CONFIG is often forbidden on managed Redis.
  }
  return null;
}

/**
 * The hash listpack value limit and the name the server answered to (`hash-max-listpack-value`, else the
 * older `hash-max-ziplist-value` of Redis 6.2), or null when CONFIG GET is refused or answers neither.
 */
export async function readListpackSetting(redis: Redis): Promise<ListpackSetting | null> {
  // Redis 7 renamed ziplist to listpack and keeps the old name as an alias; 6.2 knows only the old one.
  for (const name of ['hash-max-listpack-value', 'hash-max-ziplist-value'] as const) {
    try {
      const reply = await redis.call('CONFIG', 'GET', name);
      if (Array.isArray(reply) && reply[1] !== undefined && Number.isFinite(Number(reply[1])))
        return { name, value: Number(reply[1]) };
    } catch {
      // CONFIG is often forbidden on managed Redis.
      return null;
    }
  }
  return null;
}

/**
 * Checks that a Redis server is fit for holdpoint (CASES C16):
 * - version from `INFO server` (fallback `HELLO 2`); older than {@link MIN_REDIS_VERSION} is a problem.
 *   Valkey (7.2 and later) passes: it reports `redis_version:7.2.4`, and its own `valkey_version` is kept;
 * - `maxmemory-policy` from `INFO memory` (fallback `CONFIG GET maxmemory-policy`); anything but
 *   `noeviction` is a problem, because BullMQ job locks and paused turns are keys Redis could then evict;
 * - a value that cannot be read (ACL, managed Redis) gives one warning each, not a problem;
 * - `hash-max-listpack-value` is read (`CONFIG GET`) and returned for `doctor`, never judged here.
 * Sends read-only commands only.
 *
 * @param redis a client; with a client that retries forever (the BullMQ one) this waits while Redis is down.
 * @throws the client's error when Redis is unreachable (the first `PING` fails).
 */
export async function checkRedis(redis: Redis): Promise<RedisCheckResult> {
  await redis.ping();
  const { version, valkeyVersion } = await readVersion(redis);
  const policy = await readPolicy(redis);
  const listpackValue = await readListpackSetting(redis);
  const problems: string[] = [];
  const warnings: string[] = [];
  if (version === null) {
    warnings.push(
      `Could not read the Redis version (INFO and HELLO refused): make sure it is ${MIN_REDIS_VERSION} or newer.`,
    );
  } else if (compareVersions(version, MIN_REDIS_VERSION) < 0) {
    problems.push(
      `Redis ${version} is too old: holdpoint needs Redis ${MIN_REDIS_VERSION} or newer (7 recommended). Upgrade the server (docker-compose.yml pins a supported image).`,
    );
  }
  if (policy === null) {
    warnings.push(
      'Could not read maxmemory-policy (INFO and CONFIG GET refused): make sure the server runs with maxmemory-policy noeviction, or BullMQ job locks and paused turns may be evicted under memory pressure.',
    );
  } else if (policy !== 'noeviction') {
    problems.push(
      `Redis maxmemory-policy is ${policy}, but holdpoint needs noeviction: with any other policy Redis may evict BullMQ job locks and paused turns under memory pressure, losing or duplicating work. Fix: set "maxmemory-policy noeviction" in redis.conf, start redis-server with --maxmemory-policy noeviction (as docker-compose.yml does), or run CONFIG SET maxmemory-policy noeviction (and CONFIG REWRITE).`,
    );
  }
  return { ok: problems.length === 0, version, valkeyVersion, policy, listpackValue, problems, warnings };
}
