/**
 * `npm run demo` (scripts/demo.ts) as a new user runs it: without redis-server, on the timeout path, and
 * with `--keep` stopped by a signal.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CapturedChild, captureChild } from '../support/child-output.js';
import { repoRoot, STACK_TRACE } from '../unit/cli/holdpoint-process.js';

/** The environment without REDIS_URL, so the demo starts its own redis-server. */
function demoEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { REDIS_URL: _unset, ...rest } = process.env;
  return { ...rest, ...extra };
}

function startDemo(args: readonly string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/demo.ts'), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  const captured = captureChild(child);
  void captured.closed.then(() => clearTimeout(timer));
  return { child, captured };
}

async function waitForOutput(captured: CapturedChild, text: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!captured.stdout().includes(text)) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`no "${text}" within ${timeoutMs} ms:\n${captured.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

const RAW_TOKENS = /<@U|<!date\^|<!subteam\^|&lt;|&gt;|&amp;/;

describe('npm run demo', () => {
  const bare = mkdtempSync(join(tmpdir(), 'holdpoint-demo-path-'));
  afterAll(() => rmSync(bare, { recursive: true, force: true }));

  it('without redis-server on PATH (and no REDIS_URL): one line saying what to install, exit 1', async () => {
    // PATH holds node and nothing else, wherever redis-server lives on this machine.
    symlinkSync(process.execPath, join(bare, 'node'));
    const { captured } = startDemo([], demoEnv({ PATH: bare }));
    const end = await captured.closed;
    expect(end.code).toBe(1);
    expect(captured.stdout()).toBe('');
    const lines = captured
      .stderr()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('needs redis-server on PATH');
    expect(lines[0]).toContain('sudo apt-get install redis-server');
    expect(captured.stderr()).not.toMatch(STACK_TRACE);
  });

  it('--timeout: nobody clicks, the ask resolves by its recommended option and the model is told it was assumed', async () => {
    const { captured } = startDemo(['--timeout'], demoEnv());
    const end = await captured.closed;
    expect(end.code, captured.output()).toBe(0);
    const out = captured.stdout();
    expect(out).toContain('nobody clicks');
    expect(out).not.toContain('bob clicks "Hotfix forward"');
    expect(out).toContain('⏱ No answer in 5 s: assumed *Roll back to v2.14.3*');
    expect(out).toMatch(
      /"Roll back to v2\.14\.3": NOBODY answered within the time limit.*This is an assumption/,
    );
    expect(out).toContain('rolling back to v2.14.3');
    expect(out).not.toMatch(RAW_TOKENS);
  });

  it.for(['SIGTERM', 'SIGINT'] as const)(
    '--keep: %s stops it, its redis-server included; the output shows @bob and local times, not tokens',
    async (signal) => {
      const { child, captured } = startDemo(['--keep'], demoEnv());
      await waitForOutput(captured, 'Still running', 40_000);
      const port = Number(/\(Redis redis:\/\/127\.0\.0\.1:(\d+),/.exec(captured.stdout())?.[1]);
      expect(port).toBeGreaterThan(0);
      expect(await listening(port)).toBe(true);
      const out = captured.stdout();
      expect(out).toContain('✅ *Hotfix forward* — chosen by @bob');
      expect(out).toContain('✅ Approved by @bob');
      expect(out).toMatch(/No answer by \d{4}-\d\d-\d\d \d\d:\d\d \S+ \(in 30 min\)\?/);
      expect(out).not.toMatch(RAW_TOKENS);

      child.kill(signal);
      const end = await captured.closed;
      expect(end, captured.output()).toEqual({ code: 0, signal: null });
      expect(await listening(port)).toBe(false);
    },
  );
});
