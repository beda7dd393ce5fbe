import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel, lastToolResults } from '../support/scripted-model.js';
import {
  askRefOf,
  askResultsSeen,
  clickRequest,
  finalReplies,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
} from '../support/slack-harness.js';

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function askTexts(prompts: Parameters<typeof askResultsSeen>[0]): string[] {
  return prompts.flatMap((prompt) =>
    lastToolResults(prompt)
      .filter((result) => result.toolName === 'ask_question')
      .map((result) => result.text),
  );
}

describe('Slack end to end: timeout', () => {
  it('nobody answers: the message shows the assumption, the model is told, one final reply', async () => {
    const ask = {
      questions: [
        {
          header: 'Deploy',
          question: 'The deploy failed. What now?',
          options: [{ label: 'Hotfix forward' }, { label: 'Roll back', recommended: true }],
        },
      ],
    };
    const model = askingModel(ask);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model, env: { ASK_TIMEOUT: '2s' } });
    const h = harness;
    const posted = await mentionAndWaitForAsk(h, { eventId: 'EvTimeout1' });
    const postedAt = h.fake.callsTo('chat.postMessage').find((call) => call.response.ts === posted.ts)?.time;
    const ref = askRefOf(posted);
    // The app marks the ask shown right after the post returns.
    const stored = await waitFor(
      async () => {
        const current = await h.store.getAsk(ref.turnId, ref.askId);
        return current?.deadline != null ? current : undefined;
      },
      5000,
      'the ask marked shown',
    );
    expect(stored.shownAt).toBeGreaterThanOrEqual(postedAt ?? 0);
    expect((stored?.deadline ?? 0) - (stored?.shownAt ?? 0)).toBe(2000);

    const update = await h.fake.waitForCall('chat.update', undefined, 10_000);
    expect(update.time - (postedAt ?? 0)).toBeGreaterThanOrEqual(1900);
    expect(update.args.ts).toBe(posted.ts);
    const shown = JSON.stringify(update.args.blocks);
    expect(shown).toMatch(/No answer in [^:"]+: assumed \*Roll back\*/);
    expect(shown).not.toContain('hp.option.');

    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    const answers = askResultsSeen(model.prompts);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.[0]).toMatchObject({
      status: 'assumed',
      selected: ['Roll back'],
      answeredBy: null,
      source: 'timeout',
      assumption: 'recommended',
    });
    expect(askTexts(model.prompts)[0]).toContain('NOBODY answered within the time limit');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(finalReplies(h)).toHaveLength(1);
    expect(h.fake.callsTo('chat.update')).toHaveLength(1);
    expect(model.prompts).toHaveLength(2);
  });

  it('C30: a partly answered batch keeps the person\u2019s answer; only the open question is assumed', async () => {
    const ask = {
      questions: [
        {
          header: 'First',
          question: 'Pick one',
          options: [{ label: 'A', recommended: true }, { label: 'B' }],
        },
        { header: 'Second', question: 'Pick another', options: [{ label: 'C' }, { label: 'D' }] },
      ],
    };
    const model = askingModel(ask);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model, env: { ASK_TIMEOUT: '2s' } });
    const h = harness;
    const posted = await mentionAndWaitForAsk(h, { eventId: 'EvTimeout2' });
    const ref = askRefOf(posted);
    const before = await waitFor(
      async () => {
        const current = await h.store.getAsk(ref.turnId, ref.askId);
        return current?.deadline != null ? current : undefined;
      },
      5000,
      'the ask marked shown',
    );
    // Option B is index 1 of question 0 (A, recommended, is shown first).
    expect((await h.send(clickRequest(h, posted, 'U0BOB', 'hp.option.0.1'))).status).toBe(200);
    const first = await h.fake.waitForCall('chat.update', undefined, 5000);
    expect(JSON.stringify(first.args.blocks)).toContain('<@U0BOB>');
    // Answering Q1 does not move the deadline.
    expect((await h.store.getAsk(ref.turnId, ref.askId))?.deadline).toBe(before.deadline);

    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    const updates = h.fake.callsTo('chat.update');
    expect(updates).toHaveLength(2);
    const last = JSON.stringify(updates[1]?.args.blocks);
    expect(last).toMatch(/\*B\* — chosen by <@U0BOB>/);
    expect(last).toMatch(/No answer in [^:"]+: assumed \*C\*/);
    const answers = askResultsSeen(model.prompts)[0];
    expect(answers?.[0]).toMatchObject({
      status: 'answered',
      selected: ['B'],
      answeredBy: 'U0BOB',
      source: 'button',
    });
    expect(answers?.[1]).toMatchObject({
      status: 'assumed',
      selected: ['C'],
      answeredBy: null,
      source: 'timeout',
      assumption: 'first_option',
    });
    expect(model.prompts).toHaveLength(2);
  });
});
