import { readRedisFlags } from '../../../scripts/redis-flags.mjs';
import type { FakeSlack } from '../../support/fake-slack/index.js';
import type { ModelReplay, ReplayProvider } from '../../support/model-replay/model-replay.js';
import { type RedisServerHandle, startRedisServer } from '../../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../../support/slack-harness.js';

/** The three ways holdpoint talks to a model, as `MODEL`'s provider part. */
export type ProductionModel = 'anthropic' | 'openai' | 'openai-compatible';

/** The `MODEL` value used for each provider. */
export const MODEL_VALUE: Record<ProductionModel, string> = {
  anthropic: 'anthropic:claude-sonnet-4-5',
  openai: 'openai:gpt-4.1',
  'openai-compatible': 'openai-compatible:llama3.1:8b',
};

/** Which wire protocol of the replay server each provider's real AI SDK client speaks. */
export const REPLAY_PROVIDER: Record<ProductionModel, ReplayProvider> = {
  anthropic: 'anthropic',
  openai: 'openai-responses',
  'openai-compatible': 'openai-chat',
};

/**
 * Job timings for the production tests (read by src/main.ts from `HOLDPOINT_TEST_*`): a killed process's
 * job lock lapses after 1.5 s, stalled jobs are looked for every 0.5 s, the sweeper runs every second.
 */
export const FAST_JOB_TIMINGS = {
  HOLDPOINT_TEST_LOCK_MS: '1500',
  HOLDPOINT_TEST_STALLED_MS: '500',
  HOLDPOINT_TEST_SWEEP_MS: '1000',
} as const;

/**
 * The queue name, BullMQ prefix and store key prefix of one scope (`HOLDPOINT_TEST_QUEUE`,
 * `HOLDPOINT_TEST_QUEUE_PREFIX` = `{<scope>}`, `HOLDPOINT_TEST_STORE_PREFIX` = `hp-<scope>`): apps of one
 * scope share their queues and keys; apps of another scope on the same Redis never see them.
 */
export function scopeEnv(scope: string): Record<string, string> {
  return {
    HOLDPOINT_TEST_QUEUE: scope,
    HOLDPOINT_TEST_QUEUE_PREFIX: `{${scope}}`,
    HOLDPOINT_TEST_STORE_PREFIX: `hp-${scope}`,
  };
}

/** Input of {@link productionEnv}. */
export interface ProductionEnvInput {
  fake: FakeSlack;
  replay: ModelReplay;
  redisUrl: string;
  /** A free port (see `freePort()`). */
  port: number;
  model: ProductionModel;
  /** Added last (e.g. `ASK_TIMEOUT`, `ROLE`, `SHUTDOWN_TIMEOUT`). */
  env?: Record<string, string>;
}

/**
 * The whole environment of a production start: HTTP-mode Slack against the fake Web API, Redis, the
 * model through the real AI SDK client pointed at the replay server (base URLs end in `/v1`), JSON logs
 * at `info`, and {@link FAST_JOB_TIMINGS}.
 */
export function productionEnv(input: ProductionEnvInput): Record<string, string> {
  const model: Record<string, string> =
    input.model === 'anthropic'
      ? { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: input.replay.anthropicBaseUrl }
      : input.model === 'openai'
        ? { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: input.replay.openaiBaseUrl }
        : { OPENAI_BASE_URL: input.replay.openaiBaseUrl };
  return {
    SLACK_BOT_TOKEN: input.fake.botToken,
    SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SLACK_API_URL: input.fake.url,
    REDIS_URL: input.redisUrl,
    PORT: String(input.port),
    MODEL: MODEL_VALUE[input.model],
    ...model,
    LOG_LEVEL: 'info',
    // Reminders would add thread replies to tests about other things; the follow-up tests turn them on.
    ASK_REMINDERS: 'none',
    ...FAST_JOB_TIMINGS,
    ...input.env,
  };
}

/**
 * Starts a private `redis-server` with exactly the flags of docker-compose.yml's `redis` service
 * (append-only file with `everysec`, `maxmemory-policy noeviction`).
 * @param options `port` and `dir` to start it again on the same port and data directory (restart tests).
 */
export async function startComposeRedis(
  options: { port?: number; dir?: string } = {},
): Promise<RedisServerHandle> {
  return startRedisServer(readRedisFlags(), options);
}
