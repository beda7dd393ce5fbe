import { describe, expect, it } from 'vitest';
import { assumeOpenQuestions, assumeResolution } from './assume-resolution.js';
import type { AskOption, AskQuestion, AssumptionBasis, TimeoutPolicy } from './types.js';

const at = '2025-01-01T10:30:00.000Z';

function option(label: string, recommended = false): AskOption {
  return { label, description: null, recommended };
}

function question(options: AskOption[] | null, multiSelect = false): AskQuestion {
  return {
    header: null,
    question: 'Which?',
    kind: options === null ? 'free_text' : 'choice',
    multiSelect,
    purpose: null,
    options,
  };
}

const withRecommended = question([option('A', true), option('B')]);
const withoutRecommended = question([option('C'), option('D')]);
const multiTwoRecommended = question([option('A'), option('B', true), option('C', true)], true);
const multiNone = question([option('A'), option('B')], true);
const freeText = question(null);

describe('assumeResolution', () => {
  it.each<[string, AskQuestion, TimeoutPolicy, string[], AssumptionBasis]>([
    ['recommended, default policy', withRecommended, 'recommended-or-first', ['A'], 'recommended'],
    [
      'no recommended, default policy: first option',
      withoutRecommended,
      'recommended-or-first',
      ['C'],
      'first_option',
    ],
    [
      'multi-select: every recommended option',
      multiTwoRecommended,
      'recommended-or-first',
      ['B', 'C'],
      'recommended',
    ],
    [
      'multi-select without recommended: first option',
      multiNone,
      'recommended-or-first',
      ['A'],
      'first_option',
    ],
    ['free text, default policy', freeText, 'recommended-or-first', [], 'no_answer'],
    ['recommended-only with recommended', withRecommended, 'recommended-only', ['A'], 'recommended'],
    ['recommended-only without recommended', withoutRecommended, 'recommended-only', [], 'no_answer'],
    ['recommended-only multi-select', multiTwoRecommended, 'recommended-only', ['B', 'C'], 'recommended'],
    ['recommended-only free text', freeText, 'recommended-only', [], 'no_answer'],
    ['no-answer with recommended', withRecommended, 'no-answer', [], 'no_answer'],
    ['no-answer free text', freeText, 'no-answer', [], 'no_answer'],
  ])('%s', (_name, input, policy, selected, assumption) => {
    expect(assumeResolution(input, policy, at, 'timeout')).toEqual({
      status: 'assumed',
      selected,
      other: null,
      answeredBy: null,
      answeredAt: at,
      source: 'timeout',
      assumption,
    });
  });

  it('keeps the source not_shown', () => {
    expect(assumeResolution(withRecommended, 'recommended-or-first', at, 'not_shown')).toMatchObject({
      status: 'assumed',
      source: 'not_shown',
      selected: ['A'],
    });
  });
});

describe('assumeOpenQuestions', () => {
  it('gives one resolution per question, in order (C30 with the default policy)', () => {
    const resolutions = assumeOpenQuestions(
      [withRecommended, withoutRecommended, freeText],
      'recommended-or-first',
      at,
      'timeout',
    );
    expect(resolutions.map((resolution) => [resolution.selected, resolution.assumption])).toEqual([
      [['A'], 'recommended'],
      [['C'], 'first_option'],
      [[], 'no_answer'],
    ]);
  });
});
