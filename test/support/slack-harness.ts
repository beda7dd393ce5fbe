import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { LanguageModel } from 'ai';
import pino from 'pino';
import type { AgentTool } from '../../src/agent/tool-registry.js';
import { loadConfig } from '../../src/config/load-config.js';
import { type Runtime, startRuntime } from '../../src/runtime.js';
import { type FakeSlack, startFakeSlack } from './fake-slack/index.js';
import { postToSlackApp, type SignedSlackRequest, type SlackAppResponse } from './slack-payloads.js';

/** The signing secret every Slack end-to-end test signs with. */
export const TEST_SIGNING_SECRET = 'e2e-signing-secret-0123456789abcdef';

/** A running holdpoint (real runtime: Bolt HTTP receiver, BullMQ worker, Redis store) against a fake Slack. */
export interface SlackHarness {
  runtime: Runtime;
  fake: FakeSlack;
  /** `http://127.0.0.1:<port>/slack/events` */
  eventsUrl: string;
  baseUrl: string;
  storePrefix: string;
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
}

/**
 * Starts the real holdpoint runtime in this process (ROLE=all, HTTP mode) with the AI SDK mock model,
 * a fake Slack Web API and private Redis key and queue prefixes.
 */
export async function startSlackHarness(options: SlackHarnessOptions): Promise<SlackHarness> {
  const fake = await startFakeSlack();
  const id = randomUUID().slice(0, 8);
  const config = loadConfig({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SLACK_API_URL: fake.url,
    REDIS_URL: options.redisUrl,
    PORT: '0',
    MODEL: 'anthropic:claude-sonnet-4-5',
    ANTHROPIC_API_KEY: 'test-key',
    LOG_LEVEL: 'silent',
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
  });
  const port = (runtime.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    runtime,
    fake,
    baseUrl,
    eventsUrl: `${baseUrl}/slack/events`,
    storePrefix: `hpe2e-${id}`,
    send: (request) => postToSlackApp(`${baseUrl}/slack/events`, request),
    async close() {
      await runtime.stop();
      await fake.close();
    },
  };
}
