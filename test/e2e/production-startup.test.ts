/**
 * Start-up acceptance of the built app (`node dist/src/main.js`): configuration problems in one message,
 * refusal of an evicting Redis (CASES C16), and the operations endpoints of a full and a worker-only process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle, startRedisServer } from '../support/redis-server.js';
import { runProductionAppToExit, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
});

afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});

async function env(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return productionEnv({
    fake,
    replay,
    redisUrl: redis.url,
    port: await freePort(),
    model: 'anthropic',
    env: extra,
  });
}

describe('production start-up', () => {
  it('a missing SLACK_BOT_TOKEN and ASK_TIMEOUT=abc: one message naming both, exit non-zero', async () => {
    const { SLACK_BOT_TOKEN: _omitted, ...rest } = await env({ ASK_TIMEOUT: 'abc' });
    const result = await runProductionAppToExit(rest);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    // One message: both problems in the same stderr text, nothing else printed.
    expect(result.stderr).toContain('SLACK_BOT_TOKEN');
    expect(result.stderr).toContain('ASK_TIMEOUT');
    expect(result.stderr).toContain('abc');
    expect(result.stdout).toBe('');
    expect(result.stderr.match(/cannot start/g)).toHaveLength(1);
    expect(result.stderr.match(/SLACK_BOT_TOKEN is missing/g)).toHaveLength(1);
  });

  it('a Redis with maxmemory-policy allkeys-lru: refuses with a message naming maxmemory-policy and noeviction, exit non-zero', async () => {
    const evicting = await startRedisServer(['--maxmemory', '50mb', '--maxmemory-policy', 'allkeys-lru']);
    try {
      const result = await runProductionAppToExit({ ...(await env()), REDIS_URL: evicting.url });
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stderr).toContain('maxmemory-policy');
      expect(result.stderr).toContain('allkeys-lru');
      expect(result.stderr).toContain('noeviction');
    } finally {
      await evicting.stop();
    }
  });

  it('a REDIS_URL where nothing listens: one message naming REDIS_URL and the refused connection, no stack', async () => {
    const port = await freePort();
    const result = await runProductionAppToExit({ ...(await env()), REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`redis://127.0.0.1:${port}`);
    expect(result.stderr).toContain('REDIS_URL');
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).not.toMatch(/maxRetriesPerRequest/);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/"stack"|\n\s+at /);
    // One readable line; the reconnect warnings that led to it are not printed before it.
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^holdpoint cannot start: cannot reach Redis/);
  });

  it('a Slack Web API that cannot be reached is not reported as a rejected token', async () => {
    const port = await freePort();
    const result = await runProductionAppToExit({
      ...(await env()),
      SLACK_API_URL: `http://127.0.0.1:${port}/api/`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot reach the Slack Web API');
    expect(result.stderr).not.toContain('rejected SLACK_BOT_TOKEN');
    // One readable line: no plain "[WARN] web-api:" retry lines, and no JSON before it.
    expect(result.stderr).not.toContain('[WARN]');
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a bot token Slack refuses is reported as such', async () => {
    const result = await runProductionAppToExit({ ...(await env()), SLACK_BOT_TOKEN: 'xoxb-wrong-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Slack rejected SLACK_BOT_TOKEN (auth.test: invalid_auth)');
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('serves /healthz, /readyz and /metrics (with holdpoint_asks_open); SIGTERM exits 0', async () => {
    const app = await startProductionApp(await env());
    try {
      // The start-up lines held back while it started are all out once it is ready.
      await app.waitForLog((line) => line.msg === 'connected to Slack', 2000);
      expect(await app.get('/healthz')).toMatchObject({ status: 200 });
      const ready = await app.get('/readyz');
      expect(ready.status).toBe(200);
      const checks = (JSON.parse(ready.body) as { checks: Array<{ name: string; ok: boolean }> }).checks;
      expect(checks.map((check) => check.name).sort()).toEqual(['redis', 'slack', 'worker']);
      const metrics = await app.get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(/^holdpoint_asks_open \d+$/m);
    } finally {
      expect(await app.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });

  it('with METRICS_TOKEN, /metrics needs it as a bearer token; /healthz and /readyz stay open', async () => {
    const token = 'metrics-e2e-0123456789abcdefghijklmnopqrstuv';
    const app = await startProductionApp(await env({ METRICS_TOKEN: token }));
    try {
      expect((await app.get('/readyz')).status).toBe(200);
      const refused = await app.get('/metrics');
      expect(refused.status).toBe(401);
      expect(refused.body).not.toMatch(/holdpoint_asks_open/);
      const wrong = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const allowed = await fetch(`${app.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toMatch(/^holdpoint_asks_open \d+$/m);
    } finally {
      expect(await app.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });

  it('a worker-only process (ROLE=worker) serves /healthz and /readyz without the Slack receiver', async () => {
    const app = await startProductionApp(await env({ ROLE: 'worker' }));
    try {
      expect(await app.get('/healthz')).toMatchObject({ status: 200 });
      const ready = await app.get('/readyz');
      expect(ready.status).toBe(200);
      const checks = (JSON.parse(ready.body) as { checks: Array<{ name: string }> }).checks;
      expect(checks.map((check) => check.name).sort()).toEqual(['redis', 'worker']);
      const slack = await fetch(`${app.baseUrl}/slack/events`, { method: 'POST', body: '{}' });
      expect(slack.status).toBe(404);
    } finally {
      expect(await app.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });
});
