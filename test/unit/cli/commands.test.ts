/** The command table and `holdpoint help` for the commands added in issues 4 and 5. */
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { commands } from '../../../src/cli/commands.js';
import { runCli } from '../../../src/cli/run-cli.js';

function memoryIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => '',
    readFile: async () => '',
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('holdpoint command table', () => {
  it('lists the process commands first, then the tools', () => {
    expect(Object.keys(commands)).toEqual([
      'serve',
      'worker',
      'doctor',
      'check-ask',
      'preview-ask',
      'tool-schema',
      'ask',
    ]);
  });

  it.for([
    ['serve', 'holdpoint serve'],
    ['worker', 'holdpoint worker'],
    ['doctor', 'holdpoint doctor'],
    ['preview-ask', 'holdpoint preview-ask [--timeout 30m]'],
  ] as const)('help %s prints its usage', async ([name, usage]) => {
    const memory = memoryIo();
    expect(await runCli(['help', name], memory.io)).toBe(0);
    expect(memory.stdout().startsWith(`Usage: ${usage}`)).toBe(true);
  });

  it.for(['serve', 'worker', 'doctor'])(
    '%s refuses arguments with exit 2 before doing anything',
    async (name) => {
      const memory = memoryIo();
      expect(await runCli([name, 'extra'], memory.io)).toBe(2);
      expect(memory.stderr()).toMatch(new RegExp(`^holdpoint ${name}: takes no arguments`));
      expect(memory.stdout()).toBe('');
    },
  );
});
