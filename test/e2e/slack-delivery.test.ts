import { afterEach, describe, expect, it } from 'vitest';
import { sweepJobId } from '../../src/jobs/job-ids.js';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { askingModel } from '../support/scripted-model.js';
import {
  askRefOf,
  mentionAndWaitForAsk,
  type SlackHarness,
  startSlackHarness,
  TEST_SIGNING_SECRET,
} from '../support/slack-harness.js';
import { eventRequest } from '../support/slack-payloads.js';

const ASK = {
  questions: [{ header: 'Deploy', question: 'What now?', options: [{ label: 'A' }, { label: 'B' }] }],
};

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function askPosts(h: SlackHarness, ok = true) {
  return h.fake
    .callsTo('chat.postMessage')
    .filter((call) => Array.isArray(call.args.blocks) && (!ok || call.response.ok === true));
}

function mentionIn(threadTs: string, eventId: string, retryNum?: number) {
  const ts = `${threadTs.split('.')[0]}.000200`;
  return eventRequest(
    { text: '<@U0BOT> what now?', ts, thread_ts: threadTs, user: 'U0ALICE', channel: 'C0OPS' },
    {
      eventId,
      secret: TEST_SIGNING_SECRET,
      ...(retryNum !== undefined ? { retryNum, retryReason: 'http_timeout' } : {}),
    },
  );
}

describe('Slack end to end: event retries (C06)', () => {
  it('the same app_mention delivered twice starts one turn; a first-seen retry is processed', async () => {
    const model = askingModel(ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    for (const threadTs of ['1780000000.000100', '1780000500.000100']) {
      h.fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'parent', ts: threadTs });
      h.fake.seedMessage({
        channel: 'C0OPS',
        user: 'U0ALICE',
        text: '<@U0BOT> what now?',
        ts: `${threadTs.split('.')[0]}.000200`,
        threadTs,
      });
    }
    // Ev1, then Slack's http_timeout redelivery of Ev1 right behind it.
    expect((await h.send(mentionIn('1780000000.000100', 'EvRetry1'))).status).toBe(200);
    const retry = await h.send(mentionIn('1780000000.000100', 'EvRetry1', 1));
    expect(retry.status).toBe(200);
    await waitFor(async () => askPosts(h).length === 1, 15_000, 'the ask of Ev1');

    // Ev2 arrives only as its second retry (the first copies were lost): it must not be dropped.
    expect((await h.send(mentionIn('1780000500.000100', 'EvRetry2', 2))).status).toBe(200);
    await waitFor(async () => askPosts(h).length === 2, 15_000, 'the ask of Ev2');
    await new Promise((resolve) => setTimeout(resolve, 700));

    const posts = askPosts(h);
    expect(posts).toHaveLength(2);
    expect(posts.map((call) => call.args.thread_ts).sort()).toEqual([
      '1780000000.000100',
      '1780000500.000100',
    ]);
    expect(model.prompts).toHaveLength(2);
    // The dedupe marker outlives Slack's retry window (minutes): at least 1 hour.
    const ttl = await h.redis.pttl(`${h.storePrefix}:event:EvRetry1`);
    expect(ttl).toBeGreaterThan(55 * 60_000);
  });

  it('two copies of one event racing each other still start one turn', async () => {
    const model = askingModel(ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model });
    const h = harness;
    h.fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'parent', ts: '1780000000.000100' });
    const responses = await Promise.all([
      h.send(mentionIn('1780000000.000100', 'EvRace1')),
      h.send(mentionIn('1780000000.000100', 'EvRace1', 1)),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    await waitFor(async () => askPosts(h).length === 1, 15_000, 'the ask');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(askPosts(h)).toHaveLength(1);
    expect(model.prompts).toHaveLength(1);
  });
});

describe('Slack end to end: 429 on chat.postMessage (C09)', () => {
  it('the ask appears once, after Retry-After, and its deadline counts from the successful post', async () => {
    const model = askingModel(ASK);
    harness = await startSlackHarness({ redisUrl: testRedisUrl(), model, env: { ASK_TIMEOUT: '10m' } });
    const h = harness;
    h.fake.failNext('chat.postMessage', { status: 429, retryAfterSec: 1 });
    const ask = await mentionAndWaitForAsk(h, { eventId: 'EvRate1' });

    const attempts = askPosts(h, false);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.status).toBe(429);
    expect(attempts[1]?.response.ok).toBe(true);
    const first = attempts[0]?.time ?? 0;
    const success = attempts[1]?.time ?? 0;
    expect(success - first).toBeGreaterThanOrEqual(1000);

    const ref = askRefOf(ask);
    const stored = await waitFor(
      async () => {
        const current = await h.store.getAsk(ref.turnId, ref.askId);
        return current?.deadline != null ? current : undefined;
      },
      5000,
      'the ask marked shown',
    );
    expect(JSON.parse(stored.messageRef ?? '{}')).toEqual({ channel: 'C0OPS', ts: ask.ts });
    expect(stored.shownAt).toBeGreaterThanOrEqual(success);
    expect(stored.deadline).toBe((stored.shownAt ?? 0) + 10 * 60_000);

    const due = await waitFor(
      async () => (await h.due.dueAt({ kind: 'timeout', turnId: ref.turnId, askId: ref.askId })) ?? undefined,
      5000,
      'the timeout timer',
    );
    expect(due).toBe(stored.deadline);
    // The sweep of its bucket waits on the timer lane's queue: the timer is 10 min out, beyond the 5 min a
    // new timer adds its own sweep for, so the periodic kick (every second here) adds it.
    const sweep = await waitFor(
      async () => (await h.timers.getJob(sweepJobId(Math.ceil(due / 100)))) ?? undefined,
      5000,
      'the sweep job of its bucket',
    );
    expect(await sweep.getState()).toBe('delayed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(askPosts(h)).toHaveLength(1);
  });
});
