import { describe, expect, it } from 'vitest';
import type { QuestionResolution } from '../../../src/ask/types.js';
import type { AnswererPolicy } from '../../../src/asks/types.js';
import {
  alreadyAnsweredText,
  askClosedText,
  cancelNotAllowedText,
  notAllowedText,
  stateUnreadableText,
  temporarilyUnavailableText,
} from '../../../src/slack/blocks/render-notices.js';
import { answered, assumed, canceled } from './ask-records.js';

describe('alreadyAnsweredText', () => {
  it.each<[string, QuestionResolution, string]>([
    ['answered', answered(['Roll back']), 'Already answered by <@U0BOB>: *Roll back*'],
    [
      'answered, escaped',
      answered(['<!here> & now']),
      'Already answered by <@U0BOB>: *&lt;!here&gt; &amp; now*',
    ],
    [
      'typed',
      answered([], 'U0BOB', { other: 'use <staging>', source: 'modal' }),
      'Already answered by <@U0BOB>: “use &lt;staging&gt;” (typed)',
    ],
    ['assumed', assumed(['Roll back']), 'Already resolved by timeout: assumed *Roll back*'],
    ['assumed nothing', assumed([]), 'Already resolved by timeout: no option assumed'],
    ['canceled', canceled('U0ALICE'), 'Already canceled by <@U0ALICE>'],
  ])('%s', (_name, resolution, expected) => {
    expect(alreadyAnsweredText(resolution)).toBe(expected);
  });
});

describe('notAllowedText', () => {
  it.each<[AnswererPolicy, string]>([
    [{ mode: 'anyone' }, 'You cannot answer this question. Nothing was changed.'],
    [
      { mode: 'requester' },
      'Only the person who asked the agent can answer this question. Nothing was changed.',
    ],
    [
      { mode: 'list', userIds: ['U0ALICE', '<!channel>'], groupIds: ['S0OPS'] },
      'Only <@U0ALICE> and members of the allowed user groups can answer this question. Nothing was changed.',
    ],
    [
      { mode: 'list', userIds: [], groupIds: ['S0OPS'] },
      'Only members of the allowed user groups can answer this question. Nothing was changed.',
    ],
  ])('%j', (policy, expected) => {
    expect(notAllowedText(policy)).toBe(expected);
    expect(notAllowedText(policy)).not.toContain('<!subteam');
  });
});

describe('fixed notices', () => {
  it('say what happened', () => {
    expect(temporarilyUnavailableText()).toBe(
      'holdpoint could not save your answer right now; please click again in a moment',
    );
    expect(askClosedText()).toContain('closed');
    expect(cancelNotAllowedText()).toContain('Only the person who asked');
    expect(stateUnreadableText()).toContain('cannot read');
  });
});
