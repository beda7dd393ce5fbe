import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { captureChild } from './child-output.js';

const WORKER_SCRIPT = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/** A worker child process started by {@link startWorkerProcess}. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the exit code or signal when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  /** SIGTERM, then SIGKILL after 5000 ms. */
  stop(): Promise<void>;
}

/**
 * Starts test/support/worker-process.ts under tsx with the given environment and resolves once it
 * printed `ready` (or once it exited, for one-shot answer processes).
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  waitFor: 'ready' | 'exit' = 'ready',
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = captureChild(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker process did not start: ${output()}`)), 30_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    if (waitFor === 'ready') {
      child.stdout?.on('data', () => {
        if (output().includes('ready')) done();
      });
    }
    void exited.then(done);
  });
  return {
    child,
    exited,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
