/**
 * Reaching people on the built app (`node dist/src/main.js`, fake Slack, real Redis and BullMQ), through the
 * ask API and signed Slack interactions: the message mentions who may answer (never a broadcast) and says
 * when it resolves; reminders go to the thread at 50% and 90% naming only who has not answered; the
 * overflow menu's snooze moves the deadline and says who did it; a 2-of-3 quorum counts distinct people;
 * after an assumed resolution "Change answer" records a late answer once, shows it, returns it from
 * `GET /v1/asks/{id}` and sends one signed `ask.overridden` webhook.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import {
  blockActionRequest,
  buttonActionFromBlocks,
  viewSubmissionRequest,
} from '../support/slack-payloads.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';

const TOKEN = 'f'.repeat(40);
const SECRET = 'w'.repeat(40);
const QUESTIONS = [{ header: 'Deploy', question: 'Ship 2.41?', options: ['Ship it (Recommended)', 'Hold'] }];
type Json = Record<string, unknown>;

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
const running: ProductionApp[] = [];

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
});
afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop('SIGKILL')));
});

async function start(env: Record<string, string> = {}): Promise<ProductionApp> {
  const app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port: await freePort(),
      model: 'anthropic',
      env: { ROLE: 'all', API_TOKENS: `release:${TOKEN}`, WEBHOOK_SECRET: SECRET, ...env },
    }),
  );
  running.push(app);
  return app;
}

async function api(app: ProductionApp, method: string, path: string, body?: unknown) {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function messageText(ts: string): string {
  const message = fake.message('C0OPS', ts);
  return JSON.stringify(message?.blocks ?? []) + (message?.text ?? '');
}

async function click(app: ProductionApp, ts: string, user: string, action: Json): Promise<number> {
  const blocks = fake.message('C0OPS', ts)?.blocks;
  const request = blockActionRequest(
    { user, channel: 'C0OPS', actions: [action], message: { ts, blocks } },
    { secret: TEST_SIGNING_SECRET },
  );
  return (await app.send(request)).status;
}

function button(ts: string, actionId: string): Json {
  return buttonActionFromBlocks(fake.message('C0OPS', ts)?.blocks, actionId);
}

/** The overflow action Slack sends when `label` is picked in the ask's menu. */
function menuChoice(ts: string, label: string): Json {
  for (const block of (fake.message('C0OPS', ts)?.blocks ?? []) as Json[]) {
    // The menu sits beside the first question (a section accessory).
    const elements = [
      ...((block.elements ?? []) as Json[]),
      ...(block.accessory ? [block.accessory as Json] : []),
    ];
    for (const element of elements) {
      if (element.type !== 'overflow') continue;
      const option = (element.options as Json[]).find((o) => (o.text as Json).text === label);
      if (option)
        return {
          type: 'overflow',
          action_id: element.action_id,
          block_id: block.block_id,
          selected_option: option,
          action_ts: `${Math.floor(Date.now() / 1000)}.000100`,
        };
    }
  }
  throw new Error(`no menu option ${label}`);
}

function threadReplies(ts: string) {
  return fake.messagesIn('C0OPS', ts).filter((message) => message.ts !== ts);
}

describe('reaching people on the built app', () => {
  it('mentions who may answer (never a broadcast), reminds at 50% and 90% only who has not answered, then stops', async () => {
    fake.seedUserGroup('S0SRE', ['U0DAN']);
    const app = await start({ ASK_REMINDERS: '50%,90%' });
    const created = await api(app, 'POST', '/v1/asks', {
      channel: 'C0OPS',
      timeout: '4s',
      answerers: ['U0ALICE', 'U0BOB', 'S0SRE'],
      questions: [...QUESTIONS, { header: 'Notes', question: 'Post the notes?', options: ['Yes', 'No'] }],
    });
    expect(created.status).toBe(201);
    const ts = String(created.body.ts);
    const shown = messageText(ts);
    expect(shown).toContain('Who can answer: <@U0ALICE>, <@U0BOB>, <!subteam^S0SRE>');
    expect(shown).toMatch(/<!date\^\d+\^\{date_short_pretty\} at \{time\}\|[^>]+> \(in \d+ s/);
    expect(shown).not.toMatch(/<!(channel|here|everyone)/);
    // Bob answers the first question: the reminders do not name him.
    expect(await click(app, ts, 'U0BOB', button(ts, 'hp.option.0.0'))).toBe(200);

    const reminders = await until(() => (threadReplies(ts).length >= 2 ? threadReplies(ts) : false), 10_000);
    for (const reminder of reminders) {
      expect(reminder.text).toContain(
        '<@U0ALICE>, <!subteam^S0SRE>: still waiting for your answer on *Post the notes?* It resolves',
      );
      expect(reminder.text).not.toContain('U0BOB');
      expect(reminder.text).not.toMatch(/<!(channel|here|everyone)/);
    }
    const resolved = await api(app, 'GET', `/v1/asks/${created.body.id}?wait=10`);
    expect(resolved.body.status).toBe('resolved');
    // Past the deadline: nothing more is posted in the thread.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(threadReplies(ts)).toHaveLength(2);
    const metrics = (await app.get('/metrics')).body;
    expect(metrics).toContain('holdpoint_ask_follow_ups_total{kind="reminder"} 2');
    expect(metrics).toContain('holdpoint_asks_assumed_by_policy_total{policy="recommended-or-first"} 1');
  });

  it('escalation makes its targets answerers at its time, not before, and mentions them', async () => {
    const app = await start();
    const created = await api(app, 'POST', '/v1/asks', {
      channel: 'C0OPS',
      answerers: ['U0ALICE'],
      escalation: { after: '1500ms', to: ['U0LEAD'] },
      questions: QUESTIONS,
    });
    const ts = String(created.body.ts);
    const id = String(created.body.id);
    const refusedBefore = fake.ephemerals.filter((e) => e.user === 'U0LEAD').length;
    expect(await click(app, ts, 'U0LEAD', button(ts, 'hp.option.0.1'))).toBe(200);
    await until(() => fake.ephemerals.filter((e) => e.user === 'U0LEAD').length > refusedBefore);
    expect((await api(app, 'GET', `/v1/asks/${id}`)).body.status).toBe('open');
    const escalated = await until(() => threadReplies(ts).find((reply) => reply.text.startsWith('⏫')));
    expect(escalated.text).toContain('<@U0LEAD>: *Ship 2.41?* has no answer yet, so you can answer it too.');
    await until(() => messageText(ts).includes('Who can answer: <@U0ALICE>, <@U0LEAD>'));
    expect(await click(app, ts, 'U0LEAD', button(ts, 'hp.option.0.1'))).toBe(200);
    const resolved = await api(app, 'GET', `/v1/asks/${id}?wait=10`);
    expect(resolved.body.answers).toMatchObject([{ selected: ['Hold'], answeredBy: 'U0LEAD' }]);
  });

  it('the menu snoozes the deadline for an allowed person and says who did; others are refused', async () => {
    const app = await start();
    const created = await api(app, 'POST', '/v1/asks', {
      channel: 'C0OPS',
      timeout: '10m',
      answerers: ['U0ALICE'],
      questions: QUESTIONS,
    });
    const ts = String(created.body.ts);
    const before = Date.parse(String(created.body.deadline));
    expect(await click(app, ts, 'U0MALLORY', menuChoice(ts, '+15 min'))).toBe(200);
    await until(() => fake.ephemerals.some((e) => e.user === 'U0MALLORY'));
    expect((await api(app, 'GET', `/v1/asks/${created.body.id}`)).body.deadline).toBe(created.body.deadline);

    expect(await click(app, ts, 'U0ALICE', menuChoice(ts, '+15 min'))).toBe(200);
    const after = await until(async () => {
      const view = await api(app, 'GET', `/v1/asks/${created.body.id}`);
      return view.body.deadline !== created.body.deadline ? view.body : false;
    });
    expect(Date.parse(String(after.deadline)) - before).toBe(15 * 60_000);
    await until(() => messageText(ts).includes('extended by <@U0ALICE>'));
  });

  it('"Ask someone else…" makes the picked person an answerer, mentions them, and their click counts', async () => {
    const app = await start();
    const created = await api(app, 'POST', '/v1/asks', {
      channel: 'C0OPS',
      answerers: ['U0ALICE'],
      questions: QUESTIONS,
    });
    const ts = String(created.body.ts);
    const id = String(created.body.id);
    // Before: Zoe may not answer.
    expect(await click(app, ts, 'U0ZOE', button(ts, 'hp.option.0.1'))).toBe(200);
    await until(() => fake.ephemerals.some((e) => e.user === 'U0ZOE'));
    // Someone who may not answer cannot hand the ask on either.
    const strangerNotices = fake.ephemerals.filter((e) => e.user === 'U0MALLORY').length;
    const openedBefore = fake.callsTo('views.open').length;
    expect(await click(app, ts, 'U0MALLORY', menuChoice(ts, 'Ask someone else…'))).toBe(200);
    await until(() => fake.ephemerals.filter((e) => e.user === 'U0MALLORY').length > strangerNotices);
    expect(fake.callsTo('views.open')).toHaveLength(openedBefore);
    const opened = fake.callsTo('views.open').length;
    expect(await click(app, ts, 'U0ALICE', menuChoice(ts, 'Ask someone else…'))).toBe(200);
    const view = await until(() => fake.callsTo('views.open')[opened]?.args.view as Json | undefined);
    const submitted = await app.send(
      viewSubmissionRequest(
        {
          user: 'U0ALICE',
          callbackId: 'hp.modal.delegate',
          privateMetadata: String(view.private_metadata),
          values: { 'hp.delegate': { 'hp.delegate.user': { type: 'users_select', selected_user: 'U0ZOE' } } },
        },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(submitted.status).toBe(200);
    await until(() =>
      threadReplies(ts).some((reply) => reply.text.includes('<@U0ALICE> asked <@U0ZOE> to answer')),
    );
    await until(() => messageText(ts).includes('<@U0ZOE>'));
    expect(await click(app, ts, 'U0ZOE', button(ts, 'hp.option.0.1'))).toBe(200);
    const resolved = await api(app, 'GET', `/v1/asks/${id}?wait=10`);
    expect(resolved.body.answers).toMatchObject([{ selected: ['Hold'], answeredBy: 'U0ZOE' }]);
  });

  it('a 2-of-3 quorum counts distinct people: a repeat click does not count, the second person resolves it', async () => {
    const app = await start();
    const created = await api(app, 'POST', '/v1/asks', {
      channel: 'C0OPS',
      quorum: 2,
      answerers: ['U0ALICE', 'U0BOB', 'U0CAROL'],
      questions: QUESTIONS,
    });
    const ts = String(created.body.ts);
    const id = String(created.body.id);
    expect(await click(app, ts, 'U0ALICE', button(ts, 'hp.option.0.0'))).toBe(200);
    await until(() => messageText(ts).includes('1 of 2'));
    expect(await click(app, ts, 'U0ALICE', button(ts, 'hp.option.0.0'))).toBe(200);
    await until(() =>
      fake.ephemerals.some((e) => e.user === 'U0ALICE' && e.text.includes('each person counts once')),
    );
    expect((await api(app, 'GET', `/v1/asks/${id}`)).body.status).toBe('open');
    expect(await click(app, ts, 'U0BOB', button(ts, 'hp.option.0.0'))).toBe(200);
    const view = await api(app, 'GET', `/v1/asks/${id}?wait=10`);
    expect(view.body).toMatchObject({ status: 'resolved' });
    expect(view.body.answers).toMatchObject([{ selected: ['Ship it'], answeredBy: 'U0BOB' }]);
  });

  it('after an assumed resolution, Change answer records a late answer once, shows it, returns it and sends ask.overridden once', async () => {
    const receiver = await startWebhookReceiver(SECRET, (_index, res) => res.writeHead(200).end());
    try {
      const app = await start();
      const created = await api(app, 'POST', '/v1/asks', {
        channel: 'C0OPS',
        timeout: '1s',
        answerers: ['U0ALICE'],
        callbackUrl: receiver.url,
        questions: QUESTIONS,
      });
      const ts = String(created.body.ts);
      const id = String(created.body.id);
      expect((await api(app, 'GET', `/v1/asks/${id}?wait=10`)).body.status).toBe('resolved');
      await until(() => messageText(ts).includes('hp.change.0'));
      const opened = fake.callsTo('views.open').length;
      expect(await click(app, ts, 'U0ALICE', button(ts, 'hp.change.0'))).toBe(200);
      const view = await until(() => fake.callsTo('views.open')[opened]?.args.view as Json | undefined);
      const metadata = String(view.private_metadata);
      const submit = () =>
        app.send(
          viewSubmissionRequest(
            {
              user: 'U0ALICE',
              callbackId: 'hp.modal.change',
              privateMetadata: metadata,
              values: {
                'hp.change': {
                  'hp.change.choice': { type: 'radio_buttons', selected_option: { value: '1' } },
                },
              },
            },
            { secret: TEST_SIGNING_SECRET },
          ),
        );
      const [first, second] = await Promise.all([submit(), submit()]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const changed = await until(async () => {
        const got = await api(app, 'GET', `/v1/asks/${id}`);
        return (got.body.overrides as unknown[]).length > 0 ? got.body : false;
      });
      expect(changed.overrides).toMatchObject([
        { questionIndex: 0, assumed: ['Ship it'], selected: ['Hold'], other: null, by: 'U0ALICE' },
      ]);
      const overridden = await until(() =>
        receiver.received.filter((w) => w.body.type === 'ask.overridden').at(0),
      );
      expect(overridden.valid).toBe(true);
      await until(() => messageText(ts).includes('Changed to *Hold* by <@U0ALICE>'));
      await until(() => threadReplies(ts).some((reply) => reply.text.includes('changed the assumed answer')));
      // Outside nothing more: one webhook for the change, one thread reply, no Change answer any more.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received.filter((w) => w.body.type === 'ask.overridden')).toHaveLength(1);
      expect(
        threadReplies(ts).filter((reply) => reply.text.includes('changed the assumed answer')),
      ).toHaveLength(1);
      expect(messageText(ts)).not.toContain('hp.change.0');
    } finally {
      await receiver.close();
    }
  });
});

describe("a late answer to a turn's ask on the built app", () => {
  it('the agent gets a new turn whose input says who replaced which assumed answer with what', async () => {
    replay.reset();
    replay.enqueue(
      'anthropic',
      {
        text: 'Asking first.',
        toolCalls: [
          {
            name: 'ask_question',
            input: {
              questions: [
                {
                  header: 'Deploy',
                  question: 'Ship 2.41?',
                  options: [{ label: 'Ship it', recommended: true }, { label: 'Hold' }],
                },
              ],
            },
          },
        ],
      },
      { text: 'Nobody answered, so I shipped 2.41 (assumed).' },
      { text: 'Understood: holding 2.41 from now on.' },
    );
    const app = await start({ ASK_TIMEOUT: '1s' });
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAsk(1, 15_000);
    const ts = String(ask.response.ts);
    await until(() => thread.replies().some((reply) => String(reply.args.text).includes('shipped 2.41')));
    await until(() => messageText(ts).includes('hp.change.0'));
    const opened = fake.callsTo('views.open').length;
    expect(await click(app, ts, 'U0BOB', button(ts, 'hp.change.0'))).toBe(200);
    const view = await until(() => fake.callsTo('views.open')[opened]?.args.view as Json | undefined);
    const submitted = await app.send(
      viewSubmissionRequest(
        {
          user: 'U0BOB',
          callbackId: 'hp.modal.change',
          privateMetadata: String(view.private_metadata),
          values: {
            'hp.change': { 'hp.change.choice': { type: 'radio_buttons', selected_option: { value: '1' } } },
          },
        },
        { secret: TEST_SIGNING_SECRET },
      ),
    );
    expect(submitted.status).toBe(200);
    const requests = await replay.waitForRequests(3, 20_000);
    expect(JSON.stringify(requests[2]?.body)).toContain(
      '[holdpoint] <@U0BOB> replaced the assumed answer “Ship it” with “Hold” for the question “Ship 2.41?”',
    );
    await until(() => thread.replies().some((reply) => String(reply.args.text).includes('holding 2.41')));
    expect(messageText(ts)).toContain('Changed to *Hold* by <@U0BOB>; the agent was told');
  });
});

describe('a reminder whose worker is SIGKILLed while Slack is still taking the post', () => {
  it('appears in the thread exactly once, finished by another worker', async () => {
    // A Slack that takes 1.5 s for every post: the kill lands after the claim, during the post.
    const slow = await startFakeSlack({ latencyMs: (method) => (method === 'chat.postMessage' ? 1500 : 0) });
    const apps: ProductionApp[] = [];
    const launch = async (role: 'web' | 'worker') => {
      const started = await startProductionApp(
        productionEnv({
          fake: slow,
          replay,
          redisUrl: redis.url,
          port: await freePort(),
          model: 'anthropic',
          env: { ROLE: role, API_TOKENS: `release:${TOKEN}`, ASK_REMINDERS: '1s' },
        }),
      );
      apps.push(started);
      return started;
    };
    try {
      const web = await launch('web');
      const first = await launch('worker');
      const response = await fetch(`${web.baseUrl}/v1/asks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'C0OPS', timeout: '1m', questions: QUESTIONS }),
      });
      const created = (await response.json()) as Json;
      const ts = String(created.ts);
      const postsBefore = slow.callsTo('chat.postMessage').length;
      // The reminder is due 1 s after shown; once its post is in flight at Slack, kill the worker.
      await until(
        () => slow.inFlight() > 0 && Date.now() - Date.parse(String(created.deadline)) > -59_000,
        10_000,
      );
      expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
      // Killed between the claim and a confirmed post: the point is claimed, not done.
      const client = new Redis(redis.url);
      try {
        const [key] = await client.keys(`*ask:${String(created.id)}`);
        expect(await client.hget(key ?? '', 'nudged')).toBe(',r0,');
      } finally {
        client.disconnect();
      }
      await launch('worker');
      const replies = () => slow.messagesIn('C0OPS', ts).filter((message) => message.ts !== ts);
      await until(() => replies().length > 0, 20_000);
      // Give a second post every chance to appear (the new worker waits for the first poster, then looks in the thread).
      await new Promise((resolve) => setTimeout(resolve, 7000));
      expect(replies()).toHaveLength(1);
      expect(replies()[0]?.text).toContain('Still waiting for an answer on');
      expect(slow.callsTo('chat.postMessage').length - postsBefore).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(apps.map((started) => started.stop('SIGKILL')));
      await slow.close();
    }
  }, 60_000);
});
