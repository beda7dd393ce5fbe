/**
 * Socket Mode on the built app, against the fake Slack's `apps.connections.open` and its WebSocket
 * endpoint: a refused app token stops the start with one readable line and exit 1; a working one connects
 * through SLACK_API_URL and /readyz says ready only once the socket is open; a socket that never opens is
 * reported not ready while the start waits, and the start gives up with a clear line after its bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { runProductionAppToExit, startProductionApp } from './support/production-app.js';
import { productionEnv, startComposeRedis } from './support/production-env.js';

let redis: RedisServerHandle;
let replay: ModelReplay;
const fakes: FakeSlack[] = [];

beforeAll(async () => {
  [redis, replay] = await Promise.all([startComposeRedis(), startModelReplay()]);
});
afterAll(async () => {
  await Promise.all([replay?.close(), redis?.stop(), ...fakes.map((fake) => fake.close())]);
});

async function socketEnv(
  fake: FakeSlack,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const { SLACK_SIGNING_SECRET: _http, ...env } = productionEnv({
    fake,
    replay,
    redisUrl: redis.url,
    port: await freePort(),
    model: 'anthropic',
    env: { SLACK_APP_TOKEN: fake.appToken, ...extra },
  });
  return env;
}

async function fakeSlack(options: Parameters<typeof startFakeSlack>[0] = {}): Promise<FakeSlack> {
  const fake = await startFakeSlack(options);
  fakes.push(fake);
  return fake;
}

describe('Socket Mode on the built app', () => {
  it('an app token Slack refuses stops the start: one readable line, exit 1, nothing on stdout', async () => {
    const fake = await fakeSlack();
    const result = await runProductionAppToExit(
      await socketEnv(fake, { SLACK_APP_TOKEN: 'xapp-1-A0-wrong' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Slack refused SLACK_APP_TOKEN (apps.connections.open: invalid_auth)');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('connects through SLACK_API_URL; /readyz is ready with the socket open', async () => {
    const fake = await fakeSlack();
    const app = await startProductionApp(await socketEnv(fake));
    try {
      expect(fake.callsTo('apps.connections.open').length).toBeGreaterThanOrEqual(1);
      expect(fake.socketConnections()).toBe(1);
      const ready = await app.get('/readyz');
      expect(ready.status).toBe(200);
      const checks = (JSON.parse(ready.body) as { checks: Array<{ name: string; ok: boolean }> }).checks;
      expect(checks.find((check) => check.name === 'slack')).toMatchObject({ ok: true });
    } finally {
      expect(await app.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });

  it('a socket that never opens: /readyz says Slack is not connected, then the start gives up with one line', async () => {
    const fake = await fakeSlack({ socketHello: false });
    const env = await socketEnv(fake, { HOLDPOINT_TEST_SOCKET_CONNECT_MS: '3000' });
    const exit = runProductionAppToExit(env);
    let notReady: { status: number; body: string } | null = null;
    for (let attempt = 0; attempt < 40 && notReady === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      try {
        const response = await fetch(`http://127.0.0.1:${env.PORT}/readyz`);
        notReady = { status: response.status, body: await response.text() };
      } catch {
        // not listening yet
      }
    }
    expect(notReady?.status).toBe(503);
    expect(notReady?.body).toContain('Slack not connected');
    const result = await exit;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the Socket Mode connection did not open within 3 s');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('the app token is revoked while running: the reconnect is refused, one line says so, exit 1', async () => {
    const fake = await fakeSlack();
    const app = await startProductionApp(await socketEnv(fake));
    expect(fake.socketConnections()).toBe(1);
    fake.revokeAppToken();
    fake.dropSockets();
    const exit = await app.exited;
    expect(exit.code).toBe(1);
    expect(app.output()).toContain(
      'holdpoint stopped: Slack refused SLACK_APP_TOKEN while reconnecting Socket Mode (apps.connections.open: invalid_auth)',
    );
  }, 30_000);
});
