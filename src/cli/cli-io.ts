import { readFile } from 'node:fs/promises';

/** What a CLI command may touch: output streams and input sources. Tests pass a recording fake. */
export interface CliIo {
  /** Writes text to standard output as is (add the newline yourself). */
  stdout(text: string): void;
  /** Writes text to standard error as is (add the newline yourself). */
  stderr(text: string): void;
  /** Reads all of standard input as UTF-8. */
  readStdin(): Promise<string>;
  /**
   * Reads a file as UTF-8.
   * @throws the file system error (e.g. `ENOENT`) when it cannot be read
   */
  readFile(path: string): Promise<string>;
}

/** The real process streams and file system. */
export function nodeCliIo(): CliIo {
  return {
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    readFile: (path) => readFile(path, 'utf8'),
  };
}
