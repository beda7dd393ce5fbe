/**
 * `holdpoint preview-ask`, `serve` and `worker` as processes (dist build when fresh, else tsx).
 * preview-ask's JSON is posted to the fake Slack Web API, which rejects Block Kit that Slack would reject.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureChild } from '../support/child-output.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { freePort } from '../support/redis-server.js';
import { cliEntry, repoRoot, runHoldpoint, STACK_TRACE } from '../unit/cli/holdpoint-process.js';

let slack: FakeSlack;

beforeAll(async () => {
  slack = await startFakeSlack();
});

afterAll(async () => {
  await slack?.close();
});

const twoQuestions = {
  questions: [
    {
      header: 'Deploy <!channel>',
      question: 'Ship to which environment? & why <@U123>',
      options: [
        { label: 'staging', description: 'Safe; resets nightly.', recommended: true },
        { label: 'production', description: 'Customers see it at once.' },
      ],
      purpose: 'The release notes depend on it.',
    },
    {
      header: 'Checks',
      question: 'Which checks must pass first?',
      options: ['lint', 'types', 'tests'],
      multiple: true,
    },
  ],
};

describe('holdpoint --version as a process', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const run = await runHoldpoint([flag]);
      expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('holdpoint preview-ask as a process', () => {
  it('prints a message the (fake) Slack accepts as is', async () => {
    const run = await runHoldpoint(['preview-ask', '-'], { stdin: JSON.stringify(twoQuestions) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const message = JSON.parse(run.stdout) as { text: string; blocks: unknown[] };
    // Model text is inert: no live mention tokens anywhere in the JSON.
    expect(run.stdout).not.toContain('<!channel>');
    expect(run.stdout).not.toContain('<@U123>');
    const client = new WebClient(slack.botToken, { slackApiUrl: slack.url });
    const posted = await client.chat.postMessage({
      channel: 'C0PREVIEW',
      text: message.text,
      blocks: message.blocks as never,
    });
    expect(posted.ok).toBe(true);
    expect(slack.callsTo('chat.postMessage').at(-1)?.status).toBe(200);
  });

  it('prints the error tool result for invalid arguments: exit 1, nothing on stderr', async () => {
    const run = await runHoldpoint(['preview-ask'], {
      stdin: '{"questions": [{"question": "Q?", "options": ["one"]}]}',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('ask_question was not called correctly');
    expect(run.stdout).toContain('questions[0].options');
    expect(run.stdout).not.toMatch(STACK_TRACE);
  });
});

describe('holdpoint serve and worker as processes', () => {
  it('serve: a missing SLACK_BOT_TOKEN and a bad ASK_TIMEOUT give one message naming both, exit 1', async () => {
    const run = await runHoldpoint(['serve'], {
      env: { PATH: process.env.PATH, SLACK_APP_TOKEN: 'xapp-1', ANTHROPIC_API_KEY: 'k', ASK_TIMEOUT: 'soon' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('holdpoint cannot start: 2 configuration problems');
    expect(run.stderr).toContain('SLACK_BOT_TOKEN');
    expect(run.stderr).toContain('ASK_TIMEOUT');
    expect(run.stderr).not.toMatch(STACK_TRACE);
  });

  it('serve and worker take no arguments: exit 2', async () => {
    const run = await runHoldpoint(['worker', '--now']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'holdpoint worker: takes no arguments (configure it with environment variables)\n',
    );
  });

  it('worker: runs as ROLE=worker whatever ROLE says, serves /healthz, exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...cliEntry().args, 'worker'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        ROLE: 'web',
        PORT: String(port),
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_SIGNING_SECRET: 'worker-test-secret',
        SLACK_API_URL: slack.url,
        REDIS_URL: testRedisUrl(),
        ANTHROPIC_API_KEY: 'unused',
        LOG_LEVEL: 'info',
        HOLDPOINT_TEST_QUEUE_PREFIX: uniquePrefix('cliq'),
        HOLDPOINT_TEST_STORE_PREFIX: uniquePrefix('clis'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { stdout, stderr, exited } = captureChild(child);
    try {
      const started = Date.now();
      while (!stdout().includes('holdpoint is running')) {
        if (child.exitCode !== null) throw new Error(`worker exited early: ${stderr()}${stdout()}`);
        if (Date.now() - started > 20_000)
          throw new Error(`worker did not start in 20 s: ${stderr()}${stdout()}`);
        await sleep(50);
      }
      const running = stdout()
        .split('\n')
        .filter((line) => line.includes('holdpoint is running'))
        .map((line) => JSON.parse(line) as { role?: string; port?: number });
      expect(running[0]).toMatchObject({ role: 'worker', port });
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      // No Slack receiver in the worker role.
      const events = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '{}' });
      expect(events.status).toBe(404);
      child.kill('SIGTERM');
      expect((await exited).code).toBe(0);
      expect(stderr()).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
