/**
 * The ask API end to end (real runtime: HTTP server, Bolt receiver, BullMQ worker, Redis; fake Slack): a
 * script opens an ask, a person answers it with a signed click, and the script's long-poll returns the
 * answer; timeouts, cancels, idempotent creates, and every refusal with nothing stored or posted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';
import { clickMessageRequest, type SlackHarness, startSlackHarness } from '../support/slack-harness.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const DEPLOY = `deploy-script:${'d'.repeat(40)}`;
const OTHER = `other-bot:${'o'.repeat(40)}`;
const DEPLOY_TOKEN = 'd'.repeat(40);
const OTHER_TOKEN = 'o'.repeat(40);

const QUESTIONS = [
  {
    header: 'Deploy',
    question: 'Ship payments-api v2.41 to production?',
    options: [{ label: 'Ship it (Recommended)' }, { label: 'Hold' }],
  },
];

let harness: SlackHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(env: Record<string, string> = {}): Promise<SlackHarness> {
  harness = await startSlackHarness({
    redisUrl: testRedisUrl(),
    model: scriptedModel(() => ({ text: 'unused' })),
    env: { API_TOKENS: `${DEPLOY},${OTHER}`, ...env },
    // Only the resolution's announcement can return a waiting call within the test.
    tuning: { askPollIntervalMs: 600_000 },
  });
  return harness;
}

interface Call {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  h: SlackHarness,
  method: string,
  path: string,
  options: {
    token?: string | null;
    body?: unknown;
    raw?: string;
    type?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Call> {
  const token = options.token === undefined ? DEPLOY_TOKEN : options.token;
  const response = await fetch(`${h.baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.body !== undefined || options.raw !== undefined
        ? { 'content-type': options.type ?? 'application/json' }
        : {}),
      ...options.headers,
    },
    ...(options.raw !== undefined
      ? { body: options.raw }
      : options.body !== undefined
        ? { body: JSON.stringify(options.body) }
        : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Every key the harness's store and API wrote (the queue's keys live under another prefix). */
async function storedKeys(h: SlackHarness): Promise<string[]> {
  return (await h.redis.keys(`${h.storePrefix}:*`)).sort();
}

describe('the ask API', () => {
  it('a script asks, a person clicks, and the long-poll returns the answer', async () => {
    const h = await start();
    const created = await call(h, 'POST', '/v1/asks', {
      body: {
        channel: 'C0OPS',
        questions: QUESTIONS,
        metadata: { build: 4242 },
        text: 'Release <!here> 2.41',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'open',
      channel: 'C0OPS',
      metadata: { build: 4242 },
      answers: [],
    });
    const id = String(created.body.id);
    const ts = String(created.body.ts);
    expect(Date.parse(String(created.body.deadline))).toBeGreaterThan(Date.now());
    const posted = h.fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.args.thread_ts).toBeUndefined();
    const postedBlocks = JSON.stringify(posted[0]?.args.blocks);
    expect(postedBlocks).toContain('Release &lt;!here&gt; 2.41');
    expect(postedBlocks).not.toContain('hp.cancel');

    const polled = call(h, 'GET', `/v1/asks/${id}?wait=60`);
    expect((await h.send(clickMessageRequest(h, 'C0OPS', ts, 'U0BOB', 'hp.option.0.1'))).status).toBe(200);
    const answered = await polled;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id, status: 'resolved', metadata: { build: 4242 } });
    expect(answered.body.answers).toMatchObject([
      { status: 'answered', selected: ['Hold'], answeredBy: 'U0BOB', source: 'button' },
    ]);
    await waitFor(async () => h.fake.callsTo('chat.update').length === 1, 5000, 'the message update');
    // No turn was started or resumed for it.
    expect(await h.queue.getJobCounts('wait', 'active', 'delayed')).toMatchObject({ wait: 0, active: 0 });
  }, 15_000);

  it('nobody answers: the ask resolves by its policy and the long-poll says it was assumed', async () => {
    const h = await start();
    const created = await call(h, 'POST', '/v1/asks', {
      body: { channel: 'C0OPS', questions: QUESTIONS, timeout: '1s' },
    });
    expect(created.status).toBe(201);
    // The long-poll waits up to 60 s, past this test's timeout: only the timeout's announcement returns it.
    const resolved = await call(h, 'GET', `/v1/asks/${String(created.body.id)}?wait=60`);
    expect(resolved.body).toMatchObject({ status: 'resolved' });
    expect(resolved.body.answers).toMatchObject([
      { status: 'assumed', selected: ['Ship it'], source: 'timeout' },
    ]);
  }, 15_000);

  it('cancel: 200 with the record, then 409; another token sees nothing (404)', async () => {
    const h = await start();
    const created = await call(h, 'POST', '/v1/asks', { body: { user: 'U0CAROL', questions: QUESTIONS } });
    expect(created.status).toBe(201);
    expect(created.body.channel).toBe('D0CAROL');
    const id = String(created.body.id);
    expect((await call(h, 'GET', `/v1/asks/${id}`, { token: OTHER_TOKEN })).status).toBe(404);
    expect((await call(h, 'DELETE', `/v1/asks/${id}`, { token: OTHER_TOKEN })).status).toBe(404);
    const canceled = await call(h, 'DELETE', `/v1/asks/${id}`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id, status: 'canceled' });
    expect((await call(h, 'DELETE', `/v1/asks/${id}`)).status).toBe(409);
    // The message shows the cancel (no live buttons), and the cancel is counted.
    const update = await h.fake.waitForCall('chat.update', undefined, 5000);
    expect(JSON.stringify(update.args.blocks)).not.toContain('hp.option');
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/holdpoint_asks_canceled_total 1/);
    expect((await call(h, 'GET', `/v1/asks/${id}`)).body).toMatchObject({ status: 'canceled' });
  });

  it('the same Idempotency-Key gives the same ask back, posted once', async () => {
    const h = await start();
    const request = {
      body: { channel: 'C0OPS', questions: QUESTIONS },
      headers: { 'idempotency-key': 'release-4242' },
    };
    const [first, second] = await Promise.all([
      call(h, 'POST', '/v1/asks', request),
      call(h, 'POST', '/v1/asks', request),
    ]);
    const third = await call(h, 'POST', '/v1/asks', request);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(third.status).toBe(200);
    expect(new Set([first.body.id, second.body.id, third.body.id]).size).toBe(1);
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true)).toHaveLength(1);
    // The same key with another body is a mistake, not a repeat: 422, nothing posted.
    const reused = await call(h, 'POST', '/v1/asks', {
      ...request,
      body: { channel: 'C0OTHER', questions: QUESTIONS },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ code: 'idempotency_key_reused' });
    // Key order alone does not make another body.
    const reordered = await call(h, 'POST', '/v1/asks', {
      ...request,
      body: { questions: QUESTIONS, channel: 'C0OPS' },
    });
    expect(reordered.status).toBe(200);
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true)).toHaveLength(1);
    // Another token's same key is its own ask.
    const other = await call(h, 'POST', '/v1/asks', { ...request, token: OTHER_TOKEN });
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('Slack refuses the post: 502, and a retry with the same Idempotency-Key asks again (posted once)', async () => {
    const h = await start();
    // Every try to show it (SHOW_ATTEMPTS, 3) is refused.
    for (let n = 0; n < 3; n++) h.fake.failNext('chat.postMessage', { error: 'not_in_channel' });
    const request = {
      body: { channel: 'C0OPS', questions: QUESTIONS },
      headers: { 'idempotency-key': 'release-4243' },
    };
    const failed = await call(h, 'POST', '/v1/asks', request);
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'not_shown' });
    // Each refusal gave its post mark up, so no try waited for a poster that did not exist, or searched
    // the channel for its message.
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(3);
    expect(h.fake.callsTo('conversations.history')).toHaveLength(0);
    const retried = await call(h, 'POST', '/v1/asks', request);
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ status: 'open', channel: 'C0OPS' });
    const again = await call(h, 'POST', '/v1/asks', request);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(retried.body.id);
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true)).toHaveLength(1);
  });

  it("Slack's own refusals say why: an unknown user, an unknown user group, a channel the bot is not in", async () => {
    const h = await start();
    h.fake.failNext('conversations.open', { error: 'user_not_found' });
    const user = await call(h, 'POST', '/v1/asks', { body: { user: 'U0NOPE', questions: QUESTIONS } });
    expect([user.status, user.body.error]).toEqual([
      400,
      {
        code: 'invalid_request',
        message: 'user: Slack could not open a DM with U0NOPE (user_not_found)',
        path: 'user',
      },
    ]);
    const group = await call(h, 'POST', '/v1/asks', {
      body: { channel: 'C0OPS', questions: QUESTIONS, answerers: ['S0NOPE'] },
    });
    expect(group.status).toBe(400);
    expect(group.body.error).toMatchObject({ path: 'answerers' });
    expect(String((group.body.error as { message: string }).message)).toContain('S0NOPE is not a user group');
    for (let n = 0; n < 3; n++) h.fake.failNext('chat.postMessage', { error: 'not_in_channel' });
    const refused = await call(h, 'POST', '/v1/asks', { body: { channel: 'C0OPS', questions: QUESTIONS } });
    expect(refused.status).toBe(502);
    expect(String((refused.body.error as { message: string }).message)).toContain('(not_in_channel)');
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true)).toHaveLength(0);
  });

  it('refused requests get their status, and nothing is stored or posted', async () => {
    const h = await start();
    const before = await storedKeys(h);
    const cases: Array<[string, Promise<Call>, number, string]> = [
      [
        'no token',
        call(h, 'POST', '/v1/asks', { token: null, body: { channel: 'C0OPS', questions: QUESTIONS } }),
        401,
        'unauthorized',
      ],
      [
        'wrong token',
        call(h, 'POST', '/v1/asks', {
          token: 'x'.repeat(40),
          body: { channel: 'C0OPS', questions: QUESTIONS },
        }),
        401,
        'unauthorized',
      ],
      [
        'not JSON',
        call(h, 'POST', '/v1/asks', { raw: 'channel=C0OPS', type: 'application/x-www-form-urlencoded' }),
        415,
        'unsupported_media_type',
      ],
      [
        'over 64 KB',
        call(h, 'POST', '/v1/asks', { raw: JSON.stringify({ pad: 'x'.repeat(70_000) }) }),
        413,
        'too_large',
      ],
      ['malformed JSON', call(h, 'POST', '/v1/asks', { raw: '{"channel":' }), 400, 'invalid_json'],
      [
        'no channel or user',
        call(h, 'POST', '/v1/asks', { body: { questions: QUESTIONS } }),
        400,
        'invalid_request',
      ],
      [
        'a field it does not know',
        call(h, 'POST', '/v1/asks', {
          body: { channel: 'C0OPS', questions: QUESTIONS, callbackUrl: 'https://x' },
        }),
        400,
        'invalid_request',
      ],
      [
        'a bad timeout',
        call(h, 'POST', '/v1/asks', { body: { channel: 'C0OPS', questions: QUESTIONS, timeout: 'soon' } }),
        400,
        'invalid_request',
      ],
      [
        'metadata over 4 KB',
        call(h, 'POST', '/v1/asks', {
          body: { channel: 'C0OPS', questions: QUESTIONS, metadata: { x: 'y'.repeat(5000) } },
        }),
        400,
        'invalid_request',
      ],
      ['an unknown ask', call(h, 'GET', '/v1/asks/nope'), 404, 'not_found'],
      ['PUT on an ask', call(h, 'PUT', '/v1/asks/nope'), 405, 'method_not_allowed'],
      ['GET on the collection', call(h, 'GET', '/v1/asks'), 405, 'method_not_allowed'],
      [
        'metadata nested too deep to serialize',
        call(h, 'POST', '/v1/asks', {
          raw: `{"channel":"C0OPS","questions":[{"question":"Q?","options":["A","B"]}],"metadata":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
        }),
        400,
        'invalid_request',
      ],
    ];
    for (const [name, pending, status, code] of cases) {
      const result = await pending;
      expect([name, result.status, (result.body.error as { code?: string } | undefined)?.code]).toEqual([
        name,
        status,
        code,
      ]);
    }
    // An invalid ask: the model's own error text for the same arguments, with the path.
    const five = QUESTIONS.map((q) => ({ ...q, options: ['A', 'B', 'C', 'D', 'E'] }));
    const invalid = await call(h, 'POST', '/v1/asks', { body: { channel: 'C0OPS', questions: five } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'invalid_ask', path: 'questions[0].options' });
    expect(String((invalid.body.error as { message: string }).message)).toContain(
      'ask_question was not called correctly',
    );
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    // Only the rate counters of the two known tokens were written.
    const after = (await storedKeys(h)).filter((key) => !before.includes(key));
    expect(after.every((key) => key.includes(':api:rate:'))).toBe(true);
  });

  it('over the per-token rate: 429 with Retry-After, other tokens unaffected', async () => {
    const h = await start();
    let limited: Call | undefined;
    // The limit counts per fixed minute: 250 requests reach it even when they straddle a minute boundary.
    for (let n = 0; n < 250 && !limited; n++) {
      const result = await call(h, 'GET', '/v1/asks/nope');
      if (result.status === 429) limited = result;
    }
    expect(limited?.body.error).toMatchObject({ code: 'rate_limited' });
    expect((await call(h, 'GET', '/v1/asks/nope', { token: OTHER_TOKEN })).status).toBe(404);
  });

  it('without API_TOKENS the API is off: 404', async () => {
    harness = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: scriptedModel(() => ({ text: 'unused' })),
    });
    const response = await fetch(`${harness.baseUrl}/v1/asks`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
  });

  it('a callbackUrl gets one signed ask.resolved webhook: retried after a 500, delivered once, one delivery id', async () => {
    const secret = 'w'.repeat(40);
    const statuses: number[] = [];
    const receiver = await startWebhookReceiver(secret, (index, res) => {
      statuses.push(index === 0 ? 500 : 200);
      res.writeHead(index === 0 ? 500 : 200).end();
    });
    const received = receiver.received;
    try {
      const callbackUrl = receiver.url;
      const h = await start({ WEBHOOK_SECRET: secret });
      const created = await call(h, 'POST', '/v1/asks', {
        body: { channel: 'C0OPS', questions: QUESTIONS, callbackUrl, timeout: '1s' },
      });
      expect(created.status).toBe(201);
      await waitFor(async () => statuses.includes(200), 30_000, 'a delivered webhook');
      await waitFor(
        async () => (await h.queue.getJobCounts('wait', 'active', 'delayed')).delayed === 0,
        10_000,
        'no retry pending',
      );
      expect(statuses).toEqual([500, 200]);
      // The failed try is counted where on-call looks.
      const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/holdpoint_job_failures_total\{queue="[^"]+",name="webhook"\} 1/);
      expect(new Set(received.map((r) => r.delivery))).toEqual(
        new Set([`ask-resolved-${String(created.body.id)}`]),
      );
      expect(received.every((r) => r.valid)).toBe(true);
      expect(received[1]?.body).toMatchObject({
        type: 'ask.resolved',
        ask: { id: created.body.id, status: 'resolved' },
      });
    } finally {
      await receiver.close();
    }
  });

  it('a worker without WEBHOOK_SECRET hands a due webhook back for one that has it, instead of failing it', async () => {
    const h = await start();
    const job = await h.queue.add(
      'webhook',
      { scope: 'ask-x', askId: 'x' },
      { jobId: 'webhook-x', attempts: 15, backoff: { type: 'exponential', delay: 5000 } },
    );
    await waitFor(async () => (await job.getState()) === 'delayed', 10_000, 'the job handed back');
    const after = await h.queue.getJob('webhook-x');
    expect(after?.attemptsMade).toBe(0);
    expect(await h.queue.getJobCounts('failed')).toMatchObject({ failed: 0 });
  });

  it('a callbackUrl without WEBHOOK_SECRET is refused with nothing posted', async () => {
    const h = await start();
    const refused = await call(h, 'POST', '/v1/asks', {
      body: { channel: 'C0OPS', questions: QUESTIONS, callbackUrl: 'https://example.test/hook' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ path: 'callbackUrl' });
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });
});
