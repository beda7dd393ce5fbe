import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { captureChild } from '../../support/child-output.js';
import {
  postToSlackApp,
  type SignedSlackRequest,
  type SlackAppResponse,
} from '../../support/slack-payloads.js';
import { assertBuilt, MAIN_JS, REPO_ROOT } from './built-app.js';

/** How a child process ended. */
export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One pino JSON line of the app's stdout (`level` is pino's number: 30 info, 40 warn, 50 error, 60 fatal). */
export interface AppLogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A running `node dist/src/main.js`. */
export interface ProductionApp {
  /** The HTTP port (`PORT`) it listens on. */
  port: number;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  child: ChildProcess;
  /** Resolves when the process ends. */
  exited: Promise<AppExit>;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its parsed JSON log lines so far. */
  logs(): AppLogLine[];
  /** Resolves with the first log line (past or future) matching; rejects after `timeoutMs`. */
  waitForLog(predicate: (line: AppLogLine) => boolean, timeoutMs?: number): Promise<AppLogLine>;
  /** POSTs a signed Slack request to `/slack/events`. */
  send(request: SignedSlackRequest): Promise<SlackAppResponse>;
  /** GETs a path (e.g. `/readyz`) and returns the status and body. */
  get(path: string): Promise<{ status: number; body: string }>;
  /** Sends a signal (default SIGTERM) and waits for the exit (SIGKILL after `killAfterMs`, default 10 000). */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<AppExit>;
}

/**
 * The environment of a child process: only `PATH` and `HOME` of this process (so that no `REDIS_URL`,
 * `MODEL` or key of the test runner leaks in), plus `env`.
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, NODE_ENV: 'production', ...env };
}

function parseLines(text: string): AppLogLine[] {
  const lines: AppLogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed === 'object' && parsed !== null && 'msg' in parsed && 'level' in parsed) {
        lines.push(parsed as AppLogLine);
      }
    } catch {
      // not a log line
    }
  }
  return lines;
}

/** Spawns `node dist/src/main.js` with exactly `env` (see {@link childEnv}). */
function spawnApp(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<AppExit>;
  output(): string;
} {
  assertBuilt();
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { exited, output } = captureChild(child);
  return { child, exited, output };
}

/**
 * Runs the built app to its end (for start-up failures) and returns its exit and output.
 * @throws Error when it is still running after `timeoutMs` (default 15 000; it is then killed).
 */
export async function runProductionAppToExit(
  env: Record<string, string>,
  timeoutMs = 15_000,
): Promise<AppExit & { stdout: string; stderr: string }> {
  const { child, exited } = spawnApp(env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exited;
  clearTimeout(timer);
  if (exit.signal === 'SIGKILL') {
    throw new Error(`the app did not exit within ${timeoutMs} ms:\n${stdout}\n${stderr}`);
  }
  return { ...exit, stdout, stderr };
}

/**
 * Starts the built app as production starts it (`node dist/src/main.js`, configured only through the
 * environment) and waits until `GET /readyz` answers 200.
 * @param env the whole configuration; must include `PORT` (a free port: `PORT=0` cannot be reached from here).
 * @throws Error with the app's output when it exits or is not ready within `readyTimeoutMs` (default 20 000).
 */
export async function startProductionApp(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; waitReady?: boolean } = {},
): Promise<ProductionApp> {
  const port = Number(env.PORT);
  if (!Number.isInteger(port) || port <= 0)
    throw new Error('startProductionApp needs PORT set to a free port');
  const baseUrl = `http://127.0.0.1:${port}`;
  const { child, exited, output } = spawnApp(env);
  let exit: AppExit | null = null;
  void exited.then((value) => {
    exit = value;
  });

  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.text() };
  };

  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  const started = Date.now();
  const wanted = options.waitReady === false ? '/healthz' : '/readyz';
  for (;;) {
    if (exit !== null) {
      throw new Error(`the app exited during start-up (${JSON.stringify(exit)}):\n${output()}`);
    }
    try {
      if ((await get(wanted)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > readyTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the app was not ready (${wanted}) within ${readyTimeoutMs} ms:\n${output()}`);
    }
    await sleep(50);
  }

  const logs = () => parseLines(output());
  return {
    port,
    baseUrl,
    child,
    exited,
    output,
    logs,
    async waitForLog(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = logs().find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no matching log line within ${timeoutMs} ms:\n${output()}`);
        await sleep(25);
      }
    },
    send: (request) => postToSlackApp(`${baseUrl}/slack/events`, request),
    get,
    async stop(signal = 'SIGTERM', killAfterMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
