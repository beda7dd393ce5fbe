import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointLength } from './code-points.js';
import { decodeAskArguments } from './decode-ask-arguments.js';
import { formatAskError } from './format-ask-error.js';
import type { NormalizedAsk } from './types.js';
import { ASK_LIMITS } from './types.js';

/** Asserts every cap and normalization rule of a decoded ask. */
function assertWithinCaps(ask: NormalizedAsk): void {
  expect(ask.questions.length).toBeGreaterThanOrEqual(ASK_LIMITS.minQuestions);
  expect(ask.questions.length).toBeLessThanOrEqual(ASK_LIMITS.maxQuestions);
  for (const question of ask.questions) {
    const texts: [string | null, number][] = [
      [question.header, ASK_LIMITS.headerMax],
      [question.question, ASK_LIMITS.questionMax],
      [question.purpose, ASK_LIMITS.purposeMax],
    ];
    for (const [text, max] of texts) {
      if (text !== null) {
        expect(text).toBe(text.trim());
        expect(codePointLength(text)).toBeGreaterThanOrEqual(1);
        expect(codePointLength(text)).toBeLessThanOrEqual(max);
      }
    }
    if (question.kind === 'free_text') {
      expect(question.options).toBeNull();
      expect(question.multiSelect).toBe(false);
      continue;
    }
    const options = question.options ?? [];
    expect(options.length).toBeGreaterThanOrEqual(ASK_LIMITS.minOptions);
    expect(options.length).toBeLessThanOrEqual(ASK_LIMITS.maxOptions);
    const folded = new Set(options.map((option) => option.label.normalize('NFC').toLowerCase()));
    expect(folded.size).toBe(options.length);
    for (const option of options) {
      expect(option.label).toBe(option.label.trim());
      expect(codePointLength(option.label)).toBeGreaterThanOrEqual(1);
      expect(codePointLength(option.label)).toBeLessThanOrEqual(ASK_LIMITS.labelMax);
      expect(option.label).not.toMatch(/^(other|something else)\b/i);
      expect(option.label).not.toMatch(/\(\s*recommended\s*\)\s*$/i);
      if (option.description !== null) {
        expect(codePointLength(option.description)).toBeGreaterThanOrEqual(1);
        expect(codePointLength(option.description)).toBeLessThanOrEqual(ASK_LIMITS.descriptionMax);
      }
    }
    if (!question.multiSelect) {
      const recommended = options.filter((option) => option.recommended);
      expect(recommended.length).toBeLessThanOrEqual(1);
      if (recommended.length === 1) {
        expect(options[0]?.recommended).toBe(true);
      }
    }
  }
}

/** Text near the caps, with spaces, emoji, combining marks and Other-like words. */
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', '  ', 'Other', 'other: type it', 'Something else', 'None of these', 'A', 'a', ' A '),
  fc
    .constantFrom('🚀', 'é', 'e\u0301', ' (Recommended)', 'x')
    .chain((unit) => fc.integer({ min: 0, max: 210 }).map((count) => unit.repeat(count))),
  fc
    .tuple(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom('', ' (Recommended)', ' (recommended) '),
    )
    .map(([head, tail]) => head + tail),
);
const flag = fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 'yes', 1, null));

const optionArbitrary = fc.oneof(
  text,
  fc.record(
    { label: text, description: fc.oneof(text, fc.constant(null)), recommended: flag, value: fc.string() },
    { requiredKeys: ['label'] },
  ),
);

const questionArbitrary = fc.record(
  {
    header: fc.oneof(text, fc.constant(null)),
    question: text,
    options: fc.oneof(
      fc.array(optionArbitrary, { maxLength: 6 }),
      fc.array(optionArbitrary, { maxLength: 5 }).map((options) => JSON.stringify(options)),
      fc.constant(null),
    ),
    multiSelect: flag,
    multiple: flag,
    purpose: text,
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

const argumentsArbitrary = fc.oneof(
  fc.record({ questions: fc.array(questionArbitrary, { maxLength: 4 }) }),
  fc.array(questionArbitrary, { maxLength: 4 }),
  questionArbitrary,
  fc.record({ questions: questionArbitrary }),
  fc
    .array(questionArbitrary, { minLength: 1, maxLength: 3 })
    .map((questions) => JSON.stringify({ questions })),
);

function expectNoThrow(raw: unknown): void {
  const result = decodeAskArguments(raw);
  expect(typeof result.ok).toBe('boolean');
  if (!result.ok) {
    expect(result.issues.length).toBeGreaterThan(0);
    // handled by the decoder's own checks, not by its last-resort catch
    expect(result.issues.map((issue) => issue.rule)).not.toContain('internal');
    expect(typeof formatAskError(result.issues)).toBe('string');
  }
}

function nested(depth: number): unknown {
  let value: unknown = { question: 'deep?' };
  for (let level = 0; level < depth; level += 1) {
    value = level % 2 === 0 ? [value] : { questions: value };
  }
  return value;
}

describe('decodeAskArguments properties', () => {
  it('never throws on any value', () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withSet: true }),
        (raw) => expectNoThrow(raw),
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on JSON text or random text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), fc.string({ unit: 'binary' })), (raw) =>
        expectNoThrow(raw),
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on question-like shapes with anything inside', () => {
    fc.assert(
      fc.property(
        fc.record({
          questions: fc.oneof(fc.anything(), fc.array(fc.dictionary(fc.string(), fc.anything()))),
        }),
        (raw) => expectNoThrow(raw),
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on huge arrays and deep nesting', () => {
    const huge = Array.from({ length: 200_000 }, (_, index) => ({
      question: `Q${index}?`,
      options: ['a', 'b'],
    }));
    expectNoThrow(huge);
    expectNoThrow({
      questions: [{ question: 'Go?', options: Array.from({ length: 100_000 }, (_, i) => `o${i}`) }],
    });
    expectNoThrow(nested(50_000));
    expectNoThrow(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expectNoThrow(`{"questions":${'['.repeat(100_000)}`);
    expectNoThrow('x'.repeat(2_000_000));
    expectNoThrow({ questions: [{ question: 'q'.repeat(1_000_000), options: ['a', 'b'] }] });
  });

  it('every accepted ask respects every cap, and re-decoding it gives the same ask', () => {
    let accepted = 0;
    fc.assert(
      fc.property(argumentsArbitrary, (raw) => {
        const result = decodeAskArguments(raw);
        if (!result.ok) {
          return;
        }
        accepted += 1;
        assertWithinCaps(result.ask);
        const again = decodeAskArguments(result.ask);
        expect(again.ok).toBe(true);
        if (again.ok) {
          expect(again.ask).toEqual(result.ask);
        }
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(50); // the generator must reach the accepting paths
  });
});
