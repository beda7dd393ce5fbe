/**
 * The calm ask message end to end, through the real HTTP receiver and the fake Slack (which validates
 * every call's blocks as Slack would): "Choose" beside each described option of a one-question ask, radio
 * buttons and Submit for several questions, "Cancel…" in the menu shown to everyone and checked on click
 * (and on the confirmation's submit), and the Cancel button of messages posted before the menu still
 * cancels.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CANCEL_MODAL_CALLBACK_ID, encodeActionValue } from '../../src/slack/blocks/action-ids.js';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askRefOf,
  askResultsSeen,
  clickRequest,
  finalReplies,
  mentionAndWaitForAsk,
  type PostedAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import {
  blockActionRequest,
  overflowActionFromBlocks,
  radioStateFromBlocks,
  viewSubmissionRequest,
} from '../support/slack-payloads.js';

type Json = Record<string, unknown>;

const DESCRIBED = {
  questions: [
    {
      header: 'Deploy',
      question: 'The deploy failed its canary. What now?',
      options: [
        { label: 'Hotfix forward', description: 'Patch and redeploy (20 min).' },
        { label: 'Roll back', description: 'Known good; 3 min.', recommended: true },
      ],
    },
  ],
};

const SEVERAL = {
  questions: [
    DESCRIBED.questions[0],
    { header: 'Note', question: 'Anything for the customer note?' },
    { header: 'Freeze', question: 'Freeze deploys?', options: [{ label: 'Yes' }, { label: 'No' }] },
  ],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Every text the fake Slack holds for the ask message now (its latest blocks). */
function messageText(h: SlackHarness, ask: PostedAsk): string {
  return JSON.stringify(h.fake.message(ask.channel, ask.ts)?.blocks ?? []);
}

function menuPick(h: SlackHarness, ask: PostedAsk, user: string, option: string) {
  return blockActionRequest(
    {
      user,
      channel: ask.channel,
      actions: [overflowActionFromBlocks(ask.blocks, 'hp.more', option)],
      message: { ts: ask.ts, thread_ts: ask.threadTs, blocks: ask.blocks },
      container: { thread_ts: ask.threadTs },
      responseUrl: h.fake.responseUrl(),
      triggerId: `trig-${user}`,
    },
    { secret: TEST_SIGNING_SECRET },
  );
}

describe('Slack end to end: the calm ask message', () => {
  it('one described question: Choose beside each option answers with that option, in one click', async () => {
    const model = askingModel(DESCRIBED);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvCalm1' });
    const blocks = ask.blocks as Json[];
    expect(blocks.length).toBeLessThanOrEqual(7);
    // The decoder stores the recommended option first: Roll back is option 0, Hotfix forward option 1.
    const rows = blocks.filter(
      (block) => (block.accessory as Json | undefined)?.action_id === 'hp.option.0.1',
    );
    expect(rows).toHaveLength(1);
    expect((rows[0]?.text as Json | undefined)?.text).toBe('*Hotfix forward*\nPatch and redeploy (20 min).');

    expect((await h.send(clickRequest(h, ask, 'U0BOB', 'hp.option.0.1'))).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    expect(askResultsSeen(model.prompts)[0]?.[0]).toMatchObject({
      status: 'answered',
      selected: ['Hotfix forward'],
      answeredBy: 'U0BOB',
    });
    // The person's view after answering: the question and who chose what, no controls left.
    const shown = messageText(h, ask);
    expect(shown).toContain('✅ *Hotfix forward* — chosen by <@U0BOB>');
    expect(shown).not.toContain('"actions"');
    expect(shown).not.toContain('⏱');
  });

  it('three questions: at most 10 blocks; a radio choice counts only on Submit; an empty Submit is refused', async () => {
    const model = askingModel(SEVERAL);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvCalm2' });
    const ref = askRefOf(ask);
    expect(ask.blocks.length).toBeLessThanOrEqual(10);
    expect(JSON.stringify(ask.blocks).match(/⏱/g)).toHaveLength(1);

    // Choosing a radio button alone (Slack sends block_actions for it): acked, nothing changes.
    const state = radioStateFromBlocks(ask.blocks, 'hp.radio.0', '1');
    const [blockId, byAction] = Object.entries(state.values as Json)[0] as [string, Json];
    const choose = blockActionRequest(
      {
        user: 'U0BOB',
        channel: ask.channel,
        actions: [{ ...(byAction['hp.radio.0'] as Json), action_id: 'hp.radio.0', block_id: blockId }],
        message: { ts: ask.ts, thread_ts: ask.threadTs, blocks: ask.blocks },
        state,
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(choose)).status).toBe(200);
    // Submit with nothing chosen: a private hint, nothing stored.
    expect((await h.send(clickRequest(h, ask, 'U0BOB', 'hp.submit.0'))).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the hint');
    expect(h.fake.ephemerals[0]?.text).toBe('Pick an option, then press Submit. Nothing was changed.');
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.resolutions).toEqual([null, null, null]);

    expect((await h.send(clickRequest(h, ask, 'U0BOB', 'hp.submit.0', { state }))).status).toBe(200);
    await waitFor(
      async () => (await h.store.getAsk(ref.turnId, ref.askId))?.resolutions[0] !== null,
      5000,
      'the answer',
    );
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.resolutions[0]).toMatchObject({
      status: 'answered',
      selected: ['Hotfix forward'],
      answeredBy: 'U0BOB',
    });
    await waitFor(
      async () => messageText(h, ask).includes('✅ *Hotfix forward* — chosen by <@U0BOB>'),
      5000,
      'update',
    );
    // The open questions keep their controls and the one timeout line, which now speaks of them only.
    expect(messageText(h, ask)).toMatch(
      /No answer by [^"]*\? I'll assume \*Yes\* for 3\/3 and no answer for 2\/3, and say so\./,
    );
  });

  it('Cancel… from the menu: a stranger is refused privately; the requester confirms and the ask is canceled', async () => {
    const model = askingModel(SEVERAL);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvCalm3', user: 'U0ALICE' });
    const ref = askRefOf(ask);

    // Shown to everyone, checked on click.
    expect((await h.send(menuPick(h, ask, 'U0MALLORY', 'Cancel…'))).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    expect(h.fake.ephemerals[0]).toMatchObject({ user: 'U0MALLORY', channel: 'C0OPS' });
    expect(h.fake.ephemerals[0]?.text).toBe(
      'Only the person who asked the agent can cancel this question. Nothing was changed.',
    );
    expect(h.fake.callsTo('views.open')).toHaveLength(0);

    expect((await h.send(menuPick(h, ask, 'U0ALICE', 'Cancel…'))).status).toBe(200);
    const open = await h.fake.waitForCall('views.open', undefined, 5000);
    expect(open.response.ok).toBe(true);
    const view = open.args.view as Json;
    expect(view.callback_id).toBe(CANCEL_MODAL_CALLBACK_ID);
    expect((view.submit as Json).text).toBe('Cancel it');
    // Nothing is canceled until the confirmation is submitted.
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('open');

    // A stranger replaying the confirmation is refused by the store too.
    const submitAs = (user: string) =>
      viewSubmissionRequest(
        {
          user,
          callbackId: CANCEL_MODAL_CALLBACK_ID,
          privateMetadata: String(view.private_metadata),
          values: {},
        },
        { secret: TEST_SIGNING_SECRET },
      );
    expect((await h.send(submitAs('U0MALLORY'))).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 2, 5000, 'the second refusal');
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('open');

    expect((await h.send(submitAs('U0ALICE'))).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('resolved');
    expect(askResultsSeen(model.prompts)[0]?.map((answer) => answer.status)).toEqual([
      'canceled',
      'canceled',
      'canceled',
    ]);
    // The person's view after a cancel: each question says who canceled it; no controls, no menu.
    const shown = messageText(h, ask);
    expect(shown.match(/🚫 Canceled by <@U0ALICE>/g)).toHaveLength(3);
    expect(shown).not.toContain('hp.more');
    expect(shown).not.toContain('"actions"');
  });

  it('the Cancel button of a message posted before the menu still cancels, for the requester only', async () => {
    const model = askingModel(DESCRIBED);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvCalm4', user: 'U0ALICE' });
    const ref = askRefOf(ask);
    // What an old message's full-row Cancel sent: action hp.cancel, value v1|turn|ask|-|-.
    const legacy = (user: string) =>
      blockActionRequest(
        {
          user,
          channel: ask.channel,
          actions: [
            {
              type: 'button',
              action_id: 'hp.cancel',
              block_id: 'hp.old.r0.x.cancel',
              text: { type: 'plain_text', text: 'Cancel' },
              value: encodeActionValue({ ...ref, questionIndex: null, optionIndex: null }),
              action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
            },
          ],
          message: { ts: ask.ts, thread_ts: ask.threadTs, blocks: ask.blocks },
          container: { thread_ts: ask.threadTs },
        },
        { secret: TEST_SIGNING_SECRET },
      );
    expect((await h.send(legacy('U0BOB'))).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    expect(h.fake.ephemerals[0]?.text).toMatch(/^Only the person who asked/);
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('open');

    expect((await h.send(legacy('U0ALICE'))).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    expect(askResultsSeen(model.prompts)[0]?.[0]).toMatchObject({ status: 'canceled' });
    expect(messageText(h, ask)).toContain('🚫 Canceled by <@U0ALICE>');
  });
});
