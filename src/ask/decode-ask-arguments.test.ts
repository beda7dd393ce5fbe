import { describe, expect, it } from 'vitest';
import { decodeAskArguments } from './decode-ask-arguments.js';
import { formatAskError } from './format-ask-error.js';
import type { AskOption, AskQuestion } from './types.js';

const yesNo = [{ label: 'Yes' }, { label: 'No' }];

function option(label: string, extra: Partial<AskOption> = {}): AskOption {
  return { label, description: null, recommended: false, ...extra };
}

function choice(question: string, options: AskOption[], extra: Partial<AskQuestion> = {}): AskQuestion {
  return { header: null, question, kind: 'choice', multiSelect: false, purpose: null, options, ...extra };
}

function decodeOk(raw: unknown) {
  const result = decodeAskArguments(raw);
  if (!result.ok) {
    throw new Error(`expected ok, got ${JSON.stringify(result.issues)}`);
  }
  return result;
}

function decodeError(raw: unknown): string {
  const result = decodeAskArguments(raw);
  if (result.ok) {
    throw new Error(`expected an error, got ${JSON.stringify(result.ask)}`);
  }
  return formatAskError(result.issues);
}

describe('C02: label over the cap, (Recommended) suffix', () => {
  it('(a) strips the suffix before the 48 cap and marks the option recommended', () => {
    const result = decodeOk({
      questions: [
        {
          header: 'Database',
          question: 'Where should the data live?',
          options: [
            { label: 'A new cluster' },
            { label: 'Use the existing Postgres cluster in us-east (Recommended)' },
          ],
        },
      ],
    });
    expect(result.ask.questions[0]?.options).toEqual([
      option('Use the existing Postgres cluster in us-east', { recommended: true }),
      option('A new cluster'),
    ]);
  });

  it('(b) rejects a 61-code-point label naming path, limit and length', () => {
    const text = decodeError({
      questions: [
        {
          header: 'Plan',
          question: 'How should we proceed?',
          options: [
            { label: 'Migrate every service to a new managed database before Friday' },
            { label: 'Wait' },
          ],
        },
      ],
    });
    expect(text).toContain('questions[0].options[0].label');
    expect(text).toContain('48');
    expect(text).toContain('61');
  });

  it('(c) rejects a 70-code-point header naming path, limit and length', () => {
    const text = decodeError({
      questions: [
        {
          header: 'Database migration strategy for the payments service (prod, eu-west-1)',
          question: 'Which strategy?',
          options: yesNo,
        },
      ],
    });
    expect(text).toContain('questions[0].header');
    expect(text).toContain('60');
    expect(text).toContain('70');
  });
});

describe('C20: options as plain strings, mixed with objects', () => {
  it('accepts strings, the suffix on a string, and objects', () => {
    const result = decodeOk({
      questions: [
        {
          question: 'Pick a theme colour',
          header: 'Theme',
          options: ['Crimson', 'Teal (Recommended)', { label: 'Slate', description: 'Neutral grey' }],
        },
      ],
    });
    expect(result.ask.questions).toEqual([
      choice(
        'Pick a theme colour',
        [
          option('Teal', { recommended: true }),
          option('Crimson'),
          option('Slate', { description: 'Neutral grey' }),
        ],
        { header: 'Theme' },
      ),
    ]);
    expect(JSON.stringify(result.ask)).not.toContain('[object Object]');
  });
});

describe('C22: multiSelect missing or renamed, unknown keys', () => {
  const base = {
    question: 'Which checks?',
    header: 'Checks',
    options: [{ label: 'Unit' }, { label: 'Lint' }],
  };
  it.each([
    ['(a) absent', {}, false],
    ['(b) multiple', { multiple: true }, true],
    ['(c) multi_select', { multi_select: true }, true],
    ['(d) allowMultiple', { allowMultiple: true }, true],
    ['(e) "true" string', { multiSelect: 'true' }, true],
    ['(f) canonical false wins over multiple true', { multiSelect: false, multiple: true }, false],
    ['"false" string', { multiSelect: 'FALSE' }, false],
    ['canonical true wins over alias false', { multiSelect: true, multi_select: false }, true],
  ])('%s', (_name, extra, expected) => {
    const result = decodeOk({ questions: [{ ...base, ...extra }] });
    expect(result.ask.questions[0]?.multiSelect).toBe(expected);
  });

  it('lists an alias overridden by the canonical key as ignored', () => {
    const result = decodeOk({ questions: [{ ...base, multiSelect: false, multiple: true }] });
    expect(result.ignoredKeys).toEqual(['questions[0].multiple']);
  });

  it('rejects a multiSelect that is not a boolean', () => {
    const text = decodeError({ questions: [{ ...base, multiSelect: 'sometimes' }] });
    expect(text).toContain('questions[0].multiSelect');
  });

  it('(g) drops extra keys, lists them, and decodes as without them', () => {
    const plain = {
      questions: [
        { header: 'DB', question: 'Which DB?', options: [{ label: 'Postgres' }, { label: 'MySQL' }] },
      ],
    };
    const extra = {
      questions: [
        {
          header: 'DB',
          question: 'Which DB?',
          allow_other: false,
          id: 'q1',
          default: 0,
          options: [{ label: 'Postgres', value: 'pg' }, { label: 'MySQL' }],
        },
      ],
    };
    const withExtra = decodeOk(extra);
    expect(withExtra.ask).toEqual(decodeOk(plain).ask);
    expect(withExtra.ignoredKeys).toEqual([
      'questions[0].allow_other',
      'questions[0].id',
      'questions[0].default',
      'questions[0].options[0].value',
    ]);
  });
});

describe('C23: one question without the envelope', () => {
  const expected = [choice('Which package manager?', [option('npm'), option('pnpm')], { header: 'Pkg' })];
  it('(a) a flat question', () => {
    const result = decodeOk({
      question: 'Which package manager?',
      header: 'Pkg',
      options: [{ label: 'npm' }, { label: 'pnpm' }],
    });
    expect(result.ask.questions).toEqual(expected);
  });

  it('(b) a bare array; without a header the question has none (header null)', () => {
    const result = decodeOk([{ question: 'Which package manager?', options: ['npm', 'pnpm'] }]);
    expect(result.ask.questions).toEqual([{ ...expected[0], header: null }]);
  });

  it('(c) questions as one object', () => {
    const result = decodeOk({
      questions: { question: 'Which package manager?', header: 'Pkg', options: ['npm', 'pnpm'] },
    });
    expect(result.ask.questions).toEqual(expected);
  });
});

describe('C24: model-authored Other options', () => {
  it('(a) drops "Other" and keeps two options', () => {
    const result = decodeOk({
      questions: [
        { question: 'DB?', options: [{ label: 'Postgres' }, { label: 'MySQL' }, { label: 'Other' }] },
      ],
    });
    expect(result.ask.questions[0]?.options?.map((entry) => entry.label)).toEqual(['Postgres', 'MySQL']);
  });

  it('(b) drops "Something else (please specify)" before counting, so 5 options are not rejected', () => {
    const result = decodeOk({
      questions: [
        {
          question: 'Which?',
          options: [
            { label: 'A' },
            { label: 'B' },
            { label: 'C' },
            { label: 'D' },
            { label: 'Something else (please specify)' },
          ],
        },
      ],
    });
    expect(result.ask.questions[0]?.options?.map((entry) => entry.label)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('(c) rejects when fewer than 2 real options remain, explaining Other is automatic', () => {
    const text = decodeError({
      questions: [{ question: 'DB?', options: [{ label: 'Postgres' }, { label: 'Other' }] }],
    });
    expect(text).toContain('questions[0].options');
    expect(text).toContain('give at least 2 real options; an Other choice is added automatically');
  });

  it.each([['None of these'], ['Otherwise, skip it'], ['Others']])('keeps the real option %j', (label) => {
    const result = decodeOk({ questions: [{ question: 'Which?', options: [{ label: 'A' }, { label }] }] });
    expect(result.ask.questions[0]?.options?.map((entry) => entry.label)).toEqual(['A', label]);
  });

  it.each([['other'], ['  OTHER  '], ['Other (type your own)'], ['Other…'], ['Something else']])(
    'drops %j',
    (label) => {
      const result = decodeOk({ questions: [{ question: 'Which?', options: ['A', 'B', label] }] });
      expect(result.ask.questions[0]?.options).toHaveLength(2);
    },
  );
});

describe('C26: empty or blank questions and options, duplicate labels', () => {
  it.each([
    ['(a) no questions', { questions: [] }, 'questions', /at least 1 question/],
    [
      '(c) blank question',
      { questions: [{ question: '   ', options: [{ label: 'A' }, { label: 'B' }] }] },
      'questions[0].question',
      /blank/,
    ],
    [
      '(d) duplicate labels after trim and case-fold',
      { questions: [{ question: 'Proceed?', options: [{ label: 'Yes' }, { label: ' yes ' }] }] },
      'questions[0].options[1].label',
      /unique/,
    ],
    [
      '(e) four questions',
      { questions: [1, 2, 3, 4].map((n) => ({ question: `Q${n}?`, options: yesNo })) },
      'questions',
      /limit is 3/,
    ],
    [
      'one option',
      { questions: [{ question: 'Go?', options: ['Yes'] }] },
      'questions[0].options',
      /2-4 options/,
    ],
    ['missing question text', { questions: [{ options: yesNo }] }, 'questions[0].question', /missing/],
    [
      'blank label',
      { questions: [{ question: 'Go?', options: ['Yes', '  '] }] },
      'questions[0].options[1]',
      /blank/,
    ],
    [
      'label that is only the suffix',
      { questions: [{ question: 'Go?', options: [{ label: 'Yes' }, { label: '(Recommended)' }] }] },
      'questions[0].options[1].label',
      /blank/,
    ],
    [
      'purpose over 200',
      { questions: [{ question: 'Go?', purpose: 'p'.repeat(201), options: yesNo }] },
      'questions[0].purpose',
      /201 code points.*limit is 200/,
    ],
    [
      'question over 200',
      { questions: [{ question: 'q'.repeat(201), options: yesNo }] },
      'questions[0].question',
      /201 code points.*limit is 200/,
    ],
    [
      'options not an array',
      { questions: [{ question: 'Go?', options: 'Yes or No' }] },
      'questions[0].options',
      /must be an array/,
    ],
    [
      'option of the wrong type',
      { questions: [{ question: 'Go?', options: ['Yes', 3] }] },
      'questions[0].options[1]',
      /got a number/,
    ],
    [
      'header of the wrong type',
      { questions: [{ header: 7, question: 'Go?', options: yesNo }] },
      'questions[0].header',
      /must be a string/,
    ],
    ['questions of the wrong type', { questions: 5 }, 'questions', /must be an array/],
    ['questions null', { questions: null }, 'questions', /questions is null/],
    ['a number', 42, '', /must be a JSON object/],
    ['not JSON', '{questions: [oops', '', /not valid JSON/],
    ['questions string not JSON', { questions: '[{oops' }, 'questions', /not valid JSON/],
  ])('%s', (_name, raw, path, pattern) => {
    const result = decodeAskArguments(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues.map((issue) => issue.path)).toContain(path);
      expect(formatAskError(result.issues)).toMatch(pattern);
    }
  });

  it('(b)/(f) an empty or absent options list is a free-text question (cases.json wins over C26 b/f)', () => {
    for (const question of [
      { question: 'Which DB?', header: 'DB', options: [] },
      { question: 'Which DB?', header: 'DB' },
    ]) {
      const result = decodeOk({ questions: [question] });
      expect(result.ask.questions).toEqual([
        {
          header: 'DB',
          question: 'Which DB?',
          kind: 'free_text',
          multiSelect: false,
          purpose: null,
          options: null,
        },
      ]);
    }
  });

  it('reports issues of several questions at once', () => {
    const result = decodeAskArguments({
      questions: [
        { question: ' ', options: yesNo },
        { question: 'Go?', options: ['x'.repeat(49), 'y'] },
      ],
    });
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual([
      'questions[0].question',
      'questions[1].options[0]',
    ]);
  });
});

describe('normalization', () => {
  it('multi-select keeps every recommended option in place', () => {
    const result = decodeOk({
      questions: [
        {
          question: 'Which?',
          multiSelect: true,
          options: ['A', 'B (Recommended)', { label: 'C', recommended: true }],
        },
      ],
    });
    expect(result.ask.questions[0]?.options).toEqual([
      option('A'),
      option('B', { recommended: true }),
      option('C', { recommended: true }),
    ]);
  });

  it('single-select keeps only the first recommended and shows it first', () => {
    const result = decodeOk({
      questions: [
        { question: 'Which?', options: ['A', { label: 'B', recommended: 'true' }, 'C (RECOMMENDED)'] },
      ],
    });
    expect(result.ask.questions[0]?.options).toEqual([
      option('B', { recommended: true }),
      option('A'),
      option('C'),
    ]);
  });

  it('a free-text question is never multi-select', () => {
    const result = decodeOk({ questions: [{ question: 'Ticket?', multiSelect: true }] });
    expect(result.ask.questions[0]).toMatchObject({ kind: 'free_text', multiSelect: false, options: null });
  });

  it('trims text and turns blank header, purpose and description into null', () => {
    const result = decodeOk({
      questions: [
        {
          header: '  ',
          question: ' Go? ',
          purpose: ' ',
          options: [{ label: ' A ', description: '  ' }, 'B'],
        },
      ],
    });
    expect(result.ask.questions).toEqual([choice('Go?', [option('A'), option('B')])]);
  });

  it('counts the 48 cap in code points: 48 emoji are accepted, 49 are not', () => {
    const ok = decodeAskArguments({ questions: [{ question: 'Go?', options: ['🚀'.repeat(48), 'B'] }] });
    expect(ok.ok).toBe(true);
    const tooLong = decodeAskArguments({ questions: [{ question: 'Go?', options: ['🚀'.repeat(49), 'B'] }] });
    expect(tooLong.ok ? null : tooLong.issues[0]).toMatchObject({ rule: 'maxLength', limit: 48, actual: 49 });
  });

  it('accepts double-encoded arguments, a JSON-string item and choices for options', () => {
    const inner = JSON.stringify({
      questions: [JSON.stringify({ question: 'Go?', choices: ['Yes', 'No'] })],
    });
    const result = decodeOk(JSON.stringify(inner));
    expect(result.ask.questions).toEqual([choice('Go?', [option('Yes'), option('No')])]);
  });

  it('lists unknown top-level keys and odd key names', () => {
    const result = decodeOk({ reason: 'x', questions: [{ question: 'Go?', options: yesNo, 'a b': 1 }] });
    expect(result.ignoredKeys).toEqual(['reason', 'questions[0]["a b"]']);
  });

  it('treats empty arguments as missing questions', () => {
    const result = decodeAskArguments('  ');
    expect(result.ok ? [] : result.issues.map((issue) => [issue.path, issue.rule])).toEqual([
      ['questions', 'required'],
    ]);
  });
});
