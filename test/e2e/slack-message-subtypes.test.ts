/**
 * Messages people write that Slack sends with a subtype: a DM with a file (`file_share`) and a thread reply
 * also sent to the channel (`thread_broadcast`) start or continue a turn like plain messages; edits,
 * deletions and bot messages (other subtypes) never do. Real Bolt app, signed events, the fake Slack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';
import { type SlackHarness, startSlackHarness, TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { eventRequest } from '../support/slack-payloads.js';

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('message subtypes people write', () => {
  it('a DM with a file starts a turn; an edit does not', async () => {
    const model = scriptedModel((_prompt, index) => ({ text: `FINAL ${index}` }));
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ts = '1780005000.000100';
    h.fake.seedMessage({ channel: 'D0ALICE', user: 'U0ALICE', text: 'here is the log, what is wrong?', ts });
    const edit = eventRequest(
      {
        type: 'message',
        subtype: 'message_changed',
        channel: 'D0ALICE',
        channel_type: 'im',
        user: 'U0ALICE',
        text: 'edited',
        ts: '1780005000.000050',
      },
      { eventId: 'EvEdit1', secret: TEST_SIGNING_SECRET, template: 'message_im' },
    );
    expect((await h.send(edit)).status).toBe(200);
    const file = eventRequest(
      {
        type: 'message',
        subtype: 'file_share',
        channel: 'D0ALICE',
        channel_type: 'im',
        user: 'U0ALICE',
        text: 'here is the log, what is wrong?',
        ts,
        files: [{ id: 'F0LOG', name: 'log.txt' }],
      },
      { eventId: 'EvFile1', secret: TEST_SIGNING_SECRET, template: 'message_im' },
    );
    expect((await h.send(file)).status).toBe(200);
    await waitFor(async () => model.prompts.length === 1, 10_000, 'the turn of the DM with a file');
    await h.fake.waitForCall('chat.postMessage', (call) => call.args.text === 'FINAL 0', 10_000);
    expect(JSON.stringify(model.prompts[0])).toContain('here is the log');
    expect(JSON.stringify(model.prompts[0])).not.toContain('edited');
  });

  it('THREAD_FOLLOW=all: a reply also sent to the channel continues the conversation', async () => {
    const model = scriptedModel((_prompt, index) => ({ text: `FINAL ${index}` }));
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model, env: { THREAD_FOLLOW: 'all' } });
    const h = harness;
    const thread = '1780006000.000100';
    h.fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'deploy failing', ts: thread });
    h.fake.seedMessage({
      channel: 'C0OPS',
      user: 'U0ALICE',
      text: '<@U0BOT> help',
      ts: '1780006000.000200',
      threadTs: thread,
    });
    await h.send(
      eventRequest(
        {
          text: '<@U0BOT> help',
          ts: '1780006000.000200',
          thread_ts: thread,
          user: 'U0ALICE',
          channel: 'C0OPS',
        },
        { eventId: 'EvMention1', secret: TEST_SIGNING_SECRET },
      ),
    );
    await h.fake.waitForCall('chat.postMessage', (call) => call.args.text === 'FINAL 0', 10_000);
    h.fake.seedMessage({
      channel: 'C0OPS',
      user: 'U0BOB',
      text: 'still failing, see graph',
      ts: '1780006000.000300',
      threadTs: thread,
    });
    const broadcast = eventRequest(
      {
        type: 'message',
        subtype: 'thread_broadcast',
        channel: 'C0OPS',
        channel_type: 'channel',
        user: 'U0BOB',
        text: 'still failing, see graph',
        ts: '1780006000.000300',
        thread_ts: thread,
      },
      { eventId: 'EvBroadcast1', secret: TEST_SIGNING_SECRET, template: 'message_im' },
    );
    expect((await h.send(broadcast)).status).toBe(200);
    await waitFor(async () => model.prompts.length === 2, 10_000, 'the turn of the broadcast reply');
    expect(JSON.stringify(model.prompts[1])).toContain('still failing, see graph');
  });
});
