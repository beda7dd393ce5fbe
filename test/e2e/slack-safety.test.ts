import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import type { FakeSlackCall } from '../support/fake-slack/index.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askResultsSeen,
  clickRequest,
  finalReplies,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import {
  answerModalValues,
  checkboxStateFromBlocks,
  radioStateFromBlocks,
  viewSubmissionRequest,
} from '../support/slack-payloads.js';

const ALL = '<!channel> <!here> <!everyone> <!subteam^S1> <@U024BE7LH> <https://x|y> &';
const FORBIDDEN = ['<!channel', '<!here', '<!everyone', '<!subteam', '<@U024BE7LH', '<https://x'];

const HOSTILE_ASK = {
  questions: [
    {
      header: 'Notify <!here> & <!channel>',
      question: `Should I tell them? ${ALL}`,
      purpose: `Because ${ALL}`,
      options: [
        { label: 'Yes, <!here> now', description: `Pings ${ALL}` },
        { label: 'No <!subteam^S1> & <@U024BE7LH>', description: 'Quiet <https://x|y>' },
        { label: '<https://x|y> & <!everyone>' },
      ],
    },
    {
      header: '<!subteam^S1> teams',
      question: `Which teams? ${ALL}`,
      multiSelect: true,
      options: [
        { label: '<!channel> ops', description: `All of ${ALL}` },
        { label: '<@U024BE7LH> & co' },
        { label: '<!everyone> else', description: '<!here>' },
      ],
    },
  ],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Json = Record<string, unknown>;

/** Every actions block in a call's blocks (or its view's blocks). */
function actionsBlocks(call: FakeSlackCall): Json[] {
  const blocks = (call.args.blocks ?? (call.args.view as Json | undefined)?.blocks ?? []) as Json[];
  return blocks.filter((block) => block.type === 'actions');
}

describe('Slack end to end: model text is inert (C05)', () => {
  it('no broadcast, group or foreign user mention and no fake link reaches Slack, in any call', async () => {
    const model = askingModel(HOSTILE_ASK, 'FINAL <!channel> done & <@U024BE7LH> <!here> <https://x|y>');
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvSafe1' });

    // Q1 through Other… (the modal carries model text too), typed text with markup of its own.
    expect(
      (await h.send(clickRequest(h, ask, 'U0BOB', 'hp.other.0', { triggerId: 'trig-safe' }))).status,
    ).toBe(200);
    const open = await h.fake.waitForCall('views.open', undefined, 5000);
    expect(open.response.ok).toBe(true);
    const view = open.args.view as Json;
    const typed = 'only <!here> & <@U024BE7LH>, see <https://x|y>';
    const submitted = await h.send(
      viewSubmissionRequest(
        {
          user: 'U0BOB',
          callbackId: String(view.callback_id),
          privateMetadata: String(view.private_metadata),
          values: answerModalValues(typed),
        },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(submitted.status).toBe(200);
    await waitFor(async () => h.fake.callsTo('chat.update').length === 1, 5000, 'the first update');

    // Q2 through the checkboxes.
    const submit = clickRequest(h, ask, 'U0BOB', 'hp.submit.1', {
      state: checkboxStateFromBlocks(ask.blocks, 'hp.checks.1', ['0', '2']),
    });
    expect((await h.send(submit)).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');

    // A late Submit of Q1's radio list: its ephemeral names the answer (model labels) and who gave it.
    const late = clickRequest(h, ask, 'U0CAROL', 'hp.submit.0', {
      state: radioStateFromBlocks(ask.blocks, 'hp.radio.0', '0'),
    });
    expect((await h.send(late)).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the late-click notice');
    expect(h.fake.ephemerals[0]?.text).toMatch(/^Already answered by <@U0BOB>/);

    const answers = askResultsSeen(model.prompts)[0];
    expect(answers?.[0]).toMatchObject({ selected: [], other: typed, source: 'modal' });
    expect(answers?.[1]).toMatchObject({ selected: ['<!channel> ops', '<!everyone> else'] });

    const outgoing = h.fake.calls.filter((call) =>
      ['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'views.open', 'views.update'].includes(
        call.method,
      ),
    );
    expect(outgoing.map((call) => call.method).sort()).toEqual([
      'chat.postEphemeral',
      'chat.postMessage',
      'chat.postMessage',
      'chat.update',
      'chat.update',
      'views.open',
    ]);
    for (const call of outgoing) {
      const json = JSON.stringify(call.args);
      for (const needle of FORBIDDEN) expect(json, `${call.method} carries ${needle}`).not.toContain(needle);
      expect(call.args, `${call.method} sets link_names`).not.toHaveProperty('link_names');
      const mentions = [...json.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((match) => match[1]);
      for (const id of mentions) expect(id, `${call.method} mentions ${id}`).toBe('U0BOB');
      expect(call.response.ok, `${call.method} was accepted`).toBe(true);
    }
    // The escaped forms are there: the text is shown, not dropped.
    const reply = finalReplies(h)[0];
    expect(reply?.args.text).toBe(
      'FINAL &lt;!channel&gt; done &amp; &lt;@U024BE7LH&gt; &lt;!here&gt; &lt;https://x|y&gt;',
    );
    const firstPost = JSON.stringify(h.fake.callsTo('chat.postMessage')[0]?.args);
    expect(firstPost).toContain('&lt;!channel&gt;');
    expect(firstPost).toContain('&amp;');
    // Button texts are plain_text.
    for (const block of actionsBlocks(h.fake.callsTo('chat.postMessage')[0] as FakeSlackCall)) {
      for (const element of block.elements as Json[]) {
        if (element.type === 'button') expect((element.text as Json).type).toBe('plain_text');
      }
    }
  });
});

describe('Slack end to end: distinct action_ids (C01)', () => {
  it('every actions block has distinct action_ids ≤ 255; the third button resolves option index 2', async () => {
    const regionAsk = {
      questions: [
        {
          question: 'Which region should I deploy to?',
          header: 'Region',
          options: [{ label: 'us-east-1' }, { label: 'eu-west-1' }, { label: 'ap-south-1' }],
        },
      ],
    };
    const model = askingModel(regionAsk, 'FINAL ok');
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvC01' });
    const posted = h.fake.callsTo('chat.postMessage')[0] as FakeSlackCall;
    const blocks = actionsBlocks(posted);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const ids = (block.elements as Json[]).map((element) => String(element.action_id));
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id.length).toBeLessThanOrEqual(255);
    }
    const controls = blocks[0]?.elements as Json[];
    // Three option buttons plus our own Other….
    expect(controls.map((element) => (element.text as Json).text)).toEqual([
      'us-east-1',
      'eu-west-1',
      'ap-south-1',
      'Other…',
    ]);
    const third = String(controls[2]?.action_id);
    expect((await h.send(clickRequest(h, ask, 'U0BOB', third))).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    expect(askResultsSeen(model.prompts)[0]?.[0]).toMatchObject({
      status: 'answered',
      selected: ['ap-south-1'],
      answeredBy: 'U0BOB',
    });
    for (const update of h.fake.callsTo('chat.update')) {
      for (const block of actionsBlocks(update)) {
        const ids = (block.elements as Json[]).map((element) => String(element.action_id));
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });
});
