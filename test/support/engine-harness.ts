import { randomUUID } from 'node:crypto';
import type { LanguageModel } from 'ai';
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type EngineConfig, type EngineDeps, withAskService } from '../../src/agent/engine-deps.js';
import { type AgentTool, createToolRegistry } from '../../src/agent/tool-registry.js';
import type { TurnStart } from '../../src/agent/turn-start.js';
import { askToolDefinitionFor } from '../../src/ask/ask-schema.js';
import { type AskResultAnswer, parseAskResultJson } from '../../src/ask/format-ask-result.js';
import { silentLogger } from '../../src/asks/logger.js';
import { type AskRecord, NO_FOLLOW_UP } from '../../src/asks/types.js';
import { BullmqScheduler } from '../../src/jobs/bullmq-scheduler.js';
import { DueTimerLane } from '../../src/jobs/due-timer-lane.js';
import { createHoldpointQueue } from '../../src/jobs/queue.js';
import { createHoldpointWorker } from '../../src/jobs/worker.js';
import { CoalescingRedis } from '../../src/ops/coalescing-redis.js';
import { RedisDueTimers } from '../../src/store/redis-due-timers.js';
import { RedisTurnStore } from '../../src/store/redis-turn-store.js';
import { RecordingSurface } from './recording-surface.js';
import { isClusterRun, redisClientFor } from './redis-client.js';

/** Options of {@link createHarness}. */
export interface HarnessOptions {
  redisUrl: string;
  model: LanguageModel;
  tools?: AgentTool[];
  config?: Partial<EngineConfig>;
  /** Start a worker in this process (default true). */
  worker?: boolean;
  prefix?: string;
  queueName?: string;
  lockDuration?: number;
  stalledInterval?: number;
}

/** A wired engine against a real Redis and real BullMQ, with a recording surface. */
export interface Harness {
  deps: EngineDeps;
  store: RedisTurnStore;
  surface: RecordingSurface;
  queue: Queue;
  /** The timer lane (its due set holds the asks' timeouts and reminders). */
  lane: DueTimerLane;
  worker: Worker | null;
  redis: Redis;
  prefix: string;
  queueName: string;
  /** Builds a TurnStart in a fresh test thread. */
  turnStart(text: string, options?: { turnId?: string; userId?: string; threadTs?: string }): TurnStart;
  close(): Promise<void>;
}

/** Default engine config for tests: 3 s timeout, no show retry delay. */
export const TEST_ENGINE_CONFIG: EngineConfig = {
  systemPrompt: 'You are a test agent.',
  stepLimit: 20,
  maxInvalidAsks: 3,
  askTimeoutMs: 3000,
  timeoutPolicy: 'recommended-or-first',
  answerers: { mode: 'anyone' },
  followUp: NO_FOLLOW_UP,
  showAttempts: 3,
  showRetryDelayMs: 10,
  turnLeaseMs: 2000,
};

/** Builds the engine over a real Redis + BullMQ, for integration tests and worker child processes. */
export function createHarness(options: HarnessOptions): Harness {
  const prefix = options.prefix ?? `hpt-${randomUUID().slice(0, 8)}`;
  const queueName = options.queueName ?? `q-${prefix}`;
  // The store's client groups its writes as the production request client does (see CoalescingRedis).
  // In a cluster run every client is an ioredis Cluster (and the store's is not grouped).
  const redis = isClusterRun()
    ? redisClientFor(options.redisUrl, { maxRetriesPerRequest: null })
    : new CoalescingRedis(options.redisUrl, { maxRetriesPerRequest: null });
  const bullConnection = redisClientFor(options.redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisTurnStore(redis, { prefix });
  const surface = new RecordingSurface(redis, prefix);
  const queue = createHoldpointQueue(bullConnection, { name: queueName, prefix: `{${prefix}}` });
  // One queue for everything here; the timer lane's sweeps run on it too.
  const lane = new DueTimerLane(queue, new RedisDueTimers(bullConnection, { prefix }));
  const scheduler = new BullmqScheduler(queue, lane);
  const deps: EngineDeps = withAskService({
    store,
    surface,
    scheduler,
    model: options.model,
    tools: createToolRegistry(options.tools ?? []),
    askTool: askToolDefinitionFor(options.config?.timeoutPolicy ?? TEST_ENGINE_CONFIG.timeoutPolicy),
    config: { ...TEST_ENGINE_CONFIG, turnLeaseMs: options.lockDuration ?? 2000, ...options.config },
    log: silentLogger,
    now: () => Date.now(),
    newId: () => randomUUID(),
  });
  const worker =
    options.worker === false
      ? null
      : createHoldpointWorker(deps, {
          queueName,
          prefix: `{${prefix}}`,
          connection: redisClientFor(options.redisUrl, { maxRetriesPerRequest: null }),
          concurrency: 8,
          lockDuration: options.lockDuration ?? 2000,
          stalledInterval: options.stalledInterval ?? 1000,
          threadWaitMs: 200,
          dueLane: lane,
        });
  let thread = 0;
  return {
    deps,
    store,
    surface,
    queue,
    lane,
    worker,
    redis,
    prefix,
    queueName,
    turnStart(text, turnOptions = {}) {
      thread++;
      const threadTs = turnOptions.threadTs ?? `1780000000.${String(thread).padStart(6, '0')}`;
      return {
        turnId: turnOptions.turnId ?? randomUUID(),
        conversation: { surface: 'memory', channel: 'C0OPS', threadTs },
        requestedBy: turnOptions.userId ?? 'U0ALICE',
        trigger: { text, ts: threadTs, userId: turnOptions.userId ?? 'U0ALICE' },
      };
    },
    async close() {
      await worker?.close();
      await queue.close();
      await bullConnection.quit();
      await redis.quit();
    },
  };
}

/** Polls `check` every 20 ms until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The answers in a `FINAL\n<tool result>` reply of the test models; throws when the JSON block is missing. */
export function replyAnswers(replyText: string): AskResultAnswer[] {
  const parsed = parseAskResultJson(replyText.slice(replyText.indexOf('\n') + 1));
  if (!parsed) throw new Error(`no ask result JSON in reply: ${replyText.slice(0, 200)}`);
  return parsed.answers;
}

/** Waits until the turn is paused on an ask that has been shown, and returns that ask. */
export async function shownAsk(
  h: Pick<Harness, 'store'>,
  turnId: string,
  timeoutMs = 20_000,
): Promise<AskRecord> {
  return waitFor(
    async () => {
      const turn = await h.store.getTurn(turnId);
      if (turn?.status !== 'paused' || !turn.pendingAskId) return undefined;
      const ask = await h.store.getAsk(turnId, turn.pendingAskId);
      return ask?.shownAt ? ask : undefined;
    },
    timeoutMs,
    'the ask to be shown',
  );
}
