import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { askToolDefinitionFor } from '../ask/ask-schema.js';
import type { CliIo } from './cli-io.js';
import type { CliCommand } from './commands.js';
import { runCli } from './run-cli.js';
import { toolSchemaCommand } from './tool-schema-command.js';

/** A CliIo that records output and serves stdin and files from memory. */
function memoryIo(stdin = '', files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    readFile: async (path) => {
      const content = files[path];
      if (content === undefined) {
        throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      }
      return content;
    },
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

const validArgs = JSON.stringify({
  questions: [
    { header: 'Pkg', question: 'Which package manager?', options: ['npm', 'pnpm (Recommended)'], id: 'q1' },
  ],
});

describe('runCli', () => {
  it('prints usage for no arguments and for help', async () => {
    for (const argv of [[], ['help'], ['--help']]) {
      const memory = memoryIo();
      expect(await runCli(argv, memory.io)).toBe(0);
      expect(memory.stdout()).toContain('Usage: holdpoint <command>');
      expect(memory.stdout()).toContain('check-ask');
      expect(memory.stdout()).toContain('tool-schema');
    }
  });

  it('prints a command usage for help <command>', async () => {
    const memory = memoryIo();
    expect(await runCli(['help', 'check-ask'], memory.io)).toBe(0);
    expect(memory.stdout()).toContain('holdpoint check-ask [FILE|-]');
  });

  it.for(['--version', '-v'])('%s prints the version of package.json, exit 0', async (flag) => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const memory = memoryIo();
    expect(await runCli([flag], memory.io)).toBe(0);
    expect(memory.stdout()).toBe(`${version}\n`);
    expect(memory.stderr()).toBe('');
  });

  it('says so in one line, exit 2, when the version cannot be read', async () => {
    const memory = memoryIo();
    expect(await runCli(['--version'], memory.io, undefined, () => null)).toBe(2);
    expect(memory.stderr()).toBe(
      'holdpoint: cannot read its version (no package.json named holdpoint above the program)\n',
    );
    expect(memory.stdout()).toBe('');
  });

  it('lists --version in the usage', async () => {
    const memory = memoryIo();
    await runCli([], memory.io);
    expect(memory.stdout()).toContain('--version, -v');
  });

  it('rejects an unknown command with exit 2', async () => {
    const memory = memoryIo();
    expect(await runCli(['nope'], memory.io)).toBe(2);
    expect(memory.stderr()).toContain('unknown command "nope"');
  });

  it('turns a thrown error into one line and exit 2', async () => {
    const failing: CliCommand = {
      summary: 'fails',
      usage: 'holdpoint fail',
      run: async () => {
        throw new Error('boom\nat somewhere');
      },
    };
    const memory = memoryIo();
    expect(await runCli(['fail'], memory.io, { fail: failing })).toBe(2);
    expect(memory.stderr()).toBe('holdpoint fail: boom at somewhere\n');
  });
});

describe('check-ask', () => {
  it('prints the normalized ask from stdin, exit 0, and the ignored-keys note on stderr', async () => {
    const memory = memoryIo(validArgs);
    expect(await runCli(['check-ask', '-'], memory.io)).toBe(0);
    expect(JSON.parse(memory.stdout())).toEqual({
      questions: [
        {
          header: 'Pkg',
          question: 'Which package manager?',
          kind: 'choice',
          multiSelect: false,
          purpose: null,
          options: [
            { label: 'pnpm', description: null, recommended: true },
            { label: 'npm', description: null, recommended: false },
          ],
        },
      ],
    });
    expect(memory.stderr()).toContain('were ignored: questions[0].id');
  });

  it('reads a file', async () => {
    const memory = memoryIo('', { 'args.json': validArgs });
    expect(await runCli(['check-ask', 'args.json'], memory.io)).toBe(0);
  });

  it('treats a JSON string as arguments that arrived as a string', async () => {
    const memory = memoryIo(JSON.stringify(validArgs));
    expect(await runCli(['check-ask'], memory.io)).toBe(0);
  });

  it('prints the error tool result and exits 1 for invalid arguments', async () => {
    const memory = memoryIo(JSON.stringify({ questions: [] }));
    expect(await runCli(['check-ask'], memory.io)).toBe(1);
    expect(memory.stdout()).toContain('ask_question was not called correctly');
    expect(memory.stdout()).toContain('questions');
    expect(memory.stdout()).toContain('Call ask_question again with corrected arguments, for example:');
  });

  it('exits 1 for text that is not JSON', async () => {
    const memory = memoryIo('{questions: [oops');
    expect(await runCli(['check-ask'], memory.io)).toBe(1);
    expect(memory.stdout()).toContain('not valid JSON');
  });

  it('exits 2 with one line for an unreadable file', async () => {
    const memory = memoryIo();
    expect(await runCli(['check-ask', 'missing.json'], memory.io)).toBe(2);
    expect(memory.stderr()).toBe(
      "holdpoint check-ask: cannot read missing.json: ENOENT: no such file or directory, open 'missing.json'\n",
    );
  });

  it('exits 2 for more than one file', async () => {
    const memory = memoryIo();
    expect(await runCli(['check-ask', 'a', 'b'], memory.io)).toBe(2);
  });
});

describe('tool-schema', () => {
  it('prints {name, description, inputSchema}', async () => {
    const memory = memoryIo();
    expect(await runCli(['tool-schema'], memory.io)).toBe(0);
    const definition = JSON.parse(memory.stdout()) as Record<string, unknown>;
    expect(Object.keys(definition)).toEqual(['name', 'description', 'inputSchema']);
    expect(definition.name).toBe('ask_question');
  });

  const NO_ANSWER = 'the question resolves to no answer (no option is picked for you)';
  const RECOMMENDED_ONLY = 'or to no answer when none is recommended';
  const OR_FIRST = 'resolves to its recommended option (else its first option)';
  it.for([
    ['no setting: the default', {}, [], 'recommended-or-first', OR_FIRST],
    [
      'a blank ASK_TIMEOUT_POLICY counts as unset',
      { ASK_TIMEOUT_POLICY: '  ' },
      [],
      'recommended-or-first',
      OR_FIRST,
    ],
    ['ASK_TIMEOUT_POLICY', { ASK_TIMEOUT_POLICY: 'no-answer' }, [], 'no-answer', NO_ANSWER],
    [
      'ASK_TIMEOUT_POLICY in capitals',
      { ASK_TIMEOUT_POLICY: 'Recommended-Only' },
      [],
      'recommended-only',
      RECOMMENDED_ONLY,
    ],
    [
      '--policy over ASK_TIMEOUT_POLICY',
      { ASK_TIMEOUT_POLICY: 'no-answer' },
      ['--policy', 'recommended-only'],
      'recommended-only',
      RECOMMENDED_ONLY,
    ],
  ] as const)('describes the timeout the model gets: %s', async ([, env, argv, policy, sentence]) => {
    const memory = memoryIo();
    const table = { 'tool-schema': toolSchemaCommand(env) };
    expect(await runCli(['tool-schema', ...argv], memory.io, table)).toBe(0);
    const definition = JSON.parse(memory.stdout()) as { description: string };
    expect(definition).toEqual(askToolDefinitionFor(policy));
    expect(definition.description).toContain(sentence);
    for (const other of [NO_ANSWER, RECOMMENDED_ONLY, OR_FIRST].filter((text) => text !== sentence))
      expect(definition.description).not.toContain(other);
  });

  it.for([
    [{ ASK_TIMEOUT_POLICY: 'first' }, [], 'ASK_TIMEOUT_POLICY="first" is not a timeout policy'],
    [{}, ['--policy', 'never'], '--policy="never" is not a timeout policy'],
    [{}, ['extra'], 'takes no arguments but --policy'],
  ] as const)('refuses %j %j with one line and exit 2', async ([env, argv, message]) => {
    const memory = memoryIo();
    expect(await runCli(['tool-schema', ...argv], memory.io, { 'tool-schema': toolSchemaCommand(env) })).toBe(
      2,
    );
    expect(memory.stderr()).toContain(message);
    expect(memory.stdout()).toBe('');
  });
});
