import type { ChildProcess } from 'node:child_process';

/** What a child process printed, and how it ended (see {@link captureChild}). */
export interface CapturedChild {
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** stdout and stderr together, in the order the chunks arrived. */
  output(): string;
  /** Resolves with the exit code or signal once the process exited (its output may still be arriving). */
  exited: Promise<ChildEnd>;
  /** Resolves once the process exited and its stdio closed: all output is in. */
  closed: Promise<ChildEnd>;
}

/** How a child process ended. */
export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Collects a child's stdout and stderr (spawned with `stdio` pipes) as UTF-8 text, and its exit. */
export function captureChild(child: ChildProcess): CapturedChild {
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = new Promise<ChildEnd>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const closed = new Promise<ChildEnd>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { stdout: () => stdout, stderr: () => stderr, output: () => output, exited, closed };
}
