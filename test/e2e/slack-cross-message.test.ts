/**
 * Issue 10, item 3: a click is checked against the stored ask and its message. A click from one
 * message whose button value names the ask of another message, a modal submission whose metadata names
 * another message, and a thread reply in another thread are refused: an ephemeral notice, nothing stored,
 * no message updated, no turn resumed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_MODAL_CALLBACK_ID, encodeModalMetadata } from '../../src/slack/blocks/action-ids.js';
import { askPostKey } from '../../src/slack/slack-marks.js';
import { RedisSlackMarks } from '../../src/store/redis-slack-marks.js';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askRefOf,
  clickRequest,
  mentionAndWaitForAsk,
  type PostedAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import {
  answerModalValues,
  blockActionRequest,
  buttonActionFromBlocks,
  eventRequest,
  overflowActionFromBlocks,
  viewSubmissionRequest,
} from '../support/slack-payloads.js';

const CHOICE_ASK = {
  questions: [
    {
      header: 'Region',
      question: 'Which region?',
      options: [{ label: 'us-east-1' }, { label: 'eu-west-1' }],
    },
  ],
};
const FREE_TEXT_ASK = {
  questions: [{ header: 'Ticket', question: 'Which ticket should the fix reference?' }],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function twoAsks(h: SlackHarness): Promise<[PostedAsk, PostedAsk]> {
  const first = await mentionAndWaitForAsk(h, { eventId: 'EvCross1', threadTs: '1780000000.000100' });
  const second = await mentionAndWaitForAsk(h, { eventId: 'EvCross2', threadTs: '1780000500.000100' });
  return [first, second];
}

/** Nothing was answered, updated or resumed: both asks open and unanswered, the model called once per turn. */
async function expectUntouched(h: SlackHarness, asks: PostedAsk[], modelCalls: () => number): Promise<void> {
  for (const ask of asks) {
    const ref = askRefOf(ask);
    const stored = await h.store.getAsk(ref.turnId, ref.askId);
    expect(stored?.status).toBe('open');
    expect(stored?.resolutions.every((r) => r === null)).toBe(true);
  }
  expect(h.fake.callsTo('chat.update')).toHaveLength(0);
  expect(modelCalls()).toBe(asks.length);
  expect(await h.queue.getJobCounts('wait', 'active', 'prioritized')).toEqual({
    wait: 0,
    active: 0,
    prioritized: 0,
  });
}

describe('Slack end to end: a click answers only the ask shown in the message it came from', () => {
  it("a button of thread 2's ask, sent from thread 1's message, is refused and changes nothing", async () => {
    const model = askingModel(CHOICE_ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const [first, second] = await twoAsks(h);
    const forged = blockActionRequest(
      {
        user: 'U0BOB',
        channel: first.channel,
        actions: [buttonActionFromBlocks(second.blocks, 'hp.option.0.0')],
        message: { ts: first.ts, thread_ts: first.threadTs, blocks: first.blocks },
        container: { thread_ts: first.threadTs },
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(forged)).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    expect(h.fake.ephemerals[0]).toMatchObject({ user: 'U0BOB', channel: first.channel });
    expect(h.fake.ephemerals[0]?.text).toContain('Nothing was changed');
    await expectUntouched(h, [first, second], () => model.prompts.length);

    // The same button from its own message still works.
    expect((await h.send(clickRequest(h, second, 'U0BOB', 'hp.option.0.0'))).status).toBe(200);
    const ref = askRefOf(second);
    await waitFor(
      async () => (await h.store.getAsk(ref.turnId, ref.askId))?.status === 'resolved',
      5000,
      'answer',
    );
  });

  it('a Cancel naming the other ask is refused too', async () => {
    const model = askingModel(CHOICE_ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const [first, second] = await twoAsks(h);
    const forged = blockActionRequest(
      {
        user: 'U0ALICE',
        channel: first.channel,
        actions: [overflowActionFromBlocks(second.blocks, 'hp.more', 'Cancel…')],
        message: { ts: first.ts, thread_ts: first.threadTs, blocks: first.blocks },
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(forged)).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    await expectUntouched(h, [first, second], () => model.prompts.length);
  });

  it('a modal submission whose metadata names another message is refused and changes nothing', async () => {
    const model = askingModel(FREE_TEXT_ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const [first, second] = await twoAsks(h);
    const target = askRefOf(second);
    const response = await h.send(
      viewSubmissionRequest(
        {
          user: 'U0BOB',
          callbackId: ANSWER_MODAL_CALLBACK_ID,
          privateMetadata: encodeModalMetadata({
            v: 1,
            turnId: target.turnId,
            askId: target.askId,
            q: 0,
            channel: first.channel,
            messageTs: first.ts,
          }),
          values: answerModalValues('TICKET-1'),
        },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.body).toContain('errors');
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    await expectUntouched(h, [first, second], () => model.prompts.length);
  });

  it("a thread reply answers only its own thread's free-text question", async () => {
    const model = askingModel(FREE_TEXT_ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const [first, second] = await twoAsks(h);
    // A reply in thread 1 (mentioning the bot, so it answers without a confirmation) answers thread 1's
    // question, never thread 2's.
    const replyTs = '1780000000.000900';
    h.fake.seedMessage({
      channel: first.channel,
      user: 'U0BOB',
      text: '<@U0BOT> TICKET-9',
      ts: replyTs,
      threadTs: first.threadTs,
    });
    const reply = eventRequest(
      {
        text: '<@U0BOT> TICKET-9',
        ts: replyTs,
        thread_ts: first.threadTs,
        user: 'U0BOB',
        channel: first.channel,
      },
      { eventId: 'EvCrossReply1', secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(reply)).status).toBe(200);
    const one = askRefOf(first);
    await waitFor(
      async () => (await h.store.getAsk(one.turnId, one.askId))?.status === 'resolved',
      5000,
      'answer',
    );
    const two = askRefOf(second);
    const other = await h.store.getAsk(two.turnId, two.askId);
    expect(other?.status).toBe('open');
    expect(other?.resolutions).toEqual([null]);
  });
});

describe('a click in the moment between the post and marking the ask shown', () => {
  it('counts when it comes from the message just posted for the ask (its post mark), and only then', async () => {
    const model = askingModel(CHOICE_ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const shown = await mentionAndWaitForAsk(h, { eventId: 'EvJustPosted1' });
    const ref = askRefOf(shown);
    // Put the ask back to "posted, not yet marked shown": its message is known only by the post mark.
    await h.redis.hdel(h.store.keys.ask(ref.turnId, ref.askId), 'messageRef', 'shownAt', 'deadline');
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.messageRef).toBeNull();
    const marks = new RedisSlackMarks(h.redis, { prefix: h.storePrefix });
    expect(await marks.getPost(askPostKey(ref.askId))).toBe(shown.ts);

    const elsewhere = h.fake.seedMessage({
      channel: shown.channel,
      user: 'U0BOT',
      text: 'other',
      ts: '1780000000.000777',
      threadTs: shown.threadTs,
    });
    const fromElsewhere = blockActionRequest(
      {
        user: 'U0BOB',
        channel: shown.channel,
        actions: [buttonActionFromBlocks(shown.blocks, 'hp.option.0.0')],
        message: { ts: elsewhere.ts, thread_ts: shown.threadTs, blocks: shown.blocks },
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(fromElsewhere)).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('open');

    expect((await h.send(clickRequest(h, shown, 'U0BOB', 'hp.option.0.1'))).status).toBe(200);
    await waitFor(
      async () => (await h.store.getAsk(ref.turnId, ref.askId))?.status === 'resolved',
      5000,
      'the answer',
    );
  });
});
