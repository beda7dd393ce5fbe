/**
 * The ask API on the built app (`node dist/src/main.js`, separate web and worker processes, fake Slack,
 * real Redis and BullMQ): ask -> click -> long-poll; a long-poll on a web process that is SIGKILLed returns
 * the result on re-poll against its restart; a worker SIGKILLed in the middle of a webhook delivery leaves
 * the delivery to the next worker, with the same delivery id, and it is not sent again after its 2xx;
 * timeout -> assumed; cancel; an idempotent create posts once; a webhook refused with a 500 is retried and
 * arrives signed; refused requests leave Redis and Slack as they were.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
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

async function api(
  app: ProductionApp,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** Posts that Slack accepted. */
function posts(): number {
  return fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true).length;
}

/**
 * Every key in the test's Redis with its value's digest (`DUMP`), for "nothing was stored" checks; keys
 * with a TTL are listed apart (one may expire between two snapshots: that is not a write).
 */
async function redisState(): Promise<{ keys: Map<string, string>; expiring: Set<string> }> {
  const client = new Redis(redis.url);
  try {
    const keys = new Map<string, string>();
    const expiring = new Set<string>();
    for (const key of await client.keys('*')) {
      const [dump, ttl] = await Promise.all([client.dumpBuffer(key), client.pttl(key)]);
      if (dump === null) continue;
      keys.set(key, createHash('sha256').update(dump).digest('hex'));
      if (ttl > 0) expiring.add(key);
    }
    return { keys, expiring };
  } finally {
    client.disconnect();
  }
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

  it('timeout -> assumed (the long-poll returns it); cancel -> 200 then 409', async () => {
    const web = await start('web');
    await start('worker');
    const timed = await api(web, 'POST', '/v1/asks', { channel: 'C0OPS', questions: QUESTIONS, timeout: 1 });
    expect(timed.status).toBe(201);
    const assumed = await api(web, 'GET', `/v1/asks/${String(timed.body.id)}?wait=60`);
    expect(assumed.body).toMatchObject({ status: 'resolved' });
    expect(assumed.body.answers).toMatchObject([
      { status: 'assumed', selected: ['Ship it'], source: 'timeout' },
    ]);

    const open = await api(web, 'POST', '/v1/asks', { channel: 'C0OPS', questions: QUESTIONS });
    const id = String(open.body.id);
    const waiting = api(web, 'GET', `/v1/asks/${id}?wait=60`);
    const canceled = await api(web, 'DELETE', `/v1/asks/${id}`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id, status: 'canceled' });
    expect((await waiting).body).toMatchObject({ id, status: 'canceled' });
    const again = await api(web, 'DELETE', `/v1/asks/${id}`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'already_canceled' });
  }, 30_000);

  it('the same Idempotency-Key, also sent at once from two clients: one ask, one post', async () => {
    const web = await start('web');
    const before = posts();
    const headers = { 'idempotency-key': `release-${Date.now()}` };
    const body = { channel: 'C0OPS', questions: QUESTIONS };
    const [a, b] = await Promise.all([
      api(web, 'POST', '/v1/asks', body, headers),
      api(web, 'POST', '/v1/asks', body, headers),
    ]);
    const c = await api(web, 'POST', '/v1/asks', body, headers);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(c.status).toBe(200);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    expect(c.body).toMatchObject({ ts: a.body.ts, channel: 'C0OPS' });
    expect(posts() - before).toBe(1);
  });

  it('a webhook answered with a 500 is retried and delivered once, signed', async () => {
    const statuses: number[] = [];
    const receiver = await startWebhookReceiver(SECRET, (index, res) => {
      statuses.push(index === 0 ? 500 : 204);
      res.writeHead(index === 0 ? 500 : 204).end();
    });
    try {
      const web = await start('web');
      await start('worker');
      const created = await api(web, 'POST', '/v1/asks', {
        channel: 'C0OPS',
        questions: QUESTIONS,
        callbackUrl: receiver.url,
      });
      expect(await clickAsk(web, String(created.body.ts), 'hp.option.0.0')).toBe(200);
      const started = Date.now();
      while (!statuses.includes(204)) {
        if (Date.now() - started > 30_000) throw new Error(`no delivery after the 500: ${statuses}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Past the next retry delay (5 s, doubled): nothing more arrives after the 2xx.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(statuses).toEqual([500, 204]);
      expect(receiver.received.every((r) => r.valid)).toBe(true);
      expect(new Set(receiver.received.map((r) => r.delivery)).size).toBe(1);
      expect(receiver.received[1]?.body).toMatchObject({
        type: 'ask.resolved',
        ask: { id: created.body.id, status: 'resolved', answers: [{ selected: ['Ship it'] }] },
      });
    } finally {
      await receiver.close();
    }
  }, 45_000);

  it('unauthorized, wrong-token, oversized, malformed and invalid asks: their status, nothing stored or posted', async () => {
    const web = await start('web');
    const before = await redisState();
    const postsBefore = posts();
    const raw = async (headers: Record<string, string>, body: string) => {
      const response = await fetch(`${web.baseUrl}/v1/asks`, { method: 'POST', headers, body });
      const text = await response.text();
      return {
        status: response.status,
        code: text ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : '',
      };
    };
    const json = { 'content-type': 'application/json' };
    const good = JSON.stringify({ channel: 'C0OPS', questions: QUESTIONS });
    const cases: Array<[string, Record<string, string>, string, number, string]> = [
      ['no token', json, good, 401, 'unauthorized'],
      ['wrong token', { ...json, authorization: `Bearer ${'x'.repeat(40)}` }, good, 401, 'unauthorized'],
      ['a token of another scheme', { ...json, authorization: `Basic ${TOKEN}` }, good, 401, 'unauthorized'],
    ];
    for (const [name, headers, body, status, code] of cases)
      expect([name, await raw(headers, body)]).toEqual([name, { status, code }]);
    // Unauthorized requests write nothing at all, not even a rate counter.
    const unchanged = await redisState();
    expect([...unchanged.keys.keys()].filter((key) => !before.keys.has(key))).toEqual([]);
    expect(
      [...before.keys.keys()].filter((key) =>
        unchanged.keys.has(key)
          ? unchanged.keys.get(key) !== before.keys.get(key)
          : !before.expiring.has(key),
      ),
    ).toEqual([]);

    const auth = { ...json, authorization: `Bearer ${TOKEN}` };
    const five = [{ ...QUESTIONS[0], options: ['A', 'B', 'C', 'D', 'E'] }];
    const authorized: Array<[string, Record<string, string>, string, number, string]> = [
      ['over 64 KB', auth, JSON.stringify({ pad: 'x'.repeat(70_000) }), 413, 'too_large'],
      ['not JSON', { ...auth, 'content-type': 'text/plain' }, good, 415, 'unsupported_media_type'],
      ['malformed JSON', auth, '{"channel":', 400, 'invalid_json'],
      ['a JSON array', auth, '[1,2]', 400, 'invalid_request'],
      ['an invalid ask', auth, JSON.stringify({ channel: 'C0OPS', questions: five }), 400, 'invalid_ask'],
      [
        'a bad channel',
        auth,
        JSON.stringify({ channel: '#ops', questions: QUESTIONS }),
        400,
        'invalid_request',
      ],
    ];
    for (const [name, headers, body, status, code] of authorized)
      expect([name, await raw(headers, body)]).toEqual([name, { status, code }]);
    const after = await redisState();
    const added = [...after.keys.keys()].filter((key) => !before.keys.has(key));
    expect(added.filter((key) => !key.includes(':api:rate:'))).toEqual([]);
    // Only the token's rate counter (which may be an earlier test's, in the same minute) was written.
    const changed = [...before.keys.keys()].filter(
      (key) =>
        !key.includes(':api:rate:') &&
        (after.keys.has(key) ? after.keys.get(key) !== before.keys.get(key) : !before.expiring.has(key)),
    );
    expect(changed).toEqual([]);
    expect(posts()).toBe(postsBefore);
  });
});
