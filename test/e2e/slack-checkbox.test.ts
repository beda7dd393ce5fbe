import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askRefOf,
  askResultsSeen,
  clickRequest,
  finalReplies,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import {
  blockActionRequest,
  checkboxesActionFromBlocks,
  checkboxStateFromBlocks,
} from '../support/slack-payloads.js';

const ASK = {
  questions: [
    {
      header: 'Rollback',
      question: 'Which environments should I roll back?',
      multiSelect: true,
      options: [
        { label: 'staging', description: 'Low risk.' },
        { label: 'canary' },
        { label: 'production', description: 'Customer facing.' },
      ],
    },
  ],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Slack end to end: checkbox multi-select', () => {
  it('renders checkboxes and Submit; a tick alone changes nothing; Submit sends both labels', async () => {
    const model = askingModel(ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvChk1' });
    const ref = askRefOf(ask);

    const actions = (ask.blocks as Array<{ type: string; elements?: Array<Record<string, unknown>> }>).find(
      (block) => block.type === 'actions' && block.elements?.some((e) => e.type === 'checkboxes'),
    );
    const checkboxes = actions?.elements?.find((e) => e.type === 'checkboxes');
    expect(checkboxes?.action_id).toBe('hp.checks.0');
    expect(checkboxes?.options).toHaveLength(3);
    expect(actions?.elements?.map((e) => e.action_id)).toContain('hp.submit.0');

    // A tick on its own (Slack sends block_actions for checkbox changes): acked, nothing changes.
    const tick = blockActionRequest(
      {
        user: 'U0BOB',
        actions: [checkboxesActionFromBlocks(ask.blocks, 'hp.checks.0', ['0'])],
        message: { ts: ask.ts, thread_ts: ask.threadTs, blocks: ask.blocks },
        container: { thread_ts: ask.threadTs },
        state: checkboxStateFromBlocks(ask.blocks, 'hp.checks.0', ['0']),
      },
      { secret: TEST_SIGNING_SECRET },
    );
    expect((await h.send(tick)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.fake.callsTo('chat.update')).toHaveLength(0);
    expect(h.fake.ephemerals).toHaveLength(0);
    const stillOpen = await h.store.getAsk(ref.turnId, ref.askId);
    expect(stillOpen?.status).toBe('open');
    expect(stillOpen?.resolutions).toEqual([null]);

    // Tick staging and production, then Submit.
    const submit = clickRequest(h, ask, 'U0BOB', 'hp.submit.0', {
      state: checkboxStateFromBlocks(ask.blocks, 'hp.checks.0', ['0', '2']),
    });
    expect((await h.send(submit)).status).toBe(200);

    const update = await h.fake.waitForCall('chat.update', undefined, 10_000);
    expect(update.response.ok).toBe(true);
    const updated = JSON.stringify(update.args.blocks);
    expect(updated).toContain('<@U0BOB>');
    expect(updated).not.toContain('hp.submit.0');

    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    const results = askResultsSeen(model.prompts);
    expect(results).toHaveLength(1);
    expect(results[0]?.[0]).toMatchObject({
      status: 'answered',
      selected: ['staging', 'production'],
      other: null,
      answeredBy: 'U0BOB',
    });
    expect(model.prompts).toHaveLength(2);
  });

  it('a Submit with nothing ticked is refused privately and leaves the ask open', async () => {
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model: askingModel(ASK) });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvChk2' });
    const submit = clickRequest(h, ask, 'U0BOB', 'hp.submit.0', {
      state: checkboxStateFromBlocks(ask.blocks, 'hp.checks.0', []),
    });
    expect((await h.send(submit)).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'an ephemeral');
    expect(h.fake.ephemerals[0]).toMatchObject({ user: 'U0BOB', channel: 'C0OPS' });
    expect(h.fake.callsTo('chat.update')).toHaveLength(0);
    const ref = askRefOf(ask);
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('open');
  });

  it.for([
    ['without the checkboxes in the state', undefined],
    ['with ticks of no option of the question', ['3', 'x']],
  ] as const)(
    'an empty Submit %s: a hint, nothing recorded, and a real Submit after it counts',
    async ([, ticked]) => {
      const model = askingModel(ASK);
      harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
      const h = harness;
      const ask = await mentionAndWaitForAsk(h, { eventId: `EvChk3${ticked === undefined ? 'a' : 'b'}` });
      const ref = askRefOf(ask);
      // The question has options 0-2: value 3 is in range for an ask but names none of them, x is no index.
      const [blockId] = Object.keys(
        (checkboxStateFromBlocks(ask.blocks, 'hp.checks.0', []) as { values: object }).values,
      );
      const state = {
        values: {
          [blockId ?? '']: {
            'hp.checks.0': {
              type: 'checkboxes',
              selected_options: (ticked ?? []).map((value) => ({ value })),
            },
          },
        },
      };
      const empty = clickRequest(h, ask, 'U0BOB', 'hp.submit.0', ticked === undefined ? {} : { state });
      expect((await h.send(empty)).status).toBe(200);
      await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the hint');
      expect(h.fake.ephemerals[0]?.text).toBe(
        'Pick at least one option, then press Submit. Nothing was changed.',
      );
      expect(h.fake.ephemerals[0]?.user).toBe('U0BOB');
      const stillOpen = await h.store.getAsk(ref.turnId, ref.askId);
      expect(stillOpen).toMatchObject({ status: 'open', resolutions: [null] });
      expect(h.fake.callsTo('chat.update')).toHaveLength(0);
      expect(JSON.stringify(h.fake.calls.map((call) => call.args))).not.toContain('Nothing selected');

      const real = clickRequest(h, ask, 'U0BOB', 'hp.submit.0', {
        state: checkboxStateFromBlocks(ask.blocks, 'hp.checks.0', ['1']),
      });
      expect((await h.send(real)).status).toBe(200);
      await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
      expect(askResultsSeen(model.prompts)[0]?.[0]).toMatchObject({
        status: 'answered',
        selected: ['canary'],
      });
    },
  );
});
