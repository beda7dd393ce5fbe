// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text that holds ${VAR}
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { EMPTY_CONFIG_FILE } from './config-file.js';
import { DEFAULT_SYSTEM_PROMPT } from './default-system-prompt.js';
import { formatConfigError, InvalidConfigError, loadConfig } from './load-config.js';
import type { Config } from './types.js';

const socketEnv = {
  SLACK_BOT_TOKEN: 'xoxb-1111-2222-abcdef',
  SLACK_APP_TOKEN: 'xapp-1-A111-3333-abcdef',
  ANTHROPIC_API_KEY: 'sk-ant-api03-abcdef',
};

function problemsOf(env: Record<string, string | undefined>): InvalidConfigError {
  try {
    loadConfig(env, { readFile: () => 'prompt from file' });
  } catch (error) {
    if (error instanceof InvalidConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig: valid environments', () => {
  it('fills every default for a minimal Socket Mode environment', () => {
    const expected: Config = {
      slack: {
        mode: 'socket',
        botToken: 'xoxb-1111-2222-abcdef',
        oauth: null,
        appToken: 'xapp-1-A111-3333-abcdef',
        signingSecret: null,
        apiUrl: null,
      },
      threads: { follow: 'mention' },
      http: { port: 3000, metricsToken: null },
      redis: { url: 'redis://127.0.0.1:6379', cluster: false },
      model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5', apiKey: 'sk-ant-api03-abcdef' },
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      systemPromptSource: 'default',
      ask: {
        timeoutMs: 1_800_000,
        timeoutPolicy: 'recommended-or-first',
        answerers: { mode: 'anyone' },
        followUp: {
          reminders: [
            { kind: 'fraction', fraction: 0.5 },
            { kind: 'fraction', fraction: 0.9 },
          ],
          escalation: null,
          extendByMs: [900_000, 3_600_000, 14_400_000],
          maxDeadlineMs: 86_400_000,
          overrideWindowMs: 86_400_000,
          quorum: 1,
        },
      },
      api: { tokens: [], webhookSecret: null, mcpDefaultChannel: null, ratePerMinute: 120 },
      role: 'all',
      log: { level: 'info' },
      agent: { stepLimit: 20, streamReplies: true },
      worker: { concurrency: 8 },
      shutdown: { timeoutMs: 25_000 },
      file: EMPTY_CONFIG_FILE,
    };
    expect(loadConfig(socketEnv)).toEqual(expected);
  });

  it('reads every variable when all are set (HTTP mode)', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-9',
      SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5',
      SLACK_API_URL: 'http://127.0.0.1:4000',
      THREAD_FOLLOW: 'all',
      PORT: '8080',
      METRICS_TOKEN: 'm'.repeat(32),
      REDIS_URL: 'redis://:pw@redis:6379/2',
      MODEL: 'openai:gpt-4.1',
      OPENAI_API_KEY: 'sk-proj-1',
      OPENAI_BASE_URL: 'http://127.0.0.1:5000/v1/',
      SYSTEM_PROMPT: 'Be brief.',
      ASK_TIMEOUT: '2h',
      ASK_TIMEOUT_POLICY: 'no-answer',
      ASK_ANSWERERS: 'U01AAA,S02BBB',
      ROLE: 'worker',
      LOG_LEVEL: 'debug',
      STEP_LIMIT: '5',
      WORKER_CONCURRENCY: '2',
      SHUTDOWN_TIMEOUT: '90',
      UNRELATED: 'ignored',
    });
    expect(config).toEqual({
      slack: {
        mode: 'http',
        botToken: 'xoxb-9',
        oauth: null,
        appToken: null,
        signingSecret: '8f742231b10e8888abcd99yyyzzz85a5',
        apiUrl: 'http://127.0.0.1:4000/api/',
      },
      threads: { follow: 'all' },
      http: { port: 8080, metricsToken: 'm'.repeat(32) },
      redis: { url: 'redis://:pw@redis:6379/2', cluster: false },
      model: {
        provider: 'openai',
        modelId: 'gpt-4.1',
        apiKey: 'sk-proj-1',
        baseURL: 'http://127.0.0.1:5000/v1',
      },
      systemPrompt: 'Be brief.',
      systemPromptSource: 'env',
      ask: {
        timeoutMs: 7_200_000,
        timeoutPolicy: 'no-answer',
        answerers: { mode: 'list', userIds: ['U01AAA'], groupIds: ['S02BBB'] },
        followUp: {
          reminders: [
            { kind: 'fraction', fraction: 0.5 },
            { kind: 'fraction', fraction: 0.9 },
          ],
          escalation: null,
          extendByMs: [900_000, 3_600_000, 14_400_000],
          maxDeadlineMs: 86_400_000,
          overrideWindowMs: 86_400_000,
          quorum: 1,
        },
      },
      api: { tokens: [], webhookSecret: null, mcpDefaultChannel: null, ratePerMinute: 120 },
      role: 'worker',
      log: { level: 'debug' },
      agent: { stepLimit: 5, streamReplies: true },
      worker: { concurrency: 2 },
      shutdown: { timeoutMs: 90_000 },
      file: EMPTY_CONFIG_FILE,
    } satisfies Config);
  });

  it.each([
    [
      'anthropic:claude-sonnet-4-5',
      { ANTHROPIC_API_KEY: 'k' },
      { provider: 'anthropic', modelId: 'claude-sonnet-4-5', apiKey: 'k' },
    ],
    [
      'anthropic:claude-haiku-4-5',
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' },
      { provider: 'anthropic', modelId: 'claude-haiku-4-5', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' },
    ],
    ['openai:gpt-4.1', { OPENAI_API_KEY: 'k' }, { provider: 'openai', modelId: 'gpt-4.1', apiKey: 'k' }],
    [
      'openai-compatible:llama3.1:8b',
      { OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      { provider: 'openai-compatible', modelId: 'llama3.1:8b', baseURL: 'http://localhost:11434/v1' },
    ],
    [
      ' openai-compatible : qwen2.5 ',
      { OPENAI_BASE_URL: 'http://vllm:8000/v1', OPENAI_API_KEY: 'local' },
      { provider: 'openai-compatible', modelId: 'qwen2.5', apiKey: 'local', baseURL: 'http://vllm:8000/v1' },
    ],
  ])('MODEL=%s', (model, extra, expected) => {
    const env = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', MODEL: model, ...extra };
    expect(loadConfig(env).model).toEqual(expected);
  });

  it.each([
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000/api/'],
    ['http://127.0.0.1:4000/', 'http://127.0.0.1:4000/api/'],
    ['http://127.0.0.1:4000/api', 'http://127.0.0.1:4000/api/'],
    ['https://slack.com/api/', 'https://slack.com/api/'],
    ['https://proxy.internal/slack/', 'https://proxy.internal/slack/api/'],
  ])('SLACK_API_URL=%s -> %s', (text, expected) => {
    expect(loadConfig({ ...socketEnv, SLACK_API_URL: text }).slack.apiUrl).toBe(expected);
  });

  it.each([
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['2h', 7_200_000],
    ['1500ms', 1500],
    ['600', 600_000],
    ['1s', 1000],
    ['7d', 604_800_000],
  ])('ASK_TIMEOUT=%s -> %i ms', (text, ms) => {
    expect(loadConfig({ ...socketEnv, ASK_TIMEOUT: text }).ask.timeoutMs).toBe(ms);
  });

  it.each(['recommended-or-first', 'recommended-only', 'no-answer'] as const)(
    'ASK_TIMEOUT_POLICY=%s',
    (policy) => {
      expect(loadConfig({ ...socketEnv, ASK_TIMEOUT_POLICY: policy }).ask.timeoutPolicy).toBe(policy);
    },
  );

  it.each([
    [{}, false],
    [{ REDIS_CLUSTER: 'on' }, true],
    [{ REDIS_CLUSTER: 'OFF' }, false],
  ])('REDIS_CLUSTER %j', (env, cluster) => {
    expect(loadConfig({ ...socketEnv, ...env }).redis.cluster).toBe(cluster);
  });

  it.each([
    [{}, true],
    [{ REPLY_STREAMING: 'off' }, false],
    [{ REPLY_STREAMING: 'On' }, true],
  ])('REPLY_STREAMING %j', (env, streams) => {
    expect(loadConfig({ ...socketEnv, ...env }).agent.streamReplies).toBe(streams);
  });

  it.each(['all', 'web', 'worker'] as const)('ROLE=%s', (role) => {
    expect(loadConfig({ ...socketEnv, ROLE: role }).role).toBe(role);
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({
      ...socketEnv,
      PORT: '',
      ASK_TIMEOUT: '  ',
      SLACK_SIGNING_SECRET: '',
      MODEL: '',
    });
    expect(config.http.port).toBe(3000);
    expect(config.ask.timeoutMs).toBe(1_800_000);
    expect(config.slack.signingSecret).toBeNull();
    expect(config.model.modelId).toBe('claude-sonnet-4-5');
  });

  it('reads SYSTEM_PROMPT_FILE through the given reader', () => {
    const paths: string[] = [];
    const config = loadConfig(
      { ...socketEnv, SYSTEM_PROMPT_FILE: '/etc/holdpoint/prompt.md' },
      {
        readFile: (path) => {
          paths.push(path);
          return '  You are the on-call helper.\n';
        },
      },
    );
    expect(paths).toEqual(['/etc/holdpoint/prompt.md']);
    expect(config.systemPrompt).toBe('You are the on-call helper.');
    expect(config.systemPromptSource).toBe('file');
  });
});

describe('loadConfig: problems', () => {
  it('names a missing SLACK_BOT_TOKEN and a bad ASK_TIMEOUT in one error', () => {
    const error = problemsOf({ SLACK_APP_TOKEN: 'xapp-1', ANTHROPIC_API_KEY: 'k', ASK_TIMEOUT: 'abc' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('config_invalid');
    expect(error.problems.map((problem) => problem.variable)).toEqual(['SLACK_BOT_TOKEN', 'ASK_TIMEOUT']);
    expect(error.message).toContain(
      "SLACK_BOT_TOKEN is missing: set it to the Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page",
    );
    expect(error.message).toContain('ASK_TIMEOUT=abc is not a duration: use e.g. 30m, 90s or 2h');
    expect(error.message.split('\n')[0]).toBe('holdpoint cannot start: 2 configuration problems');
    expect(formatConfigError(error)).toBe(error.message);
    expect(error.fields).toEqual({ problems: error.problems });
  });

  it('lists every required variable of an empty environment', () => {
    expect(problemsOf({}).problems.map((problem) => problem.variable)).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'ANTHROPIC_API_KEY',
    ]);
  });

  it.each<[string, Record<string, string>, string]>([
    ['SLACK_BOT_TOKEN', { SLACK_BOT_TOKEN: 'xoxp-user-token' }, 'SLACK_BOT_TOKEN does not start with xoxb-'],
    ['SLACK_APP_TOKEN', { SLACK_APP_TOKEN: 'xoxb-wrong-kind' }, 'SLACK_APP_TOKEN does not start with xapp-'],
    ['SLACK_API_URL', { SLACK_API_URL: 'slack.com/api' }, 'SLACK_API_URL=<not a URL> is not an http(s) URL'],
    ['PORT', { PORT: '70000' }, 'PORT=70000 is not a whole number from 0 to 65535'],
    ['PORT', { PORT: '3000x' }, 'PORT=3000x is not a whole number from 0 to 65535'],
    ['REDIS_URL', { REDIS_URL: 'http://redis:6379' }, 'REDIS_URL=http://redis:6379 is not a Redis URL'],
    ['REDIS_CLUSTER', { REDIS_CLUSTER: 'yes' }, 'REDIS_CLUSTER=yes is not on or off'],
    ['REPLY_STREAMING', { REPLY_STREAMING: '1' }, 'REPLY_STREAMING=1 is not on or off'],
    ['MODEL', { MODEL: 'claude-sonnet-4-5' }, 'MODEL=claude-sonnet-4-5 is not <provider>:<model id>'],
    ['MODEL', { MODEL: 'gemini:pro' }, 'MODEL=gemini:pro is not <provider>:<model id>'],
    ['MODEL', { MODEL: 'openai:' }, 'MODEL=openai: is not <provider>:<model id>'],
    [
      'ANTHROPIC_BASE_URL',
      { ANTHROPIC_BASE_URL: 'ftp://x' },
      'ANTHROPIC_BASE_URL=ftp://x is not an http(s) URL',
    ],
    [
      'SYSTEM_PROMPT_FILE',
      { SYSTEM_PROMPT: 'a', SYSTEM_PROMPT_FILE: '/p' },
      'SYSTEM_PROMPT and SYSTEM_PROMPT_FILE are both set',
    ],
    [
      'ASK_TIMEOUT',
      { ASK_TIMEOUT: '500ms' },
      'ASK_TIMEOUT=500ms is out of range: use a duration from 1s to 7d',
    ],
    ['ASK_TIMEOUT', { ASK_TIMEOUT: '8d' }, 'ASK_TIMEOUT=8d is out of range'],
    [
      'ASK_TIMEOUT_POLICY',
      { ASK_TIMEOUT_POLICY: 'first' },
      'ASK_TIMEOUT_POLICY=first is not a timeout policy',
    ],
    [
      'ASK_ANSWERERS',
      { ASK_ANSWERERS: 'U01AAA,bob' },
      'ASK_ANSWERERS=U01AAA,bob is not an answerer policy (bob not understood)',
    ],
    ['ASK_MAX_DEADLINE', { ASK_MAX_DEADLINE: 'none' }, 'ASK_MAX_DEADLINE=none: none is not a duration'],
    ['ASK_MAX_DEADLINE', { ASK_MAX_DEADLINE: '10m' }, 'ASK_MAX_DEADLINE=10m is shorter than ASK_TIMEOUT'],
    ['ASK_EXTEND_CHOICES', { ASK_EXTEND_CHOICES: '1h,30d' }, '30d can never be offered'],
    ['ASK_REMINDERS', { ASK_REMINDERS: '120%' }, 'ASK_REMINDERS=120%: 120% is not between 0% and 100%'],
    ['ASK_ESCALATE_TO', { ASK_ESCALATE_AFTER: '20m' }, 'ASK_ESCALATE_AFTER and ASK_ESCALATE_TO go together'],
    ['ROLE', { ROLE: 'both' }, 'ROLE=both is not a role: use all, web, worker'],
    ['THREAD_FOLLOW', { THREAD_FOLLOW: 'always' }, 'THREAD_FOLLOW=always is not a thread rule: use mention'],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL=verbose is not a log level'],
    ['STEP_LIMIT', { STEP_LIMIT: '0' }, 'STEP_LIMIT=0 is not a whole number from 1 to 1000'],
    [
      'WORKER_CONCURRENCY',
      { WORKER_CONCURRENCY: '-1' },
      'WORKER_CONCURRENCY=-1 is not a whole number from 1 to 1000',
    ],
    [
      'SHUTDOWN_TIMEOUT',
      { SHUTDOWN_TIMEOUT: '1h' },
      'SHUTDOWN_TIMEOUT=1h is out of range: use a duration from 1s to 10m',
    ],
  ])('%s: %j', (variable, extra, text) => {
    const error = problemsOf({ ...socketEnv, ...extra });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.variable).toBe(variable);
    expect(error.problems[0]?.message).toContain(text);
  });

  it.each<[string, Record<string, string>, string]>([
    ['openai:gpt-4.1', {}, 'OPENAI_API_KEY'],
    ['openai-compatible:llama3', {}, 'OPENAI_BASE_URL'],
    ['anthropic:claude-sonnet-4-5', { OPENAI_API_KEY: 'k' }, 'ANTHROPIC_API_KEY'],
  ])('MODEL=%s needs %s', (model, extra, variable) => {
    const error = problemsOf({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      MODEL: model,
      ...extra,
    });
    expect(error.problems.map((problem) => problem.variable)).toEqual([variable]);
    expect(error.message).toContain(`${variable} is missing`);
  });

  it('reports an unreadable SYSTEM_PROMPT_FILE with the error code', () => {
    const notFound = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    let caught: unknown;
    try {
      loadConfig(
        { ...socketEnv, SYSTEM_PROMPT_FILE: '/missing.md' },
        {
          readFile: () => {
            throw notFound;
          },
        },
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidConfigError);
    expect((caught as InvalidConfigError).message).toContain(
      'SYSTEM_PROMPT_FILE=/missing.md cannot be read (ENOENT)',
    );
  });

  it('METRICS_TOKEN: at least 32 characters, named without its value when shorter', () => {
    const error = problemsOf({ ...socketEnv, METRICS_TOKEN: 'short-SECRET-metrics' });
    expect(error.problems).toEqual([
      {
        variable: 'METRICS_TOKEN',
        message: 'METRICS_TOKEN is 20 characters; use at least 32 (e.g. openssl rand -hex 32), or unset it',
      },
    ]);
    expect(JSON.stringify({ message: error.message, fields: error.fields })).not.toContain('SECRET');
    expect(loadConfig({ ...socketEnv, METRICS_TOKEN: '  ' }).http.metricsToken).toBeNull();
  });

  it('never puts a secret value in a message', () => {
    const secrets = {
      SLACK_BOT_TOKEN: 'xoxp-SECRET-BOT-0001',
      SLACK_APP_TOKEN: 'SECRET-APP-0002',
      SLACK_SIGNING_SECRET: 'SECRET-SIGNING-0003',
      ANTHROPIC_API_KEY: 'SECRET-ANTHROPIC-0004',
      OPENAI_API_KEY: 'SECRET-OPENAI-0005',
    };
    const error = problemsOf({
      ...secrets,
      MODEL: 'nonsense',
      REDIS_URL: 'http://:SECRET-REDIS-0006@redis:6379',
      OPENAI_BASE_URL: 'ftp://user:SECRET-URL-0007@host/v1',
      ASK_TIMEOUT: 'soon',
    });
    expect(error.problems.length).toBeGreaterThanOrEqual(5);
    const everything = JSON.stringify({
      message: error.message,
      problems: error.problems,
      fields: error.fields,
    });
    for (const value of [...Object.values(secrets), 'SECRET-REDIS-0006', 'SECRET-URL-0007']) {
      expect(everything).not.toContain(value);
    }
    expect(everything).not.toContain('SECRET');
    expect(error.message).toContain('REDIS_URL=http://:***@redis:6379 is not a Redis URL');
  });

  it('HOLDPOINT_CONFIG: the file is read and validated with the environment; each problem names its line', () => {
    const files: Record<string, string> = {
      'good.yaml': 'mcpServers:\n  deploy:\n    command: node\n    env: { T: "${DEPLOY_TOKEN}" }\n',
      'bad.yaml': 'mcpServers:\n  deploy:\n    comand: node\napprovals:\n  - tools: ["deploy.["]\n',
    };
    const readFile = (path: string) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      return text;
    };
    const base = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', ANTHROPIC_API_KEY: 'k' };
    const config = loadConfig({ ...base, HOLDPOINT_CONFIG: 'good.yaml', DEPLOY_TOKEN: 'dt' }, { readFile });
    expect(config.file.mcpServers).toMatchObject([{ name: 'deploy', env: { T: 'dt' } }]);
    expect(loadConfig(base, { readFile }).file).toEqual(EMPTY_CONFIG_FILE);

    const failed = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env }, { readFile });
      } catch (error) {
        if (error instanceof InvalidConfigError) return error.message;
      }
      throw new Error('expected loadConfig to throw');
    };
    const message = failed({ HOLDPOINT_CONFIG: 'bad.yaml' });
    expect(message).toContain('holdpoint cannot start: 3 configuration problems');
    expect(message).toContain('bad.yaml line 3: mcpServers.deploy: unknown key "comand"');
    expect(message).toContain('bad.yaml line 5: approvals[0].tools[0]: "deploy.[" is not a valid glob');
    expect(failed({ HOLDPOINT_CONFIG: 'good.yaml' })).toContain(
      'good.yaml line 4: mcpServers.deploy.env.T: ${DEPLOY_TOKEN} is not set in the environment',
    );
    expect(failed({ HOLDPOINT_CONFIG: 'nope.yaml' })).toContain(
      'HOLDPOINT_CONFIG=nope.yaml cannot be read (ENOENT)',
    );
  });
});
