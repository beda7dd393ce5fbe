/**
 * The built app survives what production does to it, on replayed Anthropic traffic (streamed: the
 * engine calls `streamText`): SIGKILL while an ask is open, a Redis restart (compose flags: append-only
 * file, so the paused turn survives) while an ask is open, and SIGTERM during a running turn. Each ends
 * with exactly one reply and every model request passes the pairing rule (C27).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAskResultJson } from '../../src/ask/format-ask-result.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { checkToolPairing } from '../support/model-replay/pairing.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';
import { trailingToolResults } from './support/wire.js';

let redisDir: string;
let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
const running: ProductionApp[] = [];

beforeAll(async () => {
  redisDir = mkdtempSync(join(tmpdir(), 'holdpoint-e2e-redis-'));
  [redis, fake, replay] = await Promise.all([
    startComposeRedis({ dir: redisDir }),
    startFakeSlack(),
    startModelReplay(),
  ]);
});

afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
  rmSync(redisDir, { recursive: true, force: true });
});

beforeEach(() => replay.reset());
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop('SIGKILL')));
});

async function start(env: Record<string, string> = {}): Promise<ProductionApp> {
  const app = await startProductionApp(
    productionEnv({ fake, replay, redisUrl: redis.url, port: await freePort(), model: 'anthropic', env }),
  );
  running.push(app);
  return app;
}

function expectPairing(): void {
  for (const request of replay.requests) {
    expect(checkToolPairing(request.provider, request.body), request.served).toEqual([]);
  }
}

function answersOf(body: unknown) {
  const [result] = trailingToolResults('anthropic', body);
  return parseAskResultJson(result?.text ?? '')?.answers;
}

describe('production crash and restart', () => {
  it('SIGKILL while an ask is open, start again: the click resumes the turn, one reply', async () => {
    replay.enqueue('anthropic', 'a-text-and-ask_question', 'd-final-text');
    const first = await start();
    const thread = newThread(fake);
    expect(await thread.mention(first)).toBe(200);
    const ask = await thread.waitForAskSettled();
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

    const second = await start();
    expect(await thread.click(second, ask, 'Hotfix forward')).toBe(200);
    const reply = await thread.waitForReply();
    expect(String(reply.args.text)).toContain('Going with the hotfix');
    const requests = await replay.waitForRequests(2);
    expect(answersOf(requests[1]?.body)).toMatchObject([
      { status: 'answered', selected: ['Hotfix forward'], answeredBy: 'U0BOB' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(replay.requests).toHaveLength(2);
    expect(thread.askPosts()).toHaveLength(1);
    expect(thread.replies()).toHaveLength(1);
    expectPairing();
  });

  it('Redis restarted while an ask is open: the app reconnects, logs the outage once, and the click resumes the turn', async () => {
    replay.enqueue('anthropic', 'a-text-and-ask_question', 'd-final-text');
    const app = await start();
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const ask = await thread.waitForAskSettled();

    const port = redis.port;
    await redis.stop(); // SIGTERM: Redis writes its append-only file; the directory is ours, so it stays
    await app.waitForLog((line) => line.msg === 'Redis connection error; reconnecting');
    const down = await app.get('/readyz');
    expect(down.status).toBe(503);
    redis = await startComposeRedis({ port, dir: redisDir });
    await app.waitForLog((line) => line.msg === 'Redis connection restored');
    const started = Date.now();
    while ((await app.get('/readyz')).status !== 200) {
      if (Date.now() - started > 10_000) throw new Error(`not ready again:\n${app.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(await thread.click(app, ask, 'Hotfix forward')).toBe(200);
    await thread.waitForReply();
    const requests = await replay.waitForRequests(2);
    expect(answersOf(requests[1]?.body)).toMatchObject([
      { status: 'answered', selected: ['Hotfix forward'] },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(replay.requests).toHaveLength(2);
    expect(thread.replies()).toHaveLength(1);
    expectPairing();
    // One warning per client per outage, not one per reconnect attempt.
    const warnings = app.logs().filter((line) => line.msg === 'Redis connection error; reconnecting');
    expect(warnings.length).toBeLessThanOrEqual(2);
  });

  it('SIGTERM during a running turn: exits 0 within SHUTDOWN_TIMEOUT, and a second process finishes the turn once', async () => {
    // The continuation answer takes 8 s: the first process is stopped while it waits for it.
    replay.enqueue('anthropic', 'a-text-and-ask_question', { fixture: 'd-final-text', delayMs: 8000 });
    replay.enqueue('anthropic', 'd-final-text');
    const first = await start({ SHUTDOWN_TIMEOUT: '2s' });
    const thread = newThread(fake);
    expect(await thread.mention(first)).toBe(200);
    const ask = await thread.waitForAskSettled();
    expect(await thread.click(first, ask, 'Hotfix forward')).toBe(200);
    await replay.waitForRequests(2);

    const stopping = Date.now();
    const exit = await first.stop('SIGTERM');
    const tookMs = Date.now() - stopping;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(2000 + 2500);
    expect(first.logs().some((line) => line.msg === 'stopped')).toBe(true);
    expect(thread.replies()).toHaveLength(0);

    const second = await start();
    const reply = await thread.waitForReply(15_000);
    expect(String(reply.args.text)).toContain('Going with the hotfix');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(replay.requests).toHaveLength(3);
    expect(answersOf(replay.requests[2]?.body)).toMatchObject([
      { status: 'answered', selected: ['Hotfix forward'] },
    ]);
    expect(thread.replies()).toHaveLength(1);
    expectPairing();
    expect(second.logs().some((line) => line.msg === 'turn ended')).toBe(true);
  });
});
