import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel, lastToolResults, scriptedModel } from '../support/scripted-model.js';
import {
  askRefOf,
  askResultsSeen,
  clickRequest,
  finalReplies,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
} from '../support/slack-harness.js';

const ASK = {
  questions: [
    {
      header: 'Deploy',
      question: 'The deploy failed. What now?',
      options: [{ label: 'Hotfix forward' }, { label: 'Roll back' }],
    },
  ],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const LABELS = ['Hotfix forward', 'Roll back'];

async function settle(ms = 500): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('Slack end to end: who may click, and clicks that come too late or twice', () => {
  it('an unauthorized click gets a private refusal and changes nothing; then a valid click works; a late click is told who answered', async () => {
    const model = askingModel(ASK);
    harness = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model,
      env: { ASK_ANSWERERS: 'requester' },
    });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvAuth1', user: 'U0ALICE' });
    const ref = askRefOf(ask);

    expect((await h.send(clickRequest(h, ask, 'U0BOB', 'hp.option.0.0'))).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the refusal');
    expect(h.fake.ephemerals[0]).toMatchObject({ user: 'U0BOB', channel: 'C0OPS' });
    expect(h.fake.ephemerals[0]?.text).toMatch(/^Only the person who asked/);
    expect(h.fake.ephemerals[0]?.text).toContain('Nothing was changed');
    const untouched = await h.store.getAsk(ref.turnId, ref.askId);
    expect(untouched?.status).toBe('open');
    expect(untouched?.resolutions).toEqual([null]);
    expect(h.fake.callsTo('chat.update')).toHaveLength(0);
    expect(model.prompts).toHaveLength(1);

    expect((await h.send(clickRequest(h, ask, 'U0ALICE', 'hp.option.0.1'))).status).toBe(200);
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    expect(askResultsSeen(model.prompts)[0]?.[0]).toMatchObject({
      status: 'answered',
      selected: ['Roll back'],
      answeredBy: 'U0ALICE',
    });

    // Late click, after the ask resolved and the turn ended.
    expect((await h.send(clickRequest(h, ask, 'U0CAROL', 'hp.option.0.0'))).status).toBe(200);
    await waitFor(async () => h.fake.ephemerals.length === 2, 5000, 'the late-click notice');
    expect(h.fake.ephemerals[1]).toMatchObject({ user: 'U0CAROL', channel: 'C0OPS' });
    expect(h.fake.ephemerals[1]?.text).toMatch(/^Already answered by <@U0ALICE>/);
    await settle();
    expect(h.fake.callsTo('chat.update')).toHaveLength(1);
    expect(model.prompts).toHaveLength(2);
    expect(finalReplies(h)).toHaveLength(1);
  });

  for (const [name, first, second] of [
    ['the same user clicks twice at once', 'U0BOB', 'U0BOB'],
    ['two users click at once', 'U0BOB', 'U0CAROL'],
  ] as const) {
    it(`double click (${name}): one answer, one update, one resume; the loser is told who won`, async () => {
      const model = askingModel(ASK);
      harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
      const h = harness;
      const ask = await mentionAndWaitForAsk(h, { eventId: `EvDouble-${first}-${second}` });
      const [a, b] = await Promise.all([
        h.send(clickRequest(h, ask, first, 'hp.option.0.0')),
        h.send(clickRequest(h, ask, second, 'hp.option.0.1')),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);

      await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
      await waitFor(async () => h.fake.ephemerals.length === 1, 5000, 'the loser notice');
      await settle();
      const answers = askResultsSeen(model.prompts);
      expect(answers).toHaveLength(1);
      const winner = answers[0]?.[0];
      expect(winner?.status).toBe('answered');
      expect([first, second]).toContain(winner?.answeredBy);
      expect(winner?.selected).toHaveLength(1);
      expect(LABELS).toContain(winner?.selected[0]);

      const loser = h.fake.ephemerals[0];
      const loserId = first === second ? first : winner?.answeredBy === first ? second : first;
      expect(loser?.user).toBe(loserId);
      expect(loser?.text).toMatch(new RegExp(`^Already answered by <@${winner?.answeredBy}>`));
      expect(loser?.text).toContain(`*${winner?.selected[0]}*`);

      const updates = h.fake.callsTo('chat.update');
      expect(updates).toHaveLength(1);
      expect(JSON.stringify(updates[0]?.args.blocks)).toContain(`<@${winner?.answeredBy}>`);
      expect(model.prompts).toHaveLength(2);
      expect(finalReplies(h)).toHaveLength(1);
      const ref = askRefOf(ask);
      expect((await h.store.getAsk(ref.turnId, ref.askId))?.status).toBe('resolved');
    });
  }

  it('C07: the click is acked before the slow resume runs, and only after the answer is stored', async () => {
    let resumeStarted = 0;
    const model = scriptedModel(async (prompt) => {
      if (lastToolResults(prompt).length === 0)
        return { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input: ASK }] };
      resumeStarted = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      return { text: 'FINAL done' };
    });
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvAck1' });
    const ref = askRefOf(ask);
    const started = Date.now();
    const response = await h.send(clickRequest(h, ask, 'U0BOB', 'hp.option.0.0'));
    const ackedAt = Date.now();
    expect(response.status).toBe(200);
    expect(ackedAt - started).toBeLessThan(1000);
    // Stored before the ack: the answer is in Redis as soon as the HTTP response is back.
    const stored = await h.store.getAsk(ref.turnId, ref.askId);
    expect(stored?.status).toBe('resolved');
    expect(stored?.resolutions[0]).toMatchObject({ selected: ['Hotfix forward'], answeredBy: 'U0BOB' });
    await waitFor(async () => finalReplies(h).length === 1, 15_000, 'the final reply');
    expect(resumeStarted).toBeGreaterThan(0);
    expect(finalReplies(h)[0]?.time ?? 0).toBeGreaterThanOrEqual(ackedAt + 2000);
    expect(model.prompts).toHaveLength(2);
  });

  /**
   * A click that lands right after the ask is posted, while the turn job that posted it is still
   * finishing, resolves the ask; the turn job then loops, finds the ask resolved and resumes the turn
   * itself while the resume job does the same.
   */
  async function raceTurnJob(h: SlackHarness) {
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvRaceTurnJob', settle: false });
    expect((await h.send(clickRequest(h, ask, 'U0BOB', 'hp.option.0.0'))).status).toBe(200);
    await waitFor(async () => finalReplies(h).length >= 1, 15_000, 'the final reply');
    await settle(2500);
  }

  /** A model whose second step (the continuation) takes `ms`, as real models do. */
  function slowContinuation(ms: number) {
    return scriptedModel(async (prompt) => {
      if (lastToolResults(prompt).length === 0)
        return { text: 'Let me ask.', toolCalls: [{ name: 'ask_question', input: ASK }] };
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { text: 'FINAL done' };
    });
  }

  it('a click racing the turn job that posted the ask: one update, one final reply, the model called twice', async () => {
    const model = slowContinuation(1500);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    await raceTurnJob(harness);
    expect(finalReplies(harness)).toHaveLength(1);
    expect(harness.fake.callsTo('chat.update')).toHaveLength(1);
    expect(askResultsSeen(model.prompts)[0]?.[0]).toMatchObject({ selected: ['Hotfix forward'] });
    expect(model.prompts).toHaveLength(2);
  });
});
