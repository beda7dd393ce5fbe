/**
 * `holdpoint doctor` as a process (dist build when fresh, else tsx) against the fake Slack Web API, real
 * `redis-server`s (one with noeviction, one with allkeys-lru) and the model replay server.
 * The fake Slack sends no `x-oauth-scopes`, so the scope line is a warning here; the scope comparison
 * itself is tested in test/unit/cli/doctor-checks.test.ts against a server that sends the header.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { stdioServerYaml } from '../support/mcp-config.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle, startRedisServer } from '../support/redis-server.js';
import { runHoldpoint, STACK_TRACE } from '../unit/cli/holdpoint-process.js';

let slack: FakeSlack;
let replay: ModelReplay;
let goodRedis: RedisServerHandle;
let lruRedis: RedisServerHandle;

beforeAll(async () => {
  [slack, replay, goodRedis, lruRedis] = await Promise.all([
    startFakeSlack(),
    startModelReplay(),
    startRedisServer(['--maxmemory-policy', 'noeviction']),
    startRedisServer(['--maxmemory-policy', 'allkeys-lru']),
  ]);
});

afterAll(async () => {
  await Promise.all([slack?.close(), replay?.close(), goodRedis?.stop(), lruRedis?.stop()]);
});

beforeEach(() => {
  replay.reset();
});

/** A complete environment for HTTP mode; nothing inherited but PATH and HOME. */
function doctorEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: 'doctor-test-signing-secret',
    SLACK_API_URL: slack.url,
    REDIS_URL: goodRedis.url,
    MODEL: 'anthropic:claude-sonnet-4-5',
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: replay.anthropicBaseUrl,
    ...overrides,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

/** The Redis lines of a checklist whose Redis answered, in order. */
const REDIS_LINES = ['Redis reachable', 'Redis version', 'Redis eviction policy', 'Redis hash encoding'];

/** The checklist lines `<mark> <name>: <detail>` by name. */
function checklist(stdout: string): Map<string, { mark: string; detail: string }> {
  const lines = new Map<string, { mark: string; detail: string }>();
  for (const match of stdout.matchAll(/^([✔✖⚠]) ([^:\n]+): (.*)$/gmu)) {
    lines.set(match[2] as string, { mark: match[1] as string, detail: match[3] as string });
  }
  return lines;
}

describe('holdpoint doctor as a process', () => {
  it('lists each MCP tool server of the config file: its tools and which need approval; a down one warns', async () => {
    replay.enqueue('anthropic', { text: 'pong' });
    const dir = mkdtempSync(join(tmpdir(), 'hp-doctor-'));
    const config = join(dir, 'holdpoint.yaml');
    writeFileSync(
      config,
      `mcpServers:
${stdioServerYaml('deploy')}
  ghost:
    command: /nonexistent/mcp-server
approvals:
  - tools: [deploy.restart, dep1oy.*]
channels:
  C0OPS:
    askTimeout: 10m
    tools: [deploy.status, deplo.rollback]
    approvals:
      - tools: [deploy.statuz]
`,
    );
    const run = await runHoldpoint(['doctor'], { env: doctorEnv({ HOLDPOINT_CONFIG: config }) });
    expect(run.code, run.stdout).toBe(0);
    const lines = checklist(run.stdout);
    expect(lines.get('MCP server deploy')).toEqual({
      mark: '✔',
      detail: 'stdio, 7 tools; need approval: deploy.restart, deploy.rollback',
    });
    expect(lines.get('MCP server ghost')?.mark).toBe('⚠');
    expect(lines.get('MCP server ghost')?.detail).toContain('not reachable');
    expect(lines.get('Approval rules')).toEqual({
      mark: '⚠',
      detail:
        'globs that match no tool of the servers reached: dep1oy.*, deplo.rollback (channels.C0OPS), deploy.statuz (channels.C0OPS)',
    });
    expect(lines.get('Channel C0OPS')?.detail).toContain('ask timeout 10m; policy recommended-or-first');
    expect(lines.get('Channel C0OPS')?.detail).toContain('tools deploy.status, deplo.rollback');
    expect(lines.get('Other channels')?.detail).toContain('ask timeout 30m');
  }, 30_000);

  it('passes every check against a healthy set-up: exit 0', async () => {
    replay.enqueue('anthropic', { text: 'pong' });
    const run = await runHoldpoint(['doctor'], { env: doctorEnv() });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    const lines = checklist(run.stdout);
    expect([...lines.keys()]).toEqual([
      'Configuration',
      ...REDIS_LINES,
      'Slack auth.test',
      'Slack bot scopes',
      'Model',
    ]);
    expect(lines.get('Configuration')?.mark).toBe('✔');
    expect(lines.get('Redis reachable')).toEqual({ mark: '✔', detail: `${goodRedis.url} answered PING` });
    expect(lines.get('Redis version')?.mark).toBe('✔');
    expect(lines.get('Redis eviction policy')).toEqual({ mark: '✔', detail: 'maxmemory-policy noeviction' });
    // This Redis runs with the default 64: a warning with the fix, not a failure.
    expect(lines.get('Redis hash encoding')).toEqual({
      mark: '⚠',
      detail: 'hash-max-listpack-value 64 (1024 recommended)',
    });
    expect(run.stdout.split('⚠ Redis hash encoding')[1] ?? '').toMatch(
      /^[^\n]*\n {4}fix: .*--hash-max-ziplist-value 1024/,
    );
    expect(lines.get('Slack auth.test')).toEqual({
      mark: '✔',
      detail: 'team "Test Workspace" (T0TEST), bot user @holdpoint (U0BOT)',
    });
    // The fake Slack sends no x-oauth-scopes header: a warning, not a failure.
    expect(lines.get('Slack bot scopes')?.mark).toBe('⚠');
    expect(lines.get('Model')?.mark).toBe('✔');
    expect(lines.get('Model')?.detail).toMatch(
      /^anthropic:claude-sonnet-4-5 at http:\/\/127\.0\.0\.1:\d+\/v1 answered in \d+ ms$/,
    );
    expect(run.stdout).toContain('All 8 checks passed.');

    // One auth.test with the bot token; one one-token model call.
    const authCalls = slack.calls.filter((call) => call.method === 'auth.test');
    expect(authCalls.at(-1)?.token).toBe(slack.botToken);
    expect(replay.requests).toHaveLength(1);
    expect(replay.requests[0]?.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 1 });
  });

  it('fails with a fix for allkeys-lru, a wrong bot token and a model error: exit 1', async () => {
    // Nothing scripted: the replay answers HTTP 500.
    const run = await runHoldpoint(['doctor'], {
      env: doctorEnv({ REDIS_URL: lruRedis.url, SLACK_BOT_TOKEN: 'xoxb-not-the-right-token' }),
    });
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(1);
    const lines = checklist(run.stdout);
    expect(lines.get('Redis reachable')?.mark).toBe('✔');
    expect(lines.get('Redis eviction policy')).toEqual({
      mark: '✖',
      detail: 'maxmemory-policy allkeys-lru (needs noeviction)',
    });
    expect(lines.get('Slack auth.test')).toEqual({ mark: '✖', detail: 'Slack answered invalid_auth' });
    expect(lines.has('Slack bot scopes')).toBe(false);
    expect(lines.get('Model')?.mark).toBe('✖');
    expect(lines.get('Model')?.detail).toContain('HTTP 500');
    // Each failure is followed by its fix.
    const afterPolicy = run.stdout.split('✖ Redis eviction policy')[1] ?? '';
    expect(afterPolicy).toMatch(/^[^\n]*\n {4}fix: .*--maxmemory-policy noeviction/);
    const afterSlack = run.stdout.split('✖ Slack auth.test')[1] ?? '';
    expect(afterSlack).toMatch(/^[^\n]*\n {4}fix: Set SLACK_BOT_TOKEN to the Bot User OAuth Token/);
    expect(run.stdout).toContain('3 of 7 checks failed.');
    expect(run.stdout).not.toMatch(STACK_TRACE);
    expect(run.stdout).not.toContain('xoxb-not-the-right-token');
  });

  it('in Socket Mode checks the app token with apps.connections.open: a good one passes, a wrong one fails with a fix', async () => {
    replay.enqueue('anthropic', { text: 'pong' });
    const good = await runHoldpoint(['doctor'], {
      env: doctorEnv({ SLACK_SIGNING_SECRET: undefined, SLACK_APP_TOKEN: slack.appToken }),
    });
    expect(good.code, good.stdout).toBe(0);
    expect(checklist(good.stdout).get('Slack app token')).toEqual({
      mark: '✔',
      detail: 'apps.connections.open offered a Socket Mode connection',
    });
    const bad = await runHoldpoint(['doctor'], {
      env: doctorEnv({ SLACK_SIGNING_SECRET: undefined, SLACK_APP_TOKEN: 'xapp-1-A0-not-the-right-one' }),
    });
    expect(bad.code, bad.stdout).toBe(1);
    expect(checklist(bad.stdout).get('Slack app token')).toEqual({
      mark: '✖',
      detail: 'Slack refused SLACK_APP_TOKEN (apps.connections.open: invalid_auth)',
    });
    expect(bad.stdout.split('✖ Slack app token')[1] ?? '').toMatch(
      /^[^\n]*\n {4}fix: Create an app-level token/,
    );
    expect(bad.stdout).not.toContain('xapp-1-A0-not-the-right-one');
  });

  it('reports an unreachable Redis with a fix: exit 1', async () => {
    replay.enqueue('anthropic', { text: 'pong' });
    const port = await freePort();
    const run = await runHoldpoint(['doctor'], {
      env: doctorEnv({ REDIS_URL: `redis://127.0.0.1:${port}` }),
    });
    expect(run.code, run.stdout).toBe(1);
    const lines = checklist(run.stdout);
    expect(lines.get('Redis reachable')?.mark).toBe('✖');
    expect(lines.get('Redis reachable')?.detail).toBe(
      `cannot connect to redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(lines.has('Redis eviction policy')).toBe(false);
    expect(lines.has('Redis hash encoding')).toBe(false);
    expect(lines.get('Slack auth.test')?.mark).toBe('✔');
    expect(lines.get('Model')?.mark).toBe('✔');
    expect(run.stdout).toContain('fix: Start Redis');
    expect(run.stdout).toContain('1 of 5 checks failed.');
  });

  it('with SLACK_BOT_TOKEN missing still checks Redis, and says what it could not check: exit 1, no stack trace', async () => {
    const run = await runHoldpoint(['doctor'], { env: doctorEnv({ SLACK_BOT_TOKEN: undefined }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const lines = checklist(run.stdout);
    expect([...lines.keys()]).toEqual(['Configuration', ...REDIS_LINES, 'Slack, model and MCP tool servers']);
    expect(lines.get('Configuration')).toEqual({ mark: '✖', detail: '1 problem: SLACK_BOT_TOKEN' });
    expect(run.stdout).toContain('SLACK_BOT_TOKEN is missing');
    expect(lines.get('Redis reachable')).toEqual({ mark: '✔', detail: `${goodRedis.url} answered PING` });
    expect(lines.get('Slack, model and MCP tool servers')).toEqual({
      mark: '⚠',
      detail: 'not checked until the configuration is valid',
    });
    expect(run.stdout).toContain('1 of 6 checks failed.');
    expect(run.stdout).not.toMatch(STACK_TRACE);
    expect(slack.calls.filter((call) => call.token === null)).toEqual([]);
    expect(replay.requests).toHaveLength(0);
  });

  it('with nothing set checks the default Redis URL; with REDIS_URL itself wrong checks no Redis', async () => {
    const port = await freePort();
    const bare = await runHoldpoint(['doctor'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    expect(bare.code).toBe(1);
    const bareLines = checklist(bare.stdout);
    expect(bareLines.get('Configuration')?.mark).toBe('✖');
    // redis://127.0.0.1:6379, the default: answered or not, the line says which URL it tried.
    expect(bareLines.get('Redis reachable')?.detail).toMatch(/redis:\/\/127\.0\.0\.1:6379/);

    const wrong = await runHoldpoint(['doctor'], {
      env: doctorEnv({ REDIS_URL: `http://127.0.0.1:${port}` }),
    });
    expect(wrong.code).toBe(1);
    const wrongLines = checklist(wrong.stdout);
    expect(wrongLines.get('Configuration')).toEqual({ mark: '✖', detail: '1 problem: REDIS_URL' });
    expect(wrongLines.has('Redis reachable')).toBe(false);
    expect(wrongLines.get('Slack, model and MCP tool servers')?.mark).toBe('⚠');
  });

  it('reads REDIS_URL as the bot does when the configuration is invalid: trimmed, and empty as unset', async () => {
    const padded = await runHoldpoint(['doctor'], {
      env: doctorEnv({ SLACK_BOT_TOKEN: undefined, REDIS_URL: `  ${goodRedis.url}  ` }),
    });
    expect(padded.code).toBe(1);
    expect(padded.stdout).not.toMatch(STACK_TRACE);
    expect(checklist(padded.stdout).get('Redis reachable')).toEqual({
      mark: '✔',
      detail: `${goodRedis.url} answered PING`,
    });
    const empty = await runHoldpoint(['doctor'], {
      env: doctorEnv({ SLACK_BOT_TOKEN: undefined, REDIS_URL: '' }),
    });
    expect(empty.stdout).not.toMatch(STACK_TRACE);
    expect(checklist(empty.stdout).get('Redis reachable')?.detail).toMatch(/redis:\/\/127\.0\.0\.1:6379/);
  });
});
