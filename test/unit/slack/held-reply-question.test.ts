import { describe, expect, it } from 'vitest';
import type { QuestionResolution } from '../../../src/ask/types.js';
import { questionForHeldReply } from '../../../src/slack/handlers/reply-answers.js';
import { askRecord, choiceQuestion, freeTextQuestion } from './ask-records.js';

function byReply(userId: string, text: string): QuestionResolution {
  return {
    status: 'answered',
    selected: [],
    other: text,
    answeredBy: userId,
    answeredAt: '2026-12-02T06:00:00.000Z',
    source: 'thread_reply',
    assumption: null,
  };
}

const questions = [freeTextQuestion(), choiceQuestion(), freeTextQuestion()];

describe('questionForHeldReply: which question a confirmed thread reply answers', () => {
  it.each<[string, Array<QuestionResolution | null>, number, string, number]>([
    ['offered for an open question: that one', [null, null, null], 0, 'OPS-1', 0],
    [
      'that question got answered by an earlier reply: the next open free-text one',
      [byReply('U0BOB', 'OPS-1'), null, null],
      0,
      'Sorry',
      2,
    ],
    [
      'a double click: the question this very reply answered',
      [byReply('U0BOB', 'OPS-1'), null, null],
      0,
      'OPS-1',
      0,
    ],
    [
      'no free-text question left open: none',
      [byReply('U0BOB', 'OPS-1'), null, byReply('U0BOB', 'note')],
      0,
      'later',
      -1,
    ],
  ])('%s', (_name, resolutions, offeredFor, text, expected) => {
    const ask = askRecord({ questions, resolutions });
    expect(questionForHeldReply(ask, offeredFor, 'U0BOB', text)).toBe(expected);
  });
});
