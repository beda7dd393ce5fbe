/**
 * The built app with `ASK_TIMEOUT=2s` on replayed Anthropic traffic (streamed, as `REPLY_STREAMING`
 * defaults to on): an ask nobody answers, and an ask of two questions of which one is
 * answered, are resolved by the BullMQ timeout job, and the continuation request says which answers were
 * assumed. Every model request passes the pairing rule (C27).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAskResultJson } from '../../src/ask/format-ask-result.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { checkToolPairing } from '../support/model-replay/pairing.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';
import { trailingToolResults } from './support/wire.js';

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let app: ProductionApp;

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
  app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port: await freePort(),
      model: 'anthropic',
      env: { ASK_TIMEOUT: '2s' },
    }),
  );
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});

beforeEach(() => replay.reset());

function expectPairing(): void {
  for (const request of replay.requests) {
    expect(checkToolPairing(request.provider, request.body), request.served).toEqual([]);
  }
}

const TWO_QUESTIONS = {
  questions: [
    {
      header: 'Deploy fix',
      question: 'How should I fix the payments-api rollout?',
      options: [
        { label: 'Hotfix forward', description: 'Ship v2.15.1.' },
        { label: 'Roll back', description: 'Redeploy v2.14.3.', recommended: true },
      ],
    },
    {
      header: 'Status page',
      question: 'Should I post on the status page?',
      options: [
        { label: 'Yes', description: 'Post an incident now.' },
        { label: 'No', description: 'Keep it internal.', recommended: true },
      ],
    },
  ],
};

describe('production timeout path (ASK_TIMEOUT=2s)', () => {
  it('nobody clicks: the timeout resolves the ask and the continuation carries an assumed answer', async () => {
    replay.enqueue('anthropic', 'a-text-and-ask_question', 'd-final-text');
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAsk();
    const reply = await thread.waitForReply(15_000);
    expect(reply.time - ask.time).toBeGreaterThanOrEqual(2000);

    const requests = await replay.waitForRequests(2);
    expect(requests).toHaveLength(2);
    expectPairing();
    const results = trailingToolResults('anthropic', requests[1]?.body);
    expect(results).toHaveLength(1);
    expect(results[0]?.isError).toBe(false);
    expect(results[0]?.text).toMatch(/nobody answered/i);
    // The default policy picks the recommended option.
    expect(parseAskResultJson(results[0]?.text ?? '')?.answers).toMatchObject([
      { status: 'assumed', selected: ['Roll back to v2.14.3'], answeredBy: null },
    ]);
    // The ask message was updated to say the answer was assumed; one reply.
    const update = fake.callsTo('chat.update').find((call) => call.args.ts === ask.response.ts);
    expect(JSON.stringify(update?.args.blocks ?? update?.args.text)).toMatch(/assumed/i);
    expect(thread.replies()).toHaveLength(1);
  });

  it('two questions, one clicked, then the timeout: the continuation carries one answered and one assumed', async () => {
    replay.enqueue(
      'anthropic',
      { text: 'Two things first.', toolCalls: [{ name: 'ask_question', input: TWO_QUESTIONS }] },
      { text: 'Hotfixing; no status page post.' },
    );
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAskSettled();
    expect(await thread.click(app, ask, 'Hotfix forward', { question: 0, user: 'U0CAROL' })).toBe(200);
    const reply = await thread.waitForReply(15_000);
    expect(reply.args.text).toBe('Hotfixing; no status page post.');

    const requests = await replay.waitForRequests(2);
    expect(requests).toHaveLength(2);
    expectPairing();
    const [result] = trailingToolResults('anthropic', requests[1]?.body);
    expect(parseAskResultJson(result?.text ?? '')?.answers).toMatchObject([
      { status: 'answered', selected: ['Hotfix forward'], answeredBy: 'U0CAROL' },
      { status: 'assumed', selected: ['No'], answeredBy: null },
    ]);
    expect(thread.askPosts()).toHaveLength(1);
    expect(thread.replies()).toHaveLength(1);
  });
});
