import { describe, expect, it } from 'vitest';
import { decodeAskArguments } from '../../../src/ask/decode-ask-arguments.js';
import { formatAskError } from '../../../src/ask/format-ask-error.js';
import { loadAskCases, summarizeAsk } from './ask-cases.js';

const cases = loadAskCases();

describe('ask_question fixture cases (test/fixtures/ask_question/cases.json)', () => {
  it('has the cases of the shared fixture', () => {
    expect(cases).toHaveLength(30);
  });

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
    const result = decodeAskArguments(testCase.args);
    if (testCase.expect.ok) {
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (result.ok) {
        expect(summarizeAsk(result.ask)).toEqual(testCase.expect.questions);
      }
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) {
      return;
    }
    const expected = testCase.expect;
    expect(result.issues.map((issue) => issue.path)).toContain(expected.path);
    const text = formatAskError(result.issues);
    expect(text).toContain(expected.path);
    if (expected.limit !== undefined) {
      const issue = result.issues.find((candidate) => candidate.path === expected.path);
      expect(issue?.limit).toBe(expected.limit);
      expect(text).toContain(String(expected.limit));
    }
  });
});
