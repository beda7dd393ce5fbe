import { describe, expect, it } from 'vitest';
import { ASK_EXAMPLE_CALL } from './ask-schema.js';
import { formatAskError } from './format-ask-error.js';
import { formatAskSuccessNote } from './format-ask-success-note.js';

describe('formatAskError', () => {
  it('lists each issue with path, rule, limit and actual value, then the example call', () => {
    const text = formatAskError([
      {
        path: 'questions[0].header',
        rule: 'maxLength',
        limit: 60,
        actual: 70,
        message: 'questions[0].header is 70 code points long; the limit is 60.',
      },
      { path: '', rule: 'json', actual: '{oops', message: 'the arguments are not valid JSON' },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('ask_question was not called correctly, so nothing was asked. Fix these problems:');
    expect(lines[1]).toBe(
      '- questions[0].header is 70 code points long; the limit is 60. [rule: maxLength, limit: 60, actual: 70]',
    );
    expect(lines[2]).toBe('- the arguments are not valid JSON [rule: json, actual: "{oops"]');
    expect(lines[3]).toBe('Call ask_question again with corrected arguments, for example:');
    expect(JSON.parse(lines[4] ?? '')).toEqual(ASK_EXAMPLE_CALL);
    expect(lines).toHaveLength(5);
  });
});

describe('formatAskSuccessNote', () => {
  it('lists ignored keys', () => {
    expect(formatAskSuccessNote(['questions[0].allow_other', 'questions[0].options[0].value'])).toBe(
      'Note: these keys are not part of ask_question and were ignored: questions[0].allow_other, questions[0].options[0].value. The question was asked without them.',
    );
  });

  it('is null when nothing was ignored', () => {
    expect(formatAskSuccessNote([])).toBeNull();
  });
});
