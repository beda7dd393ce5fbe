/**
 * Runs `holdpoint` as a real process for the CLI process tests: `node dist/src/cli.js` when the build is
 * there and not older than the sources (CI builds before testing; starting the built file is about
 * 3x faster than the tsx loader), else `node --import tsx src/cli.ts`. `HOLDPOINT_TEST_CLI=dist|tsx`
 * forces one; `HOLDPOINT_TEST_CLI=/abs/path/cli.js` runs another build (e.g. one compiled to a scratch
 * directory, to test the built CLI without touching the shared dist/).
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureChild } from '../../support/child-output.js';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** A finished process run. */
export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Matches the marks of a stack trace or an uncaught error in output. */
export const STACK_TRACE = /\n\s+at .+\(|node:internal|Error: |^\s+at /m;

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (/\.(ts|lua)$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Which entry point the process tests use, decided once per test file. */
export function cliEntry(): { mode: 'dist' | 'tsx'; args: string[] } {
  const forced = process.env.HOLDPOINT_TEST_CLI;
  if (forced?.endsWith('.js')) return { mode: 'dist', args: [forced] };
  const dist = join(repoRoot, 'dist/src/cli.js');
  let useDist = forced === 'dist';
  if (forced === undefined || forced === '') {
    try {
      useDist = statSync(dist).mtimeMs >= newestSourceMtime(join(repoRoot, 'src'));
    } catch {
      useDist = false;
    }
  }
  return useDist
    ? { mode: 'dist', args: [dist] }
    : { mode: 'tsx', args: ['--import', 'tsx', join(repoRoot, 'src/cli.ts')] };
}

/** Options of {@link runHoldpoint}. */
export interface RunOptions {
  /** Text written to stdin (then closed). Default: empty. */
  stdin?: string;
  /** The whole environment of the child (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** Kill with SIGKILL after this many ms. Default 30 000. */
  timeoutMs?: number;
}

/** Runs `holdpoint <args>` to completion. */
export function runHoldpoint(args: readonly string[], options: RunOptions = {}): Promise<ProcessRun> {
  const entry = cliEntry();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry.args, ...args], {
      cwd: repoRoot,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const captured = captureChild(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    void captured.closed.then(({ code, signal }) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: captured.stdout(), stderr: captured.stderr() });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}
