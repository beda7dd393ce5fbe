/**
 * holdpoint's engine wired as `src/runtime.ts` wires it (ROLE=all), for the benches: the worker's store on
 * the BullMQ connection, the click path's store on the request connection (a CoalescingRedis), a work queue
 * and a timer lane (`<queue>-timers`), real Lua scripts and BullMQ on Redis. Slack is left out: the surface
 * does no I/O (it returns a message ref for each ask and hands out the history it was given), so what is
 * measured is the engine, the store and the queues. Used by `npm run bench` (timer-scale section) and
 * `npm run bench:peers`.
 */
import { randomUUID } from 'node:crypto';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import type { LanguageModel, ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { Queue } from 'bullmq';
import { type EngineConfig, type EngineDeps, withAskService } from '../src/agent/engine-deps.js';
import type { Surface } from '../src/agent/surface.js';
import { createToolRegistry } from '../src/agent/tool-registry.js';
import { askToolDefinitionFor } from '../src/ask/ask-schema.js';
import { silentLogger } from '../src/asks/logger.js';
import { NO_FOLLOW_UP } from '../src/asks/types.js';
import { BullmqScheduler } from '../src/jobs/bullmq-scheduler.js';
import { DueTimerLane } from '../src/jobs/due-timer-lane.js';
import { createHoldpointQueue, timerQueueName } from '../src/jobs/queue.js';
import { createRedisConnections, type RedisConnections } from '../src/ops/redis-connections.js';
import { RedisDueTimers } from '../src/store/redis-due-timers.js';
import { RedisTurnStore } from '../src/store/redis-turn-store.js';
import { prose } from '../test/support/prose.js';

/** The ask the mock models call `ask_question` with (as in bench/run.ts). */
export const ASK_ARGS = {
  questions: [
    {
      header: 'Deploy',
      question: 'What now?',
      options: [{ label: 'Hotfix forward' }, { label: 'Roll back', recommended: true }],
    },
  ],
};

export const SYSTEM_PROMPT = 'You are an on-call assistant. Ask when a decision is not yours to make.';

/**
 * `count` alternating user/assistant texts of `chars` characters each, the user's first: conversation-like
 * text (see `prose.ts`), the same on every call.
 */
export function historyTexts(count = 40, chars = 500): Array<{ role: 'user' | 'assistant'; text: string }> {
  return Array.from({ length: count }, (_, n) => ({
    role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: `message ${n}: ${prose(chars, n)}`.slice(0, chars),
  }));
}

/** A surface with no I/O: Slack's side is not what these benches measure (no peer posts anything either). */
export function quietSurface(history: ModelMessage[]): Surface {
  return {
    loadHistory: async (_conversation, trigger) => [...history, { role: 'user', content: trigger.text }],
    showAsk: async (_conversation, ask) => `msg-${ask.askId}`,
    syncAsk: async () => {},
    postNotice: async () => {},
    postMessage: async () => {},
    setActivity: async () => {},
  };
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * The AI SDK's mock model: calls `ask_question` when the prompt does not end with a tool result, otherwise
 * answers `FINAL done` after `delayMs()` ms (0: at once, in the same tick). `onContinuation` is called when
 * a call with a tool result arrives (the resume reached its next model call). Nothing is recorded (the
 * mock's own call list is emptied on every call), so the model costs the same on every iteration.
 */
export function instantAskingModel(
  options: { delayMs?: () => number; onContinuation?: () => void } = {},
): LanguageModel {
  let calls = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: 'bench',
    modelId: 'instant',
    doGenerate: async (call: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      model.doGenerateCalls.length = 0;
      const last = call.prompt[call.prompt.length - 1];
      if (last?.role === 'tool') {
        options.onContinuation?.();
        const delay = options.delayMs?.() ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        return {
          content: [{ type: 'text', text: 'FINAL done' }],
          finishReason: { unified: 'stop', raw: 'end_turn' },
          usage: USAGE,
          warnings: [],
        };
      }
      calls++;
      return {
        content: [
          { type: 'text', text: 'Let me ask.' },
          {
            type: 'tool-call',
            toolCallId: `call_${calls}`,
            toolName: 'ask_question',
            input: JSON.stringify(ASK_ARGS),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: USAGE,
        warnings: [],
      };
    },
  });
  return model;
}

/** Engine settings of the benches: production's defaults where they matter (one ask, 1 h timeout). */
export const BENCH_ENGINE_CONFIG: EngineConfig = {
  systemPrompt: SYSTEM_PROMPT,
  stepLimit: 20,
  maxInvalidAsks: 3,
  askTimeoutMs: 3_600_000,
  timeoutPolicy: 'recommended-or-first',
  answerers: { mode: 'anyone' },
  followUp: NO_FOLLOW_UP,
  showAttempts: 3,
  showRetryDelayMs: 10,
  streamReplies: false,
  turnLeaseMs: 2500,
};

/** holdpoint as one ROLE=all process wires it (see the file comment). */
export interface BenchEngine {
  connections: RedisConnections;
  /** The worker's engine (turn and timer jobs). */
  deps: EngineDeps;
  /** The click path's engine (web process): the same, over the request connection. */
  requestDeps: EngineDeps;
  queue: Queue;
  timerQueue: Queue;
  /** The timer lane over `timerQueue` (its worker needs it as `dueLane`). */
  lane: DueTimerLane;
  queueName: string;
  prefix: string;
  close(): Promise<void>;
}

export function createBenchEngine(options: {
  redisUrl: string;
  model: LanguageModel;
  surface: Surface;
  label: string;
  config?: Partial<EngineConfig>;
}): BenchEngine {
  const id = randomUUID().slice(0, 8);
  const prefix = `bench-${options.label}-${id}`;
  const queueName = `bench-${options.label}-${id}`;
  const connections = createRedisConnections(options.redisUrl, { connectionName: `bench-${options.label}` });
  const queue = createHoldpointQueue(connections.bullmq, { name: queueName, prefix: `{${prefix}}` });
  const timerQueue = createHoldpointQueue(connections.bullmq, {
    name: timerQueueName(queueName),
    prefix: `{${prefix}}`,
  });
  const lane = new DueTimerLane(timerQueue, new RedisDueTimers(connections.bullmq, { prefix }));
  const scheduler = new BullmqScheduler(queue, lane);
  const deps = withAskService({
    store: new RedisTurnStore(connections.bullmq, { prefix }),
    surface: options.surface,
    scheduler,
    model: options.model,
    tools: createToolRegistry([]),
    askTool: askToolDefinitionFor('recommended-or-first'),
    config: { ...BENCH_ENGINE_CONFIG, ...options.config },
    log: silentLogger,
    now: () => Date.now(),
    newId: () => randomUUID(),
  });
  const requestDeps = withAskService({ ...deps, store: new RedisTurnStore(connections.request, { prefix }) });
  return {
    connections,
    deps,
    requestDeps,
    queue,
    timerQueue,
    lane,
    queueName,
    prefix,
    async close() {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await timerQueue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await timerQueue.close();
      await connections.close();
    },
  };
}
