/**
 * The `holdpoint doctor` checks one by one: the checklist format, the scope comparison (against a local
 * HTTP server that sends `x-oauth-scopes` like Slack, through the real @slack/web-api client), the
 * configuration line, and the model line's fixes (through the model replay server).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_BOT_SCOPES } from '../../../src/config/slack-scopes.js';
import { checkConfig } from '../../../src/doctor/check-config.js';
import { checkModel } from '../../../src/doctor/check-model.js';
import { checkSlack, slackScopesCheck } from '../../../src/doctor/check-slack.js';
import { formatChecklist } from '../../../src/doctor/doctor-check.js';
import { type ModelReplay, startModelReplay } from '../../support/model-replay/model-replay.js';

describe('formatChecklist', () => {
  it('prints marks, fixes under failures and warnings only, and a summary', () => {
    const text = formatChecklist([
      { name: 'A', ok: true, detail: 'fine', fix: 'never shown' },
      { name: 'B', ok: true, warning: true, detail: 'unsure', fix: 'look at it' },
      { name: 'C', ok: false, detail: 'broken', fix: 'first\nsecond' },
    ]);
    expect(text).toBe(
      [
        '✔ A: fine',
        '⚠ B: unsure',
        '    fix: look at it',
        '✖ C: broken',
        '    fix:',
        '      first',
        '      second',
        '1 of 3 checks failed.',
        '',
      ].join('\n'),
    );
  });

  it('says all passed when none failed', () => {
    expect(formatChecklist([{ name: 'A', ok: true, detail: 'fine' }])).toBe(
      '✔ A: fine\nAll 1 check passed.\n',
    );
  });
});

describe('slackScopesCheck', () => {
  it('passes when every manifest scope is granted, extra scopes allowed', () => {
    const check = slackScopesCheck([...REQUIRED_BOT_SCOPES, 'files:write']);
    expect(check).toMatchObject({ name: 'Slack bot scopes', ok: true });
    expect(check.warning).toBeUndefined();
  });

  it('fails naming each missing scope and why it is needed', () => {
    const granted = REQUIRED_BOT_SCOPES.filter((scope) => scope !== 'chat:write' && scope !== 'im:history');
    const check = slackScopesCheck(granted);
    expect(check.ok).toBe(false);
    expect(check.detail).toBe('missing chat:write, im:history');
    expect(check.fix).toContain('reinstall the app');
    expect(check.fix).toContain('- chat:write: post asks');
    expect(check.fix).toContain('- im:history: receive and read direct messages');
  });

  it('warns (does not fail) when Slack reported no scopes', () => {
    expect(slackScopesCheck(undefined)).toMatchObject({ ok: true, warning: true });
  });
});

describe('checkSlack against a server that sends x-oauth-scopes', () => {
  let server: Server;
  let apiUrl: string;
  let scopesHeader = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const authorized = request.headers.authorization === 'Bearer xoxb-good';
        response.writeHead(200, {
          'content-type': 'application/json',
          ...(authorized ? { 'x-oauth-scopes': scopesHeader } : {}),
        });
        response.end(
          JSON.stringify(
            authorized
              ? { ok: true, team: 'Acme', team_id: 'T1', user: 'holdpoint', user_id: 'U1', bot_id: 'B1' }
              : { ok: false, error: 'invalid_auth' },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const slack = (botToken: string) => ({
    mode: 'http' as const,
    botToken,
    oauth: null,
    apiUrl,
    appToken: null,
    signingSecret: 'secret',
  });

  it('reads the scopes from the response header and finds the missing one', async () => {
    scopesHeader = REQUIRED_BOT_SCOPES.filter((scope) => scope !== 'reactions:write').join(',');
    const checks = await checkSlack(slack('xoxb-good'));
    expect(checks).toEqual([
      { name: 'Slack auth.test', ok: true, detail: 'team "Acme" (T1), bot user @holdpoint (U1)' },
      expect.objectContaining({ name: 'Slack bot scopes', ok: false, detail: 'missing reactions:write' }),
    ]);
  });

  it('OAuth install mode: says tokens are per workspace and calls no Slack method', async () => {
    const oauth = {
      clientId: '1.2',
      clientSecret: 'c',
      stateSecret: 's',
      encryptionKey: Buffer.alloc(32),
      previousEncryptionKey: null,
      allowedWorkspaces: new Set(['T0TEST']),
    };
    const checks = await checkSlack({ ...slack(''), apiUrl: 'http://127.0.0.1:9/api/', oauth });
    expect(checks).toEqual([
      expect.objectContaining({
        name: 'Slack auth.test',
        ok: true,
        detail: expect.stringContaining('OAuth install mode'),
      }),
    ]);
  });

  it('passes with every scope, the header spaced as Slack sends it', async () => {
    scopesHeader = REQUIRED_BOT_SCOPES.join(', ');
    const checks = await checkSlack(slack('xoxb-good'));
    expect(checks.map((check) => check.ok)).toEqual([true, true]);
    expect(checks[1]?.warning).toBeUndefined();
  });

  it('reports invalid_auth with the token fix', async () => {
    const checks = await checkSlack(slack('xoxb-bad'));
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ ok: false, detail: 'Slack answered invalid_auth' });
    expect(checks[0]?.fix).toContain('SLACK_BOT_TOKEN');
  });

  it('reports an unreachable API URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const checks = await checkSlack({ ...slack('xoxb-good'), apiUrl: `http://127.0.0.1:${port}/api/` });
    expect(checks[0]?.ok).toBe(false);
    expect(checks[0]?.detail).toContain(`cannot reach http://127.0.0.1:${port}/api/`);
    expect(checks[0]?.fix).toContain('SLACK_API_URL');
  });
});

describe('checkConfig', () => {
  const base = {
    SLACK_BOT_TOKEN: 'xoxb-1',
    SLACK_APP_TOKEN: 'xapp-1',
    REDIS_URL: 'redis://:hunter2@redis.internal:6379/0',
    MODEL: 'openai:gpt-4.1',
    OPENAI_API_KEY: 'sk-test',
  };

  it('summarizes a valid configuration without secrets', () => {
    const { check, config } = checkConfig(base);
    expect(config).not.toBeNull();
    expect(check).toEqual({
      name: 'Configuration',
      ok: true,
      detail:
        'valid (Slack socket mode, MODEL openai:gpt-4.1, REDIS_URL redis://:***@redis.internal:6379/0, ROLE all)',
    });
  });

  it('lists every problem as the fix', () => {
    const { check, config } = checkConfig({ ...base, SLACK_BOT_TOKEN: undefined, ASK_TIMEOUT: 'soon' });
    expect(config).toBeNull();
    expect(check.ok).toBe(false);
    expect(check.detail).toBe('2 problems: SLACK_BOT_TOKEN, ASK_TIMEOUT');
    const lines = check.fix?.split('\n') ?? [];
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^- SLACK_BOT_TOKEN is missing/);
    expect(lines[1]).toMatch(/^- ASK_TIMEOUT/);
    expect(lines[2]).toContain('.env.example');
  });
});

describe('checkModel through the replay server', () => {
  let replay: ModelReplay;

  beforeAll(async () => {
    replay = await startModelReplay();
  });

  afterAll(async () => {
    await replay.close();
  });

  const model = () => ({
    provider: 'anthropic' as const,
    modelId: 'claude-sonnet-4-5',
    apiKey: 'k',
    baseURL: replay.anthropicBaseUrl,
  });

  it('passes on an answer', async () => {
    replay.reset();
    replay.enqueue('anthropic', { text: 'pong' });
    const check = await checkModel(model());
    expect(check.ok).toBe(true);
    expect(check.detail).toMatch(
      /^anthropic:claude-sonnet-4-5 at http:\/\/127\.0\.0\.1:\d+\/v1 answered in \d+ ms$/,
    );
  });

  it.for([
    [401, 'ANTHROPIC_API_KEY'],
    [404, 'MODEL'],
    [429, 'rate limiting'],
  ] as const)('HTTP %i points at %s', async ([status, hint]) => {
    replay.reset();
    replay.enqueue('anthropic', { status });
    const check = await checkModel(model());
    expect(check.ok).toBe(false);
    expect(check.detail).toContain(`HTTP ${status}`);
    expect(check.fix).toContain(hint);
  });
});
