import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import type { AgentTool } from '../../src/agent/tool-registry.js';
import { type AskResultAnswer, parseAskResultJson } from '../../src/ask/format-ask-result.js';
import { loadConfig } from '../../src/config/load-config.js';
import { timerQueueName } from '../../src/jobs/queue.js';
import { type Runtime, type RuntimeTuning, startRuntime } from '../../src/runtime.js';
import { parseActionValue } from '../../src/slack/blocks/action-ids.js';
import { RedisDueTimers } from '../../src/store/redis-due-timers.js';
import { RedisTurnStore } from '../../src/store/redis-turn-store.js';
import {
  type FakeSlack,
  type FakeSlackCall,
  type FakeSlackOptions,
  startFakeSlack,
} from './fake-slack/index.js';
import { lastToolResults } from './scripted-model.js';
import {
  blockActionRequest,
  buttonActionFromBlocks,
  eventRequest,
  postToSlackApp,
  type SignedSlackRequest,
  type SlackAppResponse,
} from './slack-payloads.js';

/** The signing secret every Slack end-to-end test signs with. */
export const TEST_SIGNING_SECRET = 'e2e-signing-secret-0123456789abcdef';

/** A running holdpoint (real runtime: Bolt HTTP receiver, BullMQ worker, Redis store) against a fake Slack. */
export interface SlackHarness {
  /** The id in its queue and key prefixes (shared by a {@link SlackHarnessOptions.joining} process). */
  id: string;
  runtime: Runtime;
  fake: FakeSlack;
  /** `http://127.0.0.1:<port>/slack/events` */
  eventsUrl: string;
  baseUrl: string;
  storePrefix: string;
  /** A store over the harness's keys, on its own Redis client (for assertions). */
  store: RedisTurnStore;
  /** A plain Redis client for assertions (closed by `close`). */
  redis: Redis;
  /** The harness's BullMQ queue, opened on `redis` (for assertions on jobs). */
  queue: Queue;
  /** Its timer lane's queue (the `sweep-due` jobs). */
  timers: Queue;
  /** Its timer lane's due set (each ask's timeout and nudge timers). */
  due: RedisDueTimers;
  /** Sends a signed request (from test/support/slack-payloads.ts) to the app. */
  send(request: SignedSlackRequest): Promise<SlackAppResponse>;
  close(): Promise<void>;
}

/** Options of {@link startSlackHarness}. */
export interface SlackHarnessOptions {
  redisUrl: string;
  model: LanguageModel;
  tools?: AgentTool[];
  env?: Record<string, string>;
  /** Options of the fake Slack Web API (e.g. a latency). */
  fake?: FakeSlackOptions;
  /** Runtime tunables besides the harness's own (e.g. `askPollIntervalMs`). */
  tuning?: Pick<RuntimeTuning, 'askPollIntervalMs' | 'mcpProgressIntervalMs'>;
  /**
   * Start a second process of that harness: the same fake Slack, queue and key prefixes (its own
   * runtime, Redis connections and HTTP port). Its `close` leaves the shared fake Slack running.
   */
  joining?: SlackHarness;
}

/**
 * Starts the real holdpoint runtime in this process (ROLE=all, HTTP mode) with the AI SDK mock model,
 * a fake Slack Web API and private Redis key and queue prefixes.
 */
export async function startSlackHarness(options: SlackHarnessOptions): Promise<SlackHarness> {
  const fake = options.joining?.fake ?? (await startFakeSlack(options.fake));
  const id = options.joining?.id ?? randomUUID().slice(0, 8);
  const config = loadConfig({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SLACK_API_URL: fake.url,
    REDIS_URL: options.redisUrl,
    PORT: '0',
    MODEL: 'anthropic:claude-sonnet-4-5',
    ANTHROPIC_API_KEY: 'test-key',
    LOG_LEVEL: 'silent',
    // Reminders would add thread replies to tests about other things; the follow-up tests turn them on.
    ASK_REMINDERS: 'none',
    // These tests follow replies as chat.postMessage calls; streamed replies (the default) have their own
    // tests on the built app (test/e2e/production-streaming.test.ts), and a test may turn streaming on.
    REPLY_STREAMING: 'off',
    ...options.env,
  });
  const runtime = await startRuntime(config, pino({ level: 'silent' }), {
    model: options.model,
    tools: options.tools,
    lockDuration: 2000,
    stalledInterval: 1000,
    sweepIntervalMs: 1000,
    queueName: `e2e-${id}`,
    queuePrefix: `{e2e-${id}}`,
    storePrefix: `hpe2e-${id}`,
    ...options.tuning,
  });
  const port = (runtime.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  const queue = new Queue(`e2e-${id}`, { connection: redis, prefix: `{e2e-${id}}` });
  queue.on('error', () => {});
  const timers = new Queue(timerQueueName(`e2e-${id}`), { connection: redis, prefix: `{e2e-${id}}` });
  timers.on('error', () => {});
  return {
    id,
    runtime,
    fake,
    baseUrl,
    eventsUrl: `${baseUrl}/slack/events`,
    storePrefix: `hpe2e-${id}`,
    store: new RedisTurnStore(redis, { prefix: `hpe2e-${id}` }),
    due: new RedisDueTimers(redis, { prefix: `hpe2e-${id}` }),
    redis,
    queue,
    timers,
    send: (request) => postToSlackApp(`${baseUrl}/slack/events`, request),
    async close() {
      await runtime.stop();
      if (!options.joining) await fake.close();
      await queue.close();
      await timers.close();
      redis.disconnect();
    },
  };
}

/** The ask message as posted by the app (the first chat.postMessage with blocks in the thread). */
export interface PostedAsk {
  channel: string;
  threadTs: string;
  /** `ts` of the ask message. */
  ts: string;
  /** The blocks as posted. */
  blocks: unknown[];
}

/** Options of {@link mentionAndWaitForAsk}. */
export interface MentionOptions {
  eventId: string;
  /** Who mentions the bot. @defaultValue `U0ALICE` */
  user?: string;
  /** @defaultValue `C0OPS` */
  channel?: string;
  /** Thread parent ts (seeded in the fake). @defaultValue `1780000000.000100` */
  threadTs?: string;
  /** @defaultValue `<@U0BOT> what now?` */
  text?: string;
  /** How long to wait for the ask, in ms. @defaultValue 15 000 */
  timeoutMs?: number;
  /**
   * Also wait until the turn job has finished with the ask (its working reaction removed), as a person's
   * click would. `false` returns as soon as the ask is posted (to race the turn job on purpose).
   * @defaultValue true
   */
  settle?: boolean;
}

/**
 * Seeds a thread (parent and the mention) in the fake Slack, sends a signed `app_mention` in it and waits
 * for the ask message (a chat.postMessage with blocks in that thread).
 * @throws Error when the app does not answer 200 or no ask is posted in time.
 */
export async function mentionAndWaitForAsk(h: SlackHarness, options: MentionOptions): Promise<PostedAsk> {
  const channel = options.channel ?? 'C0OPS';
  const threadTs = options.threadTs ?? '1780000000.000100';
  const user = options.user ?? 'U0ALICE';
  const text = options.text ?? '<@U0BOT> what now?';
  const mentionTs = `${threadTs.split('.')[0]}.000200`;
  if (!h.fake.message(channel, threadTs))
    h.fake.seedMessage({ channel, user, text: 'deploy is failing', ts: threadTs });
  h.fake.seedMessage({ channel, user, text, ts: mentionTs, threadTs });
  const response = await h.send(
    eventRequest(
      { text, ts: mentionTs, thread_ts: threadTs, user, channel },
      { eventId: options.eventId, secret: TEST_SIGNING_SECRET },
    ),
  );
  if (response.status !== 200) throw new Error(`app_mention answered ${response.status}: ${response.body}`);
  const posted = await h.fake.waitForCall(
    'chat.postMessage',
    (call) =>
      Array.isArray(call.args.blocks) && call.args.thread_ts === threadTs && call.response.ok === true,
    options.timeoutMs ?? 15_000,
  );
  if (options.settle !== false) {
    // The turn job ends its work after the post: it marks the ask shown, schedules the timeout and
    // removes the working reaction. A person clicks later than that.
    await h.fake.waitForCall(
      'reactions.remove',
      // The reaction sits on the message that started the turn: the thread's parent or a reply in it.
      (call) =>
        call.time >= posted.time &&
        call.args.channel === channel &&
        h.fake.message(channel, String(call.args.timestamp))?.thread_ts === threadTs,
      options.timeoutMs ?? 15_000,
    );
  }
  return { channel, threadTs, ts: String(posted.response.ts), blocks: posted.args.blocks as unknown[] };
}

/** Options of {@link clickRequest}. */
export interface ClickOptions {
  /** Message `state` sent with the click (checkboxes). */
  state?: Record<string, unknown>;
  triggerId?: string;
  /** Signing time (unix seconds). */
  timestampSec?: number;
}

/** A signed click on the control `actionId` of a posted ask, by `user`. */
export function clickRequest(
  h: SlackHarness,
  ask: PostedAsk,
  user: string,
  actionId: string,
  options: ClickOptions = {},
): SignedSlackRequest {
  return blockActionRequest(
    {
      user,
      channel: ask.channel,
      actions: [buttonActionFromBlocks(ask.blocks, actionId)],
      message: { ts: ask.ts, thread_ts: ask.threadTs, blocks: ask.blocks },
      container: { thread_ts: ask.threadTs },
      responseUrl: h.fake.responseUrl(),
      ...(options.state ? { state: options.state } : {}),
      ...(options.triggerId ? { triggerId: options.triggerId } : {}),
    },
    { secret: TEST_SIGNING_SECRET, ...(options.timestampSec ? { timestampSec: options.timestampSec } : {}) },
  );
}

/**
 * The answers of the `ask_question` tool results the model has been sent so far (one list per prompt that
 * ended with such a result), parsed from the fenced JSON of the result text.
 */
export function askResultsSeen(prompts: LanguageModelV3CallOptions['prompt'][]): AskResultAnswer[][] {
  const seen: AskResultAnswer[][] = [];
  for (const prompt of prompts) {
    for (const result of lastToolResults(prompt)) {
      if (result.toolName !== 'ask_question' || result.isError) continue;
      const parsed = parseAskResultJson(result.text);
      if (parsed) seen.push(parsed.answers);
    }
  }
  return seen;
}

/** Every chat.postMessage of the final reply (`text` starting with `prefix`, no blocks). */
export function finalReplies(h: SlackHarness, prefix = 'FINAL'): FakeSlackCall[] {
  return h.fake
    .callsTo('chat.postMessage')
    .filter(
      (call) =>
        call.response.ok === true && typeof call.args.text === 'string' && call.args.text.startsWith(prefix),
    );
}

/**
 * The turn and ask ids of a posted ask, read from the value of its first holdpoint control.
 * @throws Error when no control carries a holdpoint value.
 */
export function askRefOf(ask: PostedAsk): { turnId: string; askId: string } {
  for (const block of ask.blocks as Array<{ elements?: Array<{ value?: unknown }> }>) {
    for (const element of block.elements ?? []) {
      const ref = parseActionValue(element.value);
      if (ref) return { turnId: ref.turnId, askId: ref.askId };
    }
  }
  throw new Error('no holdpoint control in the ask blocks');
}

/**
 * A signed click on the control `actionId` of the message `ts` in `channel` (as the fake Slack holds it),
 * by `user`: for asks posted as new messages (the ask API), which {@link clickRequest} does not cover.
 */
export function clickMessageRequest(
  h: SlackHarness,
  channel: string,
  ts: string,
  user: string,
  actionId: string,
): SignedSlackRequest {
  const blocks = h.fake.message(channel, ts)?.blocks;
  return blockActionRequest(
    {
      user,
      channel,
      actions: [buttonActionFromBlocks(blocks, actionId)],
      message: { ts, blocks },
      responseUrl: h.fake.responseUrl(),
    },
    { secret: TEST_SIGNING_SECRET },
  );
}

/** Waits for the first ask message (a chat.postMessage with blocks) and returns its `ts`. */
export async function firstAskTs(h: SlackHarness, timeoutMs = 10_000): Promise<string> {
  const posted = await h.fake.waitForCall(
    'chat.postMessage',
    (call) => Array.isArray(call.args.blocks),
    timeoutMs,
  );
  return String(posted.response.ts);
}
