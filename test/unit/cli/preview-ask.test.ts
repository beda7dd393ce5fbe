/** `holdpoint preview-ask` in process (runCli with an in-memory CliIo). */
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { validateBlocks, validateModalView } from '../../../src/slack/blocks/validate-blocks.js';

function memoryIo(stdin = '', files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    readFile: async (path) => {
      const content = files[path];
      if (content === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return content;
    },
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

interface Element {
  type: string;
  action_id?: string;
  text?: { text: string };
  style?: string;
  value?: string;
}
interface Block {
  type: string;
  block_id?: string;
  text?: { type: string; text: string };
  elements?: Element[];
}

const pkg = {
  questions: [
    {
      header: 'Package manager',
      question: 'Which package manager should the repo use?',
      options: ['npm', 'pnpm (Recommended)', 'yarn'],
      purpose: 'The lockfile I commit depends on it.',
    },
  ],
};

async function preview(argv: string[], stdin: unknown) {
  const memory = memoryIo(typeof stdin === 'string' ? stdin : JSON.stringify(stdin));
  const code = await runCli(['preview-ask', ...argv], memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

/** The mrkdwn texts of the context blocks (context elements are text objects `{type, text}`). */
function contextTexts(blocks: Block[]): string[] {
  return blocks
    .filter((block) => block.type === 'context')
    .flatMap((block) => (block.elements ?? []) as unknown as Array<{ text: string }>)
    .map((element) => element.text);
}

describe('preview-ask', () => {
  it('prints {text, blocks} of the open ask: recommended button first and primary, Other…, timeout line, menu', async () => {
    const run = await preview([], pkg);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const message = JSON.parse(run.stdout) as { text: string; blocks: Block[] };
    expect(Object.keys(message)).toEqual(['text', 'blocks']);
    expect(message.text).toBe('Question from the agent: Which package manager should the repo use?');
    expect(validateBlocks(message.blocks, 'message')).toEqual([]);
    const header = message.blocks.find((block) => block.type === 'header');
    expect(header?.text?.text).toBe('Package manager');
    const actions = message.blocks.find((block) => block.type === 'actions');
    const buttons = (actions?.elements ?? []).map((element) => [element.text?.text, element.style ?? null]);
    expect(buttons).toEqual([
      ['pnpm (recommended)', 'primary'],
      ['npm', null],
      ['yarn', null],
      ['Other…', null],
    ]);
    const questionSection = message.blocks.find((block) => block.type === 'section') as
      | (Block & { accessory?: { type: string; options: Array<{ text: { text: string } }> } })
      | undefined;
    expect(questionSection?.text?.text).toMatch(/\n_Why:_ The lockfile I commit depends on it\.$/);
    // The default menu of a turn's ask: Ask someone else… and Cancel….
    expect(questionSection?.accessory?.type).toBe('overflow');
    expect(questionSection?.accessory?.options.map((option) => option.text.text)).toEqual([
      'Ask someone else…',
      'Cancel…',
    ]);
    expect(contextTexts(message.blocks)).toEqual([
      "⏱ No answer within 30 min? I'll assume *pnpm* and say so.",
    ]);
    // Placeholder ids only; the decoder already moved the recommended option to index 0.
    expect(actions?.elements?.[0]?.value).toBe('v1|preview-turn|preview-ask|0|0');
  });

  it('--timeout and --policy change what the message promises', async () => {
    const noRecommendation = {
      questions: [{ header: 'Region', question: 'Which region?', options: ['eu-west-1', 'us-east-1'] }],
    };
    const byDefault = JSON.parse((await preview(['--timeout', '2h'], noRecommendation)).stdout) as {
      blocks: Block[];
    };
    expect(contextTexts(byDefault.blocks)).toContain(
      "⏱ No answer within 2 h? I'll assume *eu-west-1* and say so.",
    );

    const run = await preview(['--policy', 'recommended-only', '--timeout', '90s'], noRecommendation);
    expect(run.code).toBe(0);
    const onlyRecommended = JSON.parse(run.stdout) as { blocks: Block[] };
    expect(contextTexts(onlyRecommended.blocks)).toContain(
      "⏱ No answer within 1 min 30 s? I'll go on without an answer and say so.",
    );
  });

  it('renders multi-select as checkboxes plus Submit and free text as Answer', async () => {
    const run = await preview([], {
      questions: [
        {
          header: 'Checks',
          question: 'Which checks?',
          options: ['lint', 'types', 'tests'],
          multiSelect: true,
        },
        { header: 'Ticket', question: 'Which ticket?' },
      ],
    });
    expect(run.code).toBe(0);
    const message = JSON.parse(run.stdout) as { text: string; blocks: Block[] };
    expect(message.text).toBe('Question from the agent: Which checks? (+1 more)');
    expect(validateBlocks(message.blocks, 'message')).toEqual([]);
    const controls = message.blocks
      .filter((block) => block.type === 'actions' && block.block_id?.endsWith('.act'))
      .map((block) => (block.elements ?? []).map((element) => element.text?.text ?? element.type));
    expect(controls).toEqual([['checkboxes', 'Submit', 'Other…'], ['Answer']]);
  });

  it('--modal N prints the answer modal of question N (1-based)', async () => {
    const twoQuestions = {
      questions: [...pkg.questions, { header: 'Ticket', question: 'Which ticket should I link?' }],
    };
    const first = await preview(['--modal', '1'], twoQuestions);
    expect(first.code).toBe(0);
    const otherModal = JSON.parse(first.stdout) as { type: string; title: { text: string } };
    expect(validateModalView(otherModal)).toEqual([]);
    expect(otherModal.type).toBe('modal');
    expect(otherModal.title.text).toBe('Other answer');

    const second = await preview(['--modal', '2', '-'], twoQuestions);
    const answerModal = JSON.parse(second.stdout) as { title: { text: string }; private_metadata: string };
    expect(answerModal.title.text).toBe('Answer');
    expect(JSON.parse(answerModal.private_metadata)).toMatchObject({ askId: 'preview-ask', q: 1 });

    const missing = await preview(['--modal', '3'], twoQuestions);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('holdpoint preview-ask: --modal 3: the ask has 2 questions\n');
  });

  it('prints exactly what check-ask prints for invalid arguments, exit 1', async () => {
    for (const input of [
      { questions: [] },
      '{not json',
      { questions: [{ question: 'Q?', options: ['only'] }] },
    ]) {
      const text = typeof input === 'string' ? input : JSON.stringify(input);
      const run = await preview([], text);
      const check = memoryIo(text);
      expect(await runCli(['check-ask'], check.io)).toBe(1);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(check.stdout());
      expect(run.stdout).toContain('ask_question was not called correctly');
    }
  });

  it('reads a file', async () => {
    const memory = memoryIo('', { 'ask.json': JSON.stringify(pkg) });
    expect(await runCli(['preview-ask', 'ask.json'], memory.io)).toBe(0);
    expect(JSON.parse(memory.stdout())).toHaveProperty('blocks');
  });

  it.for([
    [['--timeout', 'soon'], '--timeout "soon" is not a duration from 1s to 7d'],
    [['--timeout', '8d'], '--timeout "8d" is not a duration'],
    [
      ['--policy', 'maybe'],
      '--policy "maybe" is not a timeout policy: use recommended-or-first, recommended-only, no-answer',
    ],
    [['--modal', '0'], '--modal "0" is not a question number'],
    [['--color'], "Unknown option '--color'"],
    [['a.json', 'b.json'], 'expected at most one FILE, got 2'],
  ] as const)('usage error %j: exit 2, one message and the usage', async ([argv, message]) => {
    const run = await preview([...argv], pkg);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`holdpoint preview-ask: ${message}`);
    expect(run.stderr).toContain('Usage: holdpoint preview-ask');
  });

  it('reports an unreadable file on one line, exit 2', async () => {
    const memory = memoryIo();
    expect(await runCli(['preview-ask', 'missing.json'], memory.io)).toBe(2);
    expect(memory.stderr()).toBe(
      "holdpoint preview-ask: cannot read missing.json: ENOENT: no such file or directory, open 'missing.json'\n",
    );
  });
});
