/**
 * Follow-up races on the built app (`node dist/src/main.js`, fake Slack, real Redis and BullMQ), through the
 * ask API and signed Slack clicks:
 * - 200 asks whose snooze ("+15 min") is clicked at their deadline, as the timeout job fires: each ends in
 *   exactly one outcome (extended, or resolved by the timeout with the clicker told it was too late), counted;
 * - 100 asks with a 2-of-3 quorum clicked by A, A, B and C at once: each resolves once, agreed by two
 *   distinct people, and A's second click never counts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { blockActionRequest, buttonActionFromBlocks } from '../support/slack-payloads.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';

const TOKEN = 'r'.repeat(40);
const QUESTIONS = [{ header: 'Deploy', question: 'Ship 2.41?', options: ['Ship it (Recommended)', 'Hold'] }];
type Json = Record<string, unknown>;

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let app: ProductionApp | undefined;

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
});
afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});
afterEach(async () => {
  await app?.stop('SIGKILL');
  app = undefined;
});

async function start(): Promise<ProductionApp> {
  app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port: await freePort(),
      model: 'anthropic',
      env: { ROLE: 'all', API_TOKENS: `races:${TOKEN}`, API_RATE_LIMIT: '100000' },
    }),
  );
  return app;
}

async function api(target: ProductionApp, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

function send(target: ProductionApp, ts: string, user: string, action: Json) {
  const blocks = fake.message('C0OPS', ts)?.blocks;
  return target.send(
    blockActionRequest(
      { user, channel: 'C0OPS', actions: [action], message: { ts, blocks } },
      { secret: TEST_SIGNING_SECRET },
    ),
  );
}

function snoozeAction(ts: string): Json {
  for (const block of (fake.message('C0OPS', ts)?.blocks ?? []) as Json[]) {
    // The menu sits beside the first question (a section accessory).
    const elements = [
      ...((block.elements ?? []) as Json[]),
      ...(block.accessory ? [block.accessory as Json] : []),
    ];
    for (const element of elements) {
      if (element.type !== 'overflow') continue;
      const option = (element.options as Json[]).find((o) => (o.text as Json).text === '+15 min');
      if (option)
        return { type: 'overflow', action_id: 'hp.more', block_id: block.block_id, selected_option: option };
    }
  }
  throw new Error('no snooze in the menu');
}

async function until<T>(check: () => Promise<T | false>, ms: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== false) return value;
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('follow-up races on the built app', () => {
  it('200 snoozes clicked at the deadline: one outcome each, counted', async () => {
    const target = await start();
    const asks: Array<{ id: string; ts: string; deadline: number }> = [];
    for (let batch = 0; batch < 200; batch += 20) {
      const created = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(target, 'POST', '/v1/asks', {
            channel: 'C0OPS',
            timeout: '3s',
            answerers: ['U0ALICE'],
            questions: QUESTIONS,
          }),
        ),
      );
      for (const { status, body } of created) {
        expect(status).toBe(201);
        asks.push({ id: String(body.id), ts: String(body.ts), deadline: Date.parse(String(body.deadline)) });
      }
    }
    // Each snooze is sent to land at its ask's deadline, give or take a few ms (the timeout job fires then).
    const clicks = asks.map(async (ask, index) => {
      const action = snoozeAction(ask.ts);
      const at = ask.deadline - 30 + (index % 30);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      expect((await send(target, ask.ts, 'U0ALICE', action)).status).toBe(200);
    });
    await Promise.all(clicks);
    const counts = { extended: 0, timedOut: 0 };
    for (const ask of asks) {
      const view = await until(async () => {
        const got = (await api(target, 'GET', `/v1/asks/${ask.id}`)).body;
        const moved = Date.parse(String(got.deadline)) !== ask.deadline;
        return got.status === 'resolved' || moved ? got : false;
      }, 15_000);
      if (view.status === 'resolved') {
        counts.timedOut++;
        expect(Date.parse(String(view.deadline))).toBe(ask.deadline);
        expect(view.answers).toMatchObject([{ status: 'assumed', selected: ['Ship it'] }]);
      } else {
        counts.extended++;
        expect(view.status).toBe('open');
        expect(Date.parse(String(view.deadline)) - ask.deadline).toBe(15 * 60_000);
      }
    }
    // Every click that lost was told so; none that won was.
    await until(
      async () =>
        fake.ephemerals.filter((e) => e.text.startsWith('Too late to extend')).length >= counts.timedOut ||
        false,
      10_000,
    );
    expect(fake.ephemerals.filter((e) => e.text.startsWith('Too late to extend'))).toHaveLength(
      counts.timedOut,
    );
    expect(counts.extended + counts.timedOut).toBe(200);
    console.info(
      `built app, 200 snoozes at the deadline: extended ${counts.extended}, timed out ${counts.timedOut}`,
    );
  }, 60_000);

  it('100 asks with a 2-of-3 quorum, clicked by A, A, B and C at once: each resolves once, by two distinct people', async () => {
    const target = await start();
    for (let race = 0; race < 100; race++) {
      const { body } = await api(target, 'POST', '/v1/asks', {
        channel: 'C0OPS',
        quorum: 2,
        answerers: ['U0ALICE', 'U0BOB', 'U0CAROL'],
        questions: QUESTIONS,
      });
      const ts = String(body.ts);
      const action = buttonActionFromBlocks(fake.message('C0OPS', ts)?.blocks, 'hp.option.0.0');
      const statuses = await Promise.all(
        ['U0ALICE', 'U0ALICE', 'U0BOB', 'U0CAROL'].map((user) => send(target, ts, user, action)),
      );
      expect(statuses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      const view = (await api(target, 'GET', `/v1/asks/${body.id}?wait=10`)).body;
      expect(view.status).toBe('resolved');
      const [answer] = view.answers as Array<{ voters?: string[]; answeredBy: string }>;
      expect(answer?.voters).toHaveLength(2);
      expect(new Set(answer?.voters).size).toBe(2);
      expect(answer?.answeredBy).toBe(answer?.voters?.[1]);
    }
  }, 120_000);
});
