/**
 * The ask API on the built app (`node dist/src/main.js`, separate web and worker processes, fake Slack,
 * real Redis and BullMQ): ask -> click -> long-poll; a long-poll on a web process that is SIGKILLed returns
 * the result on re-poll against its restart; a worker SIGKILLed in the middle of a webhook delivery leaves
 * the delivery to the next worker, with the same delivery id, and it is not sent again after its 2xx.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { blockActionRequest, buttonActionFromBlocks } from '../support/slack-payloads.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';

const TOKEN = 'p'.repeat(40);
const SECRET = 's'.repeat(40);
const QUESTIONS = [{ header: 'Deploy', question: 'Ship 2.41?', options: ['Ship it (Recommended)', 'Hold'] }];

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

async function start(role: 'web' | 'worker' | 'all', port?: number): Promise<ProductionApp> {
  const app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port: port ?? (await freePort()),
      model: 'anthropic',
      env: { ROLE: role, API_TOKENS: `release:${TOKEN}`, WEBHOOK_SECRET: SECRET },
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
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function clickAsk(app: ProductionApp, ts: string, actionId: string): Promise<number> {
  const blocks = fake.message('C0OPS', ts)?.blocks;
  const request = blockActionRequest(
    {
      user: 'U0BOB',
      channel: 'C0OPS',
      actions: [buttonActionFromBlocks(blocks, actionId)],
      message: { ts, blocks },
    },
    { secret: TEST_SIGNING_SECRET },
  );
  return (await app.send(request)).status;
}

describe('the ask API on the built app', () => {
  it('ask -> click -> the long-poll returns the answer; a SIGKILLed web process is re-polled after its restart', async () => {
    const port = await freePort();
    const web = await start('web', port);
    await start('worker');
    const created = await api(web, 'POST', '/v1/asks', { channel: 'C0OPS', questions: QUESTIONS });
    expect(created.status).toBe(201);
    const id = String(created.body.id);

    const lost = fetch(`${web.baseUrl}/v1/asks/${id}?wait=30`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then(
      () => 'answered',
      () => 'connection lost',
    );
    await web.stop('SIGKILL');
    expect(await lost).toBe('connection lost');

    const again = await start('web', port);
    const polled = api(again, 'GET', `/v1/asks/${id}?wait=30`);
    expect(await clickAsk(again, String(created.body.ts), 'hp.option.0.1')).toBe(200);
    const result = await polled;
    expect(result.body).toMatchObject({ id, status: 'resolved' });
    expect(result.body.answers).toMatchObject([
      { status: 'answered', selected: ['Hold'], answeredBy: 'U0BOB' },
    ]);
  });

  it('SIGTERM while a long-poll waits: the process exits 0 at once instead of waiting for it', async () => {
    const app = await start('all');
    const created = await api(app, 'POST', '/v1/asks', { channel: 'C0OPS', questions: QUESTIONS });
    const polling = fetch(`${app.baseUrl}/v1/asks/${String(created.body.id)}?wait=60`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then(
      () => 'returned',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const exit = await app.stop('SIGTERM', 20_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(['returned', 'cut']).toContain(await polling);
  });

  it('a worker SIGKILLed mid-delivery: the next worker delivers the webhook, same delivery id, once after its 2xx', async () => {
    let hang: ServerResponse | null = null;
    // The first delivery never gets an answer: its worker is killed while it waits.
    const receiver = await startWebhookReceiver(SECRET, (index, res) => {
      if (index === 0) hang = res;
      else res.writeHead(200).end();
    });
    const received = receiver.received;
    try {
      const web = await start('web');
      const firstWorker = await start('worker');
      const callbackUrl = receiver.url;
      const created = await api(web, 'POST', '/v1/asks', {
        channel: 'C0OPS',
        questions: QUESTIONS,
        callbackUrl,
      });
      expect(created.status).toBe(201);
      expect(await clickAsk(web, String(created.body.ts), 'hp.option.0.0')).toBe(200);
      const started = Date.now();
      while (received.length === 0) {
        if (Date.now() - started > 15_000) throw new Error('no webhook delivery started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await firstWorker.stop('SIGKILL');
      (hang as ServerResponse | null)?.destroy();
      await start('worker');
      while (received.length < 2) {
        if (Date.now() - started > 30_000)
          throw new Error(`the webhook was not delivered again: ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Nothing more comes after the 2xx: wait past a retry delay (5 s) and look again.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(received).toHaveLength(2);
      expect(new Set(received.map((r) => r.delivery))).toEqual(
        new Set([`ask-resolved-${String(created.body.id)}`]),
      );
      expect(received.every((r) => r.valid)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
