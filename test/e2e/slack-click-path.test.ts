import { afterEach, describe, expect, it } from 'vitest';
import { replyAnswers, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { lastToolResults, scriptedModel } from '../support/scripted-model.js';
import { type SlackHarness, startSlackHarness, TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { blockActionRequest, buttonActionFromBlocks, eventRequest } from '../support/slack-payloads.js';

const ASK = {
  questions: [
    {
      header: 'Deploy',
      question: 'The payments-api deploy failed. What now?',
      options: [
        { label: 'Hotfix forward', description: 'Patch and redeploy.' },
        { label: 'Roll back to v2.14.3', description: 'Safe, known good.', recommended: true },
      ],
    },
  ],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Slack end to end: mention -> ask -> click -> resume -> reply', () => {
  it('posts the ask in the thread, records a signed click, updates the message and replies once', async () => {
    const model = scriptedModel((prompt) => {
      const results = lastToolResults(prompt);
      if (results.length === 0)
        return { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input: ASK }] };
      return { text: `FINAL\n${results.map((r) => r.text).join('\n')}` };
    });
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const threadTs = '1780000000.000100';
    h.fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'deploy is failing', ts: threadTs });
    const mention = eventRequest(
      {
        text: '<@U0BOT> what now?',
        ts: '1780000000.000200',
        thread_ts: threadTs,
        user: 'U0ALICE',
        channel: 'C0OPS',
      },
      { eventId: 'Ev0001', secret: TEST_SIGNING_SECRET },
    );
    h.fake.seedMessage({
      channel: 'C0OPS',
      user: 'U0ALICE',
      text: '<@U0BOT> what now?',
      ts: '1780000000.000200',
      threadTs,
    });
    expect((await h.send(mention)).status).toBe(200);

    const posted = await h.fake.waitForCall(
      'chat.postMessage',
      (call) => Array.isArray(call.args.blocks),
      15_000,
    );
    expect(posted.response.ok).toBe(true);
    expect(posted.args.thread_ts).toBe(threadTs);
    const blocks = posted.args.blocks as unknown[];
    const click = blockActionRequest(
      {
        user: 'U0BOB',
        actions: [buttonActionFromBlocks(blocks, 'hp.option.0.1')],
        message: { ts: posted.response.ts, thread_ts: threadTs, blocks },
        container: { thread_ts: threadTs },
        responseUrl: h.fake.responseUrl(),
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(click)).status).toBe(200);

    const update = await h.fake.waitForCall('chat.update', undefined, 10_000);
    expect(update.response.ok).toBe(true);
    expect(JSON.stringify(update.args.blocks)).toContain('U0BOB');
    const reply = await h.fake.waitForCall(
      'chat.postMessage',
      (call) => typeof call.args.text === 'string' && call.args.text.startsWith('FINAL'),
      15_000,
    );
    const answers = replyAnswers(reply.args.text as string);
    expect(answers[0]).toMatchObject({
      status: 'answered',
      selected: ['Hotfix forward'],
      answeredBy: 'U0BOB',
      source: 'button',
    });
    await waitFor(async () => h.fake.callsTo('chat.postMessage').length === 2, 5000, 'exactly two posts');
  });
});
