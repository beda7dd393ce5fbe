import { Redis } from 'ioredis';
import { redactUrl } from '../config/redact-url.js';
import {
  checkRedis,
  type ListpackSetting,
  MIN_REDIS_VERSION,
  RECOMMENDED_LISTPACK_VALUE,
} from '../ops/redis-checks.js';
import type { DoctorCheck } from './doctor-check.js';

/** Options of {@link checkRedisServer}. */
export interface RedisDoctorOptions {
  /** Give up connecting after this many ms. Default 5000. */
  connectTimeoutMs?: number;
}

const UNREACHABLE_FIX =
  'Start Redis (`npm run dev` starts a local redis-server; under docker compose run doctor inside the stack: `docker compose exec holdpoint node dist/src/cli.js doctor`) or set REDIS_URL to a server this machine can reach.';

/**
 * Connects once to the Redis at `url` (no retries) and checks it with {@link checkRedis}:
 * four lines, `Redis reachable`, `Redis version`, `Redis eviction policy` and `Redis hash encoding`; only the
 * first when Redis cannot be reached (or `url` cannot be parsed). A value Redis refuses to tell (ACL,
 * managed Redis) gives a warning, not a failure.
 */
export async function checkRedisServer(
  url: string,
  options: RedisDoctorOptions = {},
): Promise<DoctorCheck[]> {
  const shown = redactUrl(url);
  let redis: Redis;
  try {
    redis = new Redis(url, {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? 5000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectionName: 'holdpoint-doctor',
    });
  } catch (error) {
    // ioredis parses the URL in its constructor (`new URL`): a URL it cannot read throws there.
    return [
      {
        name: 'Redis reachable',
        ok: false,
        detail: `cannot use REDIS_URL ${shown}: ${describe(error)}`,
        fix: 'Set REDIS_URL to redis://host:6379 (or rediss:// for TLS).',
      },
    ];
  }
  let lastError: unknown = null;
  redis.on('error', (error: unknown) => {
    lastError = error;
  });
  try {
    try {
      await redis.connect();
    } catch (error) {
      return [
        {
          name: 'Redis reachable',
          ok: false,
          // ioredis rejects with "Connection is closed."; the socket error says why (ECONNREFUSED ...).
          detail: `cannot connect to ${shown}: ${describe(lastError ?? error)}`,
          fix: UNREACHABLE_FIX,
        },
      ];
    }
    let result: Awaited<ReturnType<typeof checkRedis>>;
    try {
      result = await checkRedis(redis);
    } catch (error) {
      return [
        {
          name: 'Redis reachable',
          ok: false,
          detail: `${shown} did not answer PING: ${describe(error)}`,
          fix: 'Check REDIS_URL (host, port, password, database) and that the user may run PING.',
        },
      ];
    }
    const versionProblem = result.problems.find((problem) => problem.includes('too old'));
    const policyProblem = result.problems.find((problem) => problem.includes('maxmemory-policy'));
    const versionWarning = result.warnings.find((warning) => warning.includes('version'));
    const policyWarning = result.warnings.find((warning) => warning.includes('maxmemory-policy'));
    return [
      { name: 'Redis reachable', ok: true, detail: `${shown} answered PING` },
      {
        name: 'Redis version',
        ok: versionProblem === undefined,
        detail:
          result.version === null
            ? 'unknown (INFO and HELLO refused)'
            : result.valkeyVersion !== null
              ? `Valkey ${result.valkeyVersion}, Redis-compatible ${result.version} (needs ${MIN_REDIS_VERSION} or newer)`
              : `${result.version} (needs ${MIN_REDIS_VERSION} or newer)`,
        ...(versionProblem !== undefined
          ? { fix: versionProblem }
          : versionWarning !== undefined
            ? { fix: versionWarning, warning: true }
            : {}),
      },
      {
        name: 'Redis eviction policy',
        ok: policyProblem === undefined,
        detail:
          result.policy === null
            ? 'maxmemory-policy unknown (INFO and CONFIG GET refused)'
            : `maxmemory-policy ${result.policy}${result.policy === 'noeviction' ? '' : ' (needs noeviction)'}`,
        ...(policyProblem !== undefined
          ? { fix: policyProblem }
          : policyWarning !== undefined
            ? { fix: policyWarning, warning: true }
            : {}),
      },
      hashEncodingCheck(result.listpackValue),
    ];
  } finally {
    // After a failed connect the socket is gone: disconnect() would leave a 2 s timer that delays exit.
    if (redis.status !== 'end') redis.disconnect();
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ');
}

/**
 * The `Redis hash encoding` line for the hash listpack value limit as the server reported it (null when
 * CONFIG GET was refused or unanswered): never a failure (holdpoint works the same with any value); a
 * warning with the fix below {@link RECOMMENDED_LISTPACK_VALUE}, where each open ask takes about 530 B more,
 * and a warning saying what to check when the value could not be read (as for the other values Redis
 * refuses to tell). The line names the setting as the server does (`hash-max-ziplist-value` on Redis 6.2).
 */
export function hashEncodingCheck(setting: ListpackSetting | null): DoctorCheck {
  const name = 'Redis hash encoding';
  if (setting === null)
    return {
      name,
      ok: true,
      warning: true,
      detail: 'hash-max-listpack-value unknown (CONFIG GET refused or unanswered; optional setting)',
      fix: `Optional: holdpoint works with any value, but below ${RECOMMENDED_LISTPACK_VALUE} each open ask takes about 530 B more of Redis memory. Your provider's console shows it (hash-max-listpack-value, or hash-max-ziplist-value before Redis 7); doctor could not read it with CONFIG GET.`,
    };
  const shown = `${setting.name} ${setting.value}`;
  if (setting.value >= RECOMMENDED_LISTPACK_VALUE) return { name, ok: true, detail: shown };
  return {
    name,
    ok: true,
    warning: true,
    detail: `${shown} (${RECOMMENDED_LISTPACK_VALUE} recommended)`,
    fix: `Optional: with hashes this small each open ask takes about 530 B more of Redis memory. Start redis-server with --hash-max-ziplist-value ${RECOMMENDED_LISTPACK_VALUE} as docker-compose.yml does (the older name, which Redis 6.2, Redis 7 and Valkey all take; Redis 7 calls it hash-max-listpack-value), or run CONFIG SET hash-max-ziplist-value ${RECOMMENDED_LISTPACK_VALUE} (and CONFIG REWRITE).`,
  };
}
