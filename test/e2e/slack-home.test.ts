/**
 * Issue 15, item 5: the inbox in Slack, end to end (real runtime: HTTP server, Bolt receiver, BullMQ worker,
 * Redis; the fake Slack accepts every call). The Home tab lists exactly the open asks a person may answer
 * (Alice and Bob under different policies) and the asks they started; it is published again after an
 * answer given from the Home tab itself; `/holdpoint asks` answers with the same inbox within Slack's 3 s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { inboxAskOfBlockId, shortAskId } from '../../src/slack/blocks/action-ids.js';
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
import {
  appHomeOpenedRequest,
  homeViewActionRequest,
  slashCommandRequest,
} from '../support/slack-payloads.js';

const TOKEN = 'h'.repeat(40);
const CHOICE = [
  {
    header: 'Deploy',
    question: 'Ship payments-api v2.41 to production?',
    options: [{ label: 'Ship it' }, { label: 'Hold' }],
  },
];
const FREE_TEXT = [{ header: 'Ticket', question: 'Which ticket should the fix reference?' }];

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function createAsk(h: SlackHarness, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${h.baseUrl}/v1/asks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'C0OPS', ...body }),
  });
  expect(response.status).toBe(201);
  return String(((await response.json()) as { id: string }).id);
}

/** The asks (short ids) a person's published Home view lists to answer (`b` rows) and as started (`s` rows). */
function homeOf(h: SlackHarness, user: string): { toAnswer: string[]; started: string[] } | null {
  const view = h.fake.homeView(user);
  if (!view) return null;
  const blocks = view.blocks as Array<{ block_id: string }>;
  const of = (part: string) =>
    blocks
      .filter((block) => block.block_id.endsWith(`.${part}`))
      .map((block) => inboxAskOfBlockId(block.block_id) ?? '?')
      .sort();
  return { toAnswer: of('b'), started: of('s') };
}

function shorts(...askIds: string[]): string[] {
  return askIds.map(shortAskId).sort();
}

describe('the inbox in Slack', () => {
  it('lists exactly the asks each person may answer, follows an answer given there, and /holdpoint asks answers within 3 s', async () => {
    const h = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: askingModel({ questions: CHOICE }),
      // Turn asks: only the person who asked the agent may answer.
      env: { API_TOKENS: `home-test:${TOKEN}`, ASK_ANSWERERS: 'requester' },
      tuning: { askPollIntervalMs: 600_000 },
    });
    harness = h;
    h.fake.seedUserGroup('S0OPS', ['U0BOB']);

    // Both open their Home tab first: an empty inbox, and they are now recent viewers.
    for (const [user, eventId] of [
      ['U0ALICE', 'EvHomeA'],
      ['U0BOB', 'EvHomeB'],
    ] as const) {
      const opened = await h.send(appHomeOpenedRequest(user, { eventId, secret: TEST_SIGNING_SECRET }));
      expect(opened.status).toBe(200);
      await waitFor(async () => homeOf(h, user) !== null, 5000, `${user}'s first Home view`);
      expect(homeOf(h, user)).toEqual({ toAnswer: [], started: [] });
    }

    const forAlice = await createAsk(h, { questions: CHOICE, answerers: ['U0ALICE'] });
    const forOps = await createAsk(h, { questions: FREE_TEXT, answerers: ['S0OPS'] });
    const forBoth = await createAsk(h, { questions: CHOICE, answerers: ['U0ALICE', 'S0OPS'] });
    // Open to anyone in the channel: the Home tab cannot tell who sees the channel, so nobody's lists it.
    await createAsk(h, { questions: CHOICE, answerers: 'anyone' });
    const turnAsk = askRefOf(await mentionAndWaitForAsk(h, { eventId: 'EvHomeTurn', user: 'U0ALICE' }));

    // Each new ask re-published the Home views it concerns.
    const alice = { toAnswer: shorts(forAlice, forBoth, turnAsk.askId), started: shorts(turnAsk.askId) };
    const bob = { toAnswer: shorts(forOps, forBoth), started: [] };
    await waitFor(
      async () => JSON.stringify(homeOf(h, 'U0ALICE')) === JSON.stringify(alice),
      10_000,
      'Alice',
    );
    await waitFor(async () => JSON.stringify(homeOf(h, 'U0BOB')) === JSON.stringify(bob), 10_000, 'Bob');

    // Alice clicks "Answer…" in the row of the group's ask as Bob's view shows it: checked like a click in
    // the thread, so she is refused (she is not in S0OPS), no modal opens and nothing changes.
    const bobView = h.fake.homeView('U0BOB') as Record<string, unknown>;
    const refused = await h.send(
      homeViewActionRequest(
        { user: 'U0ALICE', view: bobView, askShort: shortAskId(forOps), actionId: 'hp.answer.0' },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(refused.status).toBe(200);
    await waitFor(
      async () => h.fake.ephemerals.some((e) => e.user === 'U0ALICE' && e.channel === 'C0OPS'),
      5000,
      'the refusal notice',
    );
    expect(h.fake.callsTo('views.open')).toHaveLength(0);

    // Bob answers the ask they share from his Home tab: stored, the ask message redrawn, both views follow.
    const publishesBefore = h.fake.callsTo('views.publish').length;
    const answered = await h.send(
      homeViewActionRequest(
        { user: 'U0BOB', view: bobView, askShort: shortAskId(forBoth), actionId: 'hp.option.0.0' },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(answered.status).toBe(200);
    const stored = await h.store.getAsk(`ask-${forBoth}`, forBoth);
    expect(stored?.resolutions[0]).toMatchObject({ selected: ['Ship it'], answeredBy: 'U0BOB' });
    await waitFor(
      async () =>
        JSON.stringify(homeOf(h, 'U0BOB')) === JSON.stringify({ toAnswer: shorts(forOps), started: [] }),
      10_000,
      "Bob's view after his answer",
    );
    await waitFor(
      async () =>
        JSON.stringify(homeOf(h, 'U0ALICE')) ===
        JSON.stringify({ toAnswer: shorts(forAlice, turnAsk.askId), started: shorts(turnAsk.askId) }),
      10_000,
      "Alice's view after Bob's answer",
    );
    expect(h.fake.callsTo('views.publish').length).toBeGreaterThan(publishesBefore);
    expect(
      h.fake.callsTo('chat.update').some((call) => JSON.stringify(call.args.blocks).includes('U0BOB')),
    ).toBe(true);
    // The other asks are untouched.
    expect((await h.store.getAsk(`ask-${forOps}`, forOps))?.status).toBe('open');
    expect((await h.store.getAsk(`ask-${forAlice}`, forAlice))?.status).toBe('open');

    // `/holdpoint asks`: the same inbox, ephemeral, in the ack (well within Slack's 3 s).
    const started = performance.now();
    const command = await h.send(
      slashCommandRequest(
        { user: 'U0ALICE', text: 'asks', responseUrl: h.fake.responseUrl('cmd') },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    const ackMs = performance.now() - started;
    expect(command.status).toBe(200);
    expect(ackMs).toBeLessThan(3000);
    const reply = JSON.parse(command.body) as { response_type: string; text: string; blocks: unknown[] };
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toBe('2 asks wait for you; you started 1 open ask.');
    const listed = (reply.blocks as Array<{ block_id: string }>)
      .filter((block) => block.block_id.endsWith('.b'))
      .map((block) => inboxAskOfBlockId(block.block_id))
      .sort();
    expect(listed).toEqual(shorts(forAlice, turnAsk.askId));
    console.info(`/holdpoint asks acked with the inbox in ${ackMs.toFixed(0)} ms`);

    const help = await h.send(
      slashCommandRequest(
        { user: 'U0BOB', text: 'what', responseUrl: h.fake.responseUrl() },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(JSON.parse(help.body)).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('/holdpoint asks'),
    });

    // The fake Slack accepted every call the app made.
    const refusedCalls = h.fake.calls.filter((call) => call.response.ok !== true);
    expect(refusedCalls.map((call) => `${call.method}: ${String(call.response.error)}`)).toEqual([]);
  }, 60_000);

  it('/holdpoint asks acks at once and sends the inbox by response_url when gathering it is slow', async () => {
    // Slack answers the user-group lookup slowly: the inbox takes longer than the command's ack budget.
    const h = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: askingModel({ questions: CHOICE }),
      env: { API_TOKENS: `home-test:${TOKEN}` },
      fake: { latencyMs: (method) => (method === 'usergroups.users.list' ? 2000 : 0) },
      tuning: { askPollIntervalMs: 600_000 },
    });
    harness = h;
    h.fake.seedUserGroup('S0OPS', ['U0BOB']);
    const forOps = await createAsk(h, { questions: FREE_TEXT, answerers: ['S0OPS'] });

    const started = performance.now();
    const command = await h.send(
      slashCommandRequest(
        { user: 'U0BOB', text: 'asks', responseUrl: h.fake.responseUrl('slow') },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    const ackMs = performance.now() - started;
    expect(command.status).toBe(200);
    expect(ackMs).toBeLessThan(3000);
    expect(JSON.parse(command.body)).toEqual({ response_type: 'ephemeral', text: 'Looking up your asks…' });
    await waitFor(async () => h.fake.responseUrlPosts.length > 0, 5000, 'the inbox by response_url');
    const posted = h.fake.responseUrlPosts[0]?.body as { replace_original: boolean; blocks: unknown[] };
    expect(posted).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(JSON.stringify(posted.blocks)).toContain(`hp.inbox.${shortAskId(forOps)}.`);
    console.info(`/holdpoint asks (slow path) acked in ${ackMs.toFixed(0)} ms`);
  }, 30_000);
});
