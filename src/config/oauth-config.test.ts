import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig } from './load-config.js';
import { decodeTokenKey } from './token-key.js';

/** Two fixed keys of 32 varied bytes (as `openssl rand` gives). */
const KEY_BYTES = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256));
const KEY_HEX = KEY_BYTES.toString('hex');
const KEY_B64 = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 53 + 7) % 256)).toString('base64');
const oauthEnv = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'client-secret-value',
  SLACK_STATE_SECRET: 's'.repeat(32),
  TOKEN_ENCRYPTION_KEY: KEY_HEX,
  SLACK_ALLOWED_WORKSPACES: 'T0TEST,E0GRID',
  SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5',
  ANTHROPIC_API_KEY: 'sk-ant-api03-abcdef',
};

function problemsOf(env: Record<string, string | undefined>): Array<{ variable: string; message: string }> {
  try {
    loadConfig(env, { readFile: () => '' });
  } catch (error) {
    if (error instanceof InvalidConfigError) return error.problems.map((problem) => ({ ...problem }));
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('TOKEN_ENCRYPTION_KEY decoding', () => {
  it.each([
    ['64 hex digits', KEY_HEX, true],
    ['base64 of 32 bytes', KEY_B64, true],
    ['base64url of 32 bytes, padded', `${KEY_BYTES.toString('base64url')}=`, true],
    ['31 bytes of base64', KEY_BYTES.subarray(0, 31).toString('base64'), false],
    ['33 bytes of base64', Buffer.concat([KEY_BYTES, Buffer.from([1])]).toString('base64'), false],
    ['63 hex digits', 'a'.repeat(63), false],
    ['a passphrase', 'correct horse battery staple', false],
    [
      'a 43-character passphrase that reads as unpadded base64url',
      'my-company-holdpoint-token-encryption-key-1',
      false,
    ],
    ['64 hex zeros', '0'.repeat(64), false],
    ['all-zero base64', Buffer.alloc(32).toString('base64'), false],
    ['a repeated byte', 'ab'.repeat(32), false],
  ])('%s', (_name, text, ok) => {
    const key = decodeTokenKey(text);
    expect(key?.length ?? null).toBe(ok ? 32 : null);
  });
});

describe('loadConfig: OAuth install mode', () => {
  it('reads the OAuth settings in HTTP mode, with the decoded keys', () => {
    const config = loadConfig(
      { ...oauthEnv, TOKEN_ENCRYPTION_KEY_PREVIOUS: KEY_B64 },
      { readFile: () => '' },
    );
    expect(config.slack.mode).toBe('http');
    expect(config.slack.botToken).toBe('');
    expect(config.slack.oauth).toMatchObject({
      clientId: '1111.2222',
      clientSecret: 'client-secret-value',
      stateSecret: 's'.repeat(32),
    });
    expect(config.slack.oauth?.encryptionKey.equals(Buffer.from(KEY_HEX, 'hex'))).toBe(true);
    expect(config.slack.oauth?.previousEncryptionKey?.equals(Buffer.from(KEY_B64, 'base64'))).toBe(true);
  });

  it('single-workspace mode stays the default: oauth is null', () => {
    const config = loadConfig(
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'x', ANTHROPIC_API_KEY: 'k' },
      { readFile: () => '' },
    );
    expect(config.slack.oauth).toBeNull();
  });

  it('refuses OAuth together with SLACK_BOT_TOKEN, naming both ways out', () => {
    const problems = problemsOf({ ...oauthEnv, SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(problems).toEqual([
      {
        variable: 'SLACK_BOT_TOKEN',
        message: expect.stringContaining('unset SLACK_BOT_TOKEN to serve many workspaces'),
      },
    ]);
  });

  it('refuses OAuth with Socket Mode', () => {
    const problems = problemsOf({ ...oauthEnv, SLACK_APP_TOKEN: 'xapp-1-A-1-x' });
    expect(problems).toEqual([
      { variable: 'SLACK_APP_TOKEN', message: expect.stringContaining('installs need HTTP mode') },
    ]);
  });

  it('lists every missing OAuth variable', () => {
    const problems = problemsOf({
      SLACK_CLIENT_ID: '1.2',
      SLACK_SIGNING_SECRET: 'x',
      ANTHROPIC_API_KEY: 'k',
    });
    expect(problems.map((problem) => problem.variable)).toEqual([
      'SLACK_CLIENT_SECRET',
      'SLACK_STATE_SECRET',
      'TOKEN_ENCRYPTION_KEY',
      'SLACK_ALLOWED_WORKSPACES',
    ]);
  });

  it.each([
    ['T0TEST,E0GRID', null],
    [' T0TEST , T0BBB ', null],
    ['', 'SLACK_ALLOWED_WORKSPACES is missing'],
    ['acme', 'SLACK_ALLOWED_WORKSPACES holds "acme"'],
    ['T0TEST,U0ALICE', 'SLACK_ALLOWED_WORKSPACES holds "U0ALICE"'],
  ])('SLACK_ALLOWED_WORKSPACES=%j', (value, message) => {
    const problems = problemsOf({
      ...oauthEnv,
      SLACK_ALLOWED_WORKSPACES: value,
      SLACK_CLIENT_ID: undefined,
      SLACK_BOT_TOKEN: 'xoxb-1',
    });
    // Checked only in OAuth mode: with a bot token the list is not looked at (the token problem is the only one).
    expect(problems.some((problem) => problem.variable === 'SLACK_ALLOWED_WORKSPACES')).toBe(false);
    if (message === null)
      expect(
        loadConfig({ ...oauthEnv, SLACK_ALLOWED_WORKSPACES: value }).slack.oauth?.allowedWorkspaces.size,
      ).toBeGreaterThan(0);
    else expect(() => loadConfig({ ...oauthEnv, SLACK_ALLOWED_WORKSPACES: value })).toThrow(message);
  });

  it('refuses a key that is not 32 bytes, a short state secret, and a previous key equal to the current, without echoing secrets', () => {
    const problems = problemsOf({
      ...oauthEnv,
      SLACK_STATE_SECRET: 'short-state',
      TOKEN_ENCRYPTION_KEY: 'not-a-key-at-all',
      TOKEN_ENCRYPTION_KEY_PREVIOUS: 'also-not-a-key',
    });
    expect(problems.map((problem) => problem.variable)).toEqual([
      'SLACK_STATE_SECRET',
      'TOKEN_ENCRYPTION_KEY',
      'TOKEN_ENCRYPTION_KEY_PREVIOUS',
    ]);
    const text = JSON.stringify(problems);
    for (const secret of ['short-state', 'not-a-key-at-all', 'also-not-a-key'])
      expect(text).not.toContain(secret);
    expect(
      problemsOf({ ...oauthEnv, TOKEN_ENCRYPTION_KEY_PREVIOUS: KEY_HEX }).map((problem) => problem.variable),
    ).toEqual(['TOKEN_ENCRYPTION_KEY_PREVIOUS']);
  });

  it('refuses the ask API in OAuth install mode (its requests name no workspace)', () => {
    const problems = problemsOf({ ...oauthEnv, API_TOKENS: `ci:${'t'.repeat(32)}` });
    expect(problems.map((problem) => problem.variable)).toEqual(['API_TOKENS']);
  });
});
