import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AskQuestion, QuestionResolution } from '../../../src/ask/types.js';
import { ASK_LIMITS, TIMEOUT_POLICIES } from '../../../src/ask/types.js';
import { parseActionId, parseActionValue } from '../../../src/slack/blocks/action-ids.js';
import { renderAnswerModal } from '../../../src/slack/blocks/render-answer-modal.js';
import { renderAskMessage } from '../../../src/slack/blocks/render-ask-message.js';
import { validateBlocks, validateModalView } from '../../../src/slack/blocks/validate-blocks.js';
import { askRecord } from './ask-records.js';
import { actionsElements, allStrings, forbiddenSequences, hasLoneSurrogate } from './inspect-blocks.js';

const PIECES = [
  'a',
  'Z',
  ' ',
  '&',
  '<',
  '>',
  '|',
  '*',
  '日',
  '😀',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '🇯🇵',
  '<!channel>',
  '<@U024BE7LH>',
  '<!subteam^S1>',
];

/** Text of 1..max code points (after trimming), mixing wide, multi-code-point and markup pieces. */
function text(max: number): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: max }).map((parts) => parts.join('')),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }),
    )
    .map((value) => {
      const clipped = Array.from(value).slice(0, max).join('').trim();
      return clipped.length > 0 ? clipped : 'x';
    });
}

const optionArb = fc.record({
  label: text(ASK_LIMITS.labelMax),
  description: fc.option(text(ASK_LIMITS.descriptionMax), { nil: null }),
  recommended: fc.boolean(),
});

const questionArb: fc.Arbitrary<AskQuestion> = fc.oneof(
  fc.record({
    header: fc.option(text(ASK_LIMITS.headerMax), { nil: null }),
    question: text(ASK_LIMITS.questionMax),
    kind: fc.constant('choice' as const),
    multiSelect: fc.boolean(),
    purpose: fc.option(text(ASK_LIMITS.purposeMax), { nil: null }),
    options: fc.array(optionArb, { minLength: ASK_LIMITS.minOptions, maxLength: ASK_LIMITS.maxOptions }),
  }),
  fc.record({
    header: fc.option(text(ASK_LIMITS.headerMax), { nil: null }),
    question: text(ASK_LIMITS.questionMax),
    kind: fc.constant('free_text' as const),
    multiSelect: fc.constant(false),
    purpose: fc.option(text(ASK_LIMITS.purposeMax), { nil: null }),
    options: fc.constant(null),
  }),
);

function resolutionArb(question: AskQuestion): fc.Arbitrary<QuestionResolution | null> {
  const labels = (question.options ?? []).map((option) => option.label);
  const selected = labels.length > 0 ? fc.subarray(labels) : fc.constant<string[]>([]);
  return fc.option(
    fc.record({
      status: fc.constantFrom('answered' as const, 'assumed' as const, 'canceled' as const),
      selected,
      other: fc.option(text(3000), { nil: null }),
      answeredBy: fc.option(fc.constantFrom('U0BOB', 'W0ABCDEF', '<!here>', 'bad id'), { nil: null }),
      answeredAt: fc.constant('2026-11-29T20:01:00.000Z'),
      source: fc.constantFrom(
        'button' as const,
        'modal' as const,
        'thread_reply' as const,
        'timeout' as const,
        'not_shown' as const,
        'cancel' as const,
      ),
      assumption: fc.constantFrom(
        null,
        'recommended' as const,
        'first_option' as const,
        'no_answer' as const,
      ),
    }),
    { nil: null },
  );
}

const askArb = fc
  .array(questionArb, { minLength: ASK_LIMITS.minQuestions, maxLength: ASK_LIMITS.maxQuestions })
  .chain((questions) =>
    fc.record({
      questions: fc.constant(questions),
      resolutions: fc.tuple(...questions.map(resolutionArb)),
      policy: fc.constantFrom(...TIMEOUT_POLICIES),
      timeoutMs: fc.integer({ min: 1000, max: 7 * 24 * 3600 * 1000 }),
      deadline: fc.option(fc.integer({ min: 1_700_000_000_000, max: 2_000_000_000_000 }), { nil: null }),
      closed: fc.boolean(),
    }),
  )
  .map(({ questions, resolutions, policy, timeoutMs, deadline, closed }) =>
    askRecord({
      questions,
      resolutions,
      policy,
      timeoutMs,
      deadline,
      status: closed || resolutions.every((resolution) => resolution !== null) ? 'resolved' : 'open',
    }),
  );

describe('renderAskMessage property', () => {
  it('any ask within the caps renders a message Slack accepts, with ids only and no pings', () => {
    fc.assert(
      fc.property(askArb, (ask) => {
        const rendered = renderAskMessage(ask);
        expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
        expect(rendered.text.length).toBeLessThanOrEqual(40_000);
        for (const { text: value } of allStrings(rendered)) expect(hasLoneSurrogate(value)).toBe(false);
        for (const elements of actionsElements(rendered.blocks)) {
          for (const element of elements) {
            expect(parseActionId(element.action_id)).not.toBeNull();
            if (element.type === 'button') expect(parseActionValue(element.value)).not.toBeNull();
          }
        }
        const mentions = ask.resolutions.flatMap((resolution) =>
          resolution?.answeredBy !== null &&
          resolution?.answeredBy !== undefined &&
          /^[UW][A-Z0-9]{2,}$/.test(resolution.answeredBy)
            ? [`<@${resolution.answeredBy}>`]
            : [],
        );
        expect(forbiddenSequences(JSON.stringify(rendered), mentions)).toEqual([]);
        ask.questions.forEach((_, index) => {
          const modal = renderAnswerModal(ask, index, { channel: 'C0OPS', messageTs: '1780000065.000300' });
          expect(validateModalView(modal)).toEqual([]);
          expect(forbiddenSequences(JSON.stringify(modal), [])).toEqual([]);
        });
      }),
      { numRuns: 300 },
    );
  });
});
