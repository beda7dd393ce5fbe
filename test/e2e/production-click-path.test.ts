/**
 * The built app (`node dist/src/main.js`) on real provider traffic: Redis started with the compose flags,
 * the fake Slack Web API, and the model replay server answering the real `@ai-sdk/anthropic` and
 * `@ai-sdk/openai` clients with recorded responses. With `REPLY_STREAMING` at its default (`on`) the engine
 * runs each step with `streamText`, so every request here is streaming and is answered with the fixture's
 * `.sse` form (the `.json` forms, for `REPLY_STREAMING=off`, are exercised by
 * test/integration/model-replay.test.ts).
 * Every model request is checked for the tool_use/tool_result pairing rule (CASES C27).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAskResultJson } from '../../src/ask/format-ask-result.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { checkToolPairing } from '../support/model-replay/pairing.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import {
  type ProductionModel,
  productionEnv,
  REPLAY_PROVIDER,
  scopeEnv,
  startComposeRedis,
} from './support/production-env.js';
import { newThread } from './support/slack-thread.js';
import { lastToolCalls, trailingToolResults } from './support/wire.js';

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
const apps = new Map<ProductionModel, ProductionApp>();

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
  const models: ProductionModel[] = ['anthropic', 'openai', 'openai-compatible'];
  const started = await Promise.all(
    models.map(async (model, index) =>
      startProductionApp(
        productionEnv({
          fake,
          replay,
          redisUrl: redis.url,
          port: await freePort(),
          model,
          // Three apps share one Redis: each gets its own queue and key prefix.
          env: {
            ...scopeEnv(`prod-${index}`),
          },
        }),
      ),
    ),
  );
  for (const [index, model] of models.entries()) apps.set(model, started[index] as ProductionApp);
});

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.stop()));
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});

beforeEach(() => replay.reset());

function app(model: ProductionModel): ProductionApp {
  const found = apps.get(model);
  if (!found) throw new Error(`no app for ${model}`);
  return found;
}

function expectPairing(): void {
  for (const request of replay.requests) {
    expect(checkToolPairing(request.provider, request.body), `${request.provider} ${request.served}`).toEqual(
      [],
    );
  }
}

describe('production click path: mention -> ask posted -> signed click -> reply', () => {
  it.each<ProductionModel>(['anthropic', 'openai', 'openai-compatible'])(
    'through %s: the recorded ask is posted, the click resumes the turn, one reply with the answer',
    async (model) => {
      const provider = REPLAY_PROVIDER[model];
      replay.enqueue(provider, 'a-text-and-ask_question', 'd-final-text');
      const thread = newThread(fake);
      expect(await thread.mention(app(model))).toBe(200);

      const ask = await thread.waitForAskSettled();
      expect(JSON.stringify(ask.args.blocks)).toContain('payments-api v2.15.0 is failing health checks');
      expect(await thread.click(app(model), ask, 'Hotfix forward')).toBe(200);

      const reply = await thread.waitForReply();
      // d-final-text's reply, posted as the model wrote it.
      expect(String(reply.args.text)).toContain('Going with the hotfix: I opened PR #2291');
      const requests = await replay.waitForRequests(2);
      expect(requests.map((request) => request.provider)).toEqual([provider, provider]);
      // REPLY_STREAMING is on by default: the engine streams every step (`streamText`).
      expect(requests.every((request) => request.stream)).toBe(true);
      expectPairing();

      // The continuation carries the answer as the ask_question tool result.
      const [result] = trailingToolResults(provider, requests[1]?.body);
      expect(result?.isError).not.toBe(true);
      const answers = parseAskResultJson(result?.text ?? '')?.answers;
      expect(answers).toMatchObject([
        { status: 'answered', selected: ['Hotfix forward'], answeredBy: 'U0BOB' },
      ]);
      // Exactly one reply and one ask; the ask message was updated to show who chose what.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(thread.replies()).toHaveLength(1);
      expect(thread.askPosts()).toHaveLength(1);
      const update = fake.callsTo('chat.update').find((call) => call.args.ts === ask.response.ts);
      expect(JSON.stringify(update?.args.blocks)).toContain('U0BOB');
      expect(trailingToolResults(provider, requests[0]?.body)).toEqual([]);
    },
  );
});

const FIVE_OPTIONS = {
  questions: [
    {
      header: 'Region',
      question: 'Which region should take the payments traffic?',
      options: ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-south-1'].map((label) => ({
        label,
        description: `Fail over to ${label}.`,
      })),
    },
  ],
};

const VALID_REGION_ASK = {
  questions: [
    {
      header: 'Region',
      question: 'Which region should take the payments traffic?',
      options: [
        { label: 'us-west-2', description: 'Closest healthy region.', recommended: true },
        { label: 'eu-west-1', description: 'Most spare capacity.' },
      ],
    },
  ],
};

describe('production: the model gets its mistakes back and the turn goes on', () => {
  it('invalid arguments (5 options) get an is_error tool result naming questions[0].options and 4; the valid retry is asked and answered', async () => {
    const provider = REPLAY_PROVIDER.anthropic;
    replay.enqueue(
      provider,
      { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input: FIVE_OPTIONS }] },
      { text: 'Asking properly.', toolCalls: [{ name: 'ask_question', input: VALID_REGION_ASK }] },
      { text: 'Failing over to us-west-2 now.' },
    );
    const thread = newThread(fake);
    expect(await thread.mention(app('anthropic'))).toBe(200);

    const ask = await thread.waitForAskSettled();
    const requests = replay.requests;
    expect(requests).toHaveLength(2);
    const [invalid] = trailingToolResults(provider, requests[1]?.body);
    expect(invalid?.isError).toBe(true);
    expect(invalid?.text).toContain('questions[0].options');
    expect(invalid?.text).toMatch(/\b4\b/);
    expect(invalid?.text).toMatch(/\b5\b/);
    // Nothing was shown for the invalid call: the only ask posted is the valid one.
    expect(JSON.stringify(ask.args.blocks)).toContain('eu-west-1');
    expect(JSON.stringify(ask.args.blocks)).not.toContain('ap-south-1');

    expect(await thread.click(app('anthropic'), ask, 'eu-west-1')).toBe(200);
    const reply = await thread.waitForReply();
    expect(reply.args.text).toBe('Failing over to us-west-2 now.');
    await replay.waitForRequests(3);
    const [answer] = trailingToolResults(provider, replay.requests[2]?.body);
    expect(answer?.isError).toBe(false);
    expect(parseAskResultJson(answer?.text ?? '')?.answers).toMatchObject([
      { status: 'answered', selected: ['eu-west-1'] },
    ]);
    expect(thread.askPosts()).toHaveLength(1);
    expectPairing();
  });

  it('a step with ask_question and another tool (C27): the continuation has exactly one tool_result per tool_use, results first', async () => {
    const provider = REPLAY_PROVIDER.anthropic;
    replay.enqueue(provider, 'c-parallel-lookup_runbook-and-ask_question', 'd-final-text');
    const thread = newThread(fake);
    expect(await thread.mention(app('anthropic'))).toBe(200);
    const ask = await thread.waitForAskSettled();
    expect(JSON.stringify(ask.args.blocks)).toContain('When may I restart the payments workers?');
    expect(await thread.click(app('anthropic'), ask, 'Now')).toBe(200);
    await thread.waitForReply();
    const requests = await replay.waitForRequests(2);
    expectPairing();

    const calls = lastToolCalls(provider, requests[1]?.body);
    expect(calls.map((call) => call.name)).toEqual(['lookup_runbook', 'ask_question']);
    const results = trailingToolResults(provider, requests[1]?.body);
    expect(results.map((result) => result.id)).toEqual(calls.map((call) => call.id));
    // lookup_runbook is not registered: the SDK's own error result is kept (no second result added).
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.text).toContain('lookup_runbook');
    expect(results[1]?.isError).toBe(false);
    expect(parseAskResultJson(results[1]?.text ?? '')?.answers).toMatchObject([
      { status: 'answered', selected: ['Now'], answeredBy: 'U0BOB' },
    ]);
    // Results come first in the user message (no text block before them).
    const body = requests[1]?.body as { messages: Array<{ role: string; content: Array<{ type: string }> }> };
    const last = body.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content.map((block) => block.type)).toEqual(['tool_result', 'tool_result']);
    expect(thread.replies()).toHaveLength(1);
  });

  // Regression (found here): the `turn` job that posted an ask keeps looping after the post (removing the
  // "working" reaction, scheduling the timeout); a click in that window resolves the ask and adds the
  // `resume` job. Before the turn lease, both jobs ran the continuation and the provider was called twice.
  // Now only the lease holder advances the turn; the other job waits and then finds nothing to do. The
  // "working" reaction removal is held up by a 429 so that the click lands in that window every time.
  it('a click while the posting job is still finishing leads to exactly one continuation request', async () => {
    const provider = REPLAY_PROVIDER.anthropic;
    replay.enqueue(provider, 'a-text-and-ask_question', { fixture: 'd-final-text', delayMs: 3000 });
    replay.onRequest = () => ({ text: 'A second, duplicate continuation.' });
    fake.failNext('reactions.remove', { status: 429, retryAfterSec: 2 });
    const thread = newThread(fake);
    expect(await thread.mention(app('anthropic'))).toBe(200);
    const ask = await thread.waitForAsk();
    expect(await thread.click(app('anthropic'), ask, 'Hotfix forward')).toBe(200);
    await thread.waitForReply(20_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expectPairing();
    expect(thread.replies()).toHaveLength(1);
    expect(replay.requests).toHaveLength(2);
  });
});
