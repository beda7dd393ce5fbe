/**
 * Structural tests of the calm ask message (issue 15, item 1), snapshot-free: each label once (besides the
 * timeout line), the description with its option, "recommended" once, one timeout line per ask, the rare
 * actions in one menu, at 1-3 questions, 2-4 options, multi-select, free text and at the caps with wide
 * characters; and what a person sees after an answer, a timeout and a cancel.
 */
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { assumeResolution } from '../../../src/ask/assume-resolution.js';
import type { AskQuestion, TimeoutPolicy } from '../../../src/ask/types.js';
import { type AskRecord, NO_FOLLOW_UP } from '../../../src/asks/types.js';
import { parseMenuValue } from '../../../src/slack/blocks/action-ids.js';
import { optionLayout, renderAskMessage } from '../../../src/slack/blocks/render-ask-message.js';
import { replyHintLine } from '../../../src/slack/blocks/render-reply-confirm.js';
import { validateBlocks } from '../../../src/slack/blocks/validate-blocks.js';
import {
  answered,
  askRecord,
  assumed,
  canceled,
  choiceQuestion,
  freeTextQuestion,
  option,
  THIRTY_MIN,
} from './ask-records.js';
import { actionsElements, allStrings } from './inspect-blocks.js';

type Json = Record<string, unknown>;

/** Exactly `count` code points built by repeating `unit`. */
function codePoints(unit: string, count: number): string {
  let text = '';
  while (Array.from(text).length < count) text += unit;
  return Array.from(text).slice(0, count).join('');
}

/** A question with distinctive labels `L<q>x<o>` and, when described, descriptions `D<q>x<o>`. */
function question(q: number, options: number, described: boolean, multiSelect: boolean): AskQuestion {
  return choiceQuestion({
    header: `H${q}`,
    question: `Question ${q}?`,
    multiSelect,
    options: Array.from({ length: options }, (_, o) =>
      option(`L${q}x${o}`, { recommended: o === 1, description: described ? `D${q}x${o}` : null }),
    ),
  });
}

/** The ask-wide line (the last block while open). */
function isFooter(block: KnownBlock): boolean {
  return block.type === 'context' && String(block.block_id).endsWith('.x.due');
}

/** Every text a person reads outside the timeout line (block texts, button and option texts, descriptions). */
function shownTexts(blocks: KnownBlock[]): string[] {
  return allStrings(blocks.filter((block) => !isFooter(block)))
    .filter(({ pointer }) => pointer.endsWith('/text') || pointer.endsWith('/text/text'))
    .map(({ text }) => text);
}

function occurrences(texts: string[], needle: string): number {
  return texts.reduce((sum, text) => sum + text.split(needle).length - 1, 0);
}

function accessoryOf(block: KnownBlock | undefined): Json | undefined {
  return (block as { accessory?: Json } | undefined)?.accessory;
}

const SHAPES: Array<[string, boolean, boolean]> = [
  ['plain', false, false],
  ['described', true, false],
  ['multi-select', false, true],
  ['multi-select described', true, true],
];

describe('the calm ask message at 1-3 questions and 2-4 options', () => {
  for (const count of [1, 2, 3]) {
    for (const options of [2, 3, 4]) {
      for (const [shape, described, multiSelect] of SHAPES) {
        const ask = askRecord({
          questions: Array.from({ length: count }, (_, q) => question(q, options, described, multiSelect)),
        });
        const { blocks, text } = renderAskMessage(ask);

        it(`${count} question(s) × ${options} options, ${shape}: valid, each label and description once, recommended once`, () => {
          expect(validateBlocks(blocks, 'message')).toEqual([]);
          const texts = shownTexts(blocks);
          for (let q = 0; q < count; q += 1) {
            for (let o = 0; o < options; o += 1) {
              expect(occurrences(texts, `L${q}x${o}`), `label L${q}x${o}`).toBe(1);
              if (described) expect(occurrences(texts, `D${q}x${o}`), `description D${q}x${o}`).toBe(1);
            }
          }
          // "recommended" is said once per recommended option (one per question), nowhere else.
          expect(occurrences(texts, 'recommended')).toBe(count);
          expect(texts.some((t) => t.includes('★'))).toBe(false);
          expect(text).toBe(
            `Question from the agent: Question 0?${count > 1 ? ` (+${count - 1} more)` : ''}`,
          );
        });

        it(`${count} question(s) × ${options} options, ${shape}: the layout, one timeout line, one menu`, () => {
          const footers = blocks.filter(isFooter);
          expect(footers).toHaveLength(1);
          expect(blocks.at(-1)).toBe(footers[0]);
          expect(blocks.filter((block) => JSON.stringify(block).includes('⏱'))).toHaveLength(1);
          expect(blocks.filter((block) => block.type === 'header')).toHaveLength(count === 1 ? 1 : 0);
          // The description sits with its option: in the same section, or in the same list option.
          const layout = optionLayout(ask.questions[0] as AskQuestion, count);
          expect(layout).toBe(
            multiSelect ? 'checkboxes' : !described ? 'buttons' : count === 1 ? 'sections' : 'radio',
          );
          for (const block of blocks) {
            const serialized = JSON.stringify(block);
            for (let q = 0; q < count; q += 1)
              for (let o = 0; o < options && described; o += 1)
                if (serialized.includes(`D${q}x${o}`)) expect(serialized).toContain(`L${q}x${o}`);
          }
          if (layout === 'radio' || layout === 'checkboxes') {
            for (const elements of actionsElements(blocks)) {
              const list = elements[0] as {
                options: Array<{ text: { text: string }; description?: unknown }>;
              };
              for (const item of list.options) {
                const label = item.text.text.replace(' (recommended)', '');
                expect(JSON.stringify(item.description ?? null)).toContain(
                  described ? label.replace('L', 'D') : 'null',
                );
              }
            }
          }
          // The menu: beside the first question, Cancel… in it, shown whoever looks (the render has no viewer).
          const first = blocks.find((block) => block.type === 'section');
          const menu = accessoryOf(first);
          expect(menu?.action_id).toBe('hp.more');
          expect(JSON.stringify(blocks)).not.toContain('"hp.cancel"');
          if (count === 3) expect(blocks.length).toBeLessThanOrEqual(10);
        });
      }
    }
  }

  it.each<[string, AskQuestion[], string[]]>([
    ['1 question, buttons', [question(0, 4, false, false)], ['header', 'section', 'actions', 'context']],
    [
      '1 question, sections',
      [question(0, 4, true, false)],
      ['header', 'section', 'section', 'section', 'section', 'section', 'actions', 'context'],
    ],
    ['1 question, free text', [freeTextQuestion()], ['header', 'section', 'actions', 'context']],
    [
      '2 questions',
      [question(0, 4, true, false), freeTextQuestion()],
      ['section', 'actions', 'divider', 'section', 'actions', 'context'],
    ],
    [
      '3 questions with free text',
      [question(0, 4, true, false), question(1, 4, false, true), freeTextQuestion()],
      ['section', 'actions', 'divider', 'section', 'actions', 'divider', 'section', 'actions', 'context'],
    ],
  ])('block types: %s', (_name, questions, types) => {
    expect(renderAskMessage(askRecord({ questions })).blocks.map((block) => block.type)).toEqual(types);
  });

  it('a free-text question among others: Answer, and the timeout line says which questions get no answer', () => {
    const { blocks } = renderAskMessage(
      askRecord({ deadline: null, questions: [question(0, 2, false, false), freeTextQuestion()] }),
    );
    expect(actionsElements(blocks)[1]?.map((element) => element.action_id)).toEqual(['hp.answer.1']);
    expect((blocks.at(-1) as { elements: Array<{ text: string }> }).elements[0]?.text).toBe(
      `⏱ No answer within 30 min? I'll assume *L0x1* for 1/2 and no answer for 2/2, and say so.\n${replyHintLine()}`,
    );
  });
});

describe('the calm ask message at the caps, with wide characters', () => {
  const ALPHABETS: Record<string, string> = {
    ascii: 'x',
    emoji: '😀',
    cjk: '日',
    zwj: '👩‍👩‍👧‍👦',
    ampersand: '&',
  };
  const capQuestion = (unit: string, multiSelect: boolean, index: number): AskQuestion => ({
    header: codePoints(unit, 60),
    question: codePoints(unit, 200),
    kind: 'choice',
    multiSelect,
    purpose: codePoints(unit, 200),
    options: [0, 1, 2, 3].map((o) =>
      option(`${o}${codePoints(unit, 47)}`, { description: codePoints(unit, 200), recommended: o === index }),
    ),
  });

  for (const [alphabet, unit] of Object.entries(ALPHABETS)) {
    it(`${alphabet}: 3 questions × 4 options with a quorum, a who line and an intro stay within 10 blocks`, () => {
      const ask = askRecord({
        intro: codePoints(unit, 500),
        answerers: { mode: 'list', userIds: ['U0BOB'], groupIds: [] },
        followUp: { ...NO_FOLLOW_UP, quorum: 2, extendByMs: [60_000, 120_000], maxDeadlineMs: 86_400_000 },
        questions: [capQuestion(unit, false, 0), capQuestion(unit, true, 1), freeTextQuestion()],
      });
      const { blocks } = renderAskMessage(ask);
      expect(validateBlocks(blocks, 'message')).toEqual([]);
      expect(blocks.length).toBeLessThanOrEqual(10);
    });

    it(`${alphabet}: one question at the caps shows each description whole beside its option`, () => {
      const ask = askRecord({ questions: [capQuestion(unit, false, 2)] });
      const { blocks } = renderAskMessage(ask);
      expect(validateBlocks(blocks, 'message')).toEqual([]);
      const escaped = codePoints(unit, 200).replaceAll('&', '&amp;');
      const rows = blocks.filter((block) => /\.0\.o\d$/.test(String(block.block_id)));
      expect(rows).toHaveLength(4);
      for (const row of rows) expect(JSON.stringify(row)).toContain(JSON.stringify(escaped).slice(1, -1));
    });

    it(`${alphabet}: a radio list at the caps cuts descriptions to Slack's 75, on a grapheme`, () => {
      const ask = askRecord({ questions: [capQuestion(unit, false, 0), freeTextQuestion()] });
      const { blocks } = renderAskMessage(ask);
      expect(validateBlocks(blocks, 'message')).toEqual([]);
      const radio = actionsElements(blocks)[0]?.[0] as {
        options: Array<{ text: { text: string }; description: { text: string } }>;
      };
      for (const item of radio.options) {
        expect(item.description.text.length).toBeLessThanOrEqual(75);
        expect(item.text.text.length).toBeLessThanOrEqual(75);
        expect(codePoints(unit, 200).startsWith(item.description.text.replace(/…$/, ''))).toBe(true);
      }
    });
  }
});

describe('the menu of rare actions', () => {
  const menuOf = (ask: AskRecord) =>
    accessoryOf(renderAskMessage(ask).blocks.find((b) => b.type === 'section'));
  const texts = (menu: Json | undefined) =>
    ((menu?.options as Array<{ text: { text: string } }> | undefined) ?? []).map((item) => item.text.text);

  it.each<[string, Partial<AskRecord>, string, string[]]>([
    [
      'a turn ask with the default follow-ups',
      { followUp: NO_FOLLOW_UP },
      'overflow',
      ['Ask someone else…', 'Cancel…'],
    ],
    [
      'snoozes first, then Ask someone else… and Cancel…, within 5',
      {
        followUp: {
          ...NO_FOLLOW_UP,
          extendByMs: [60_000, 120_000, 180_000, 240_000, 300_000],
          maxDeadlineMs: 86_400_000,
        },
      },
      'overflow',
      ['+1 min', '+2 min', '+3 min', 'Ask someone else…', 'Cancel…'],
    ],
    ['a turn ask stored before follow-ups: Cancel… alone, as a button', {}, 'button', []],
  ])('%s', (_name, extra, type, options) => {
    const menu = menuOf(askRecord(extra));
    expect(menu?.type).toBe(type);
    expect(menu?.action_id).toBe('hp.more');
    expect(texts(menu)).toEqual(options);
    const values =
      type === 'button'
        ? [menu?.value]
        : ((menu?.options ?? []) as Array<{ value: string }>).map((o) => o.value);
    expect(parseMenuValue(values.at(-1))).toEqual({
      turnId: 'turn_01JDXK7P00AA',
      askId: 'ask_01JDXK7Q9R8S',
      item: { kind: 'cancel' },
    });
  });

  it("a program's ask has no Cancel… (it cancels through the API); without follow-ups no menu at all", () => {
    const api = { scope: 'ask-p1', waiter: { kind: 'api' as const, clientName: 'deploy-script' } };
    expect(menuOf(askRecord(api))).toBeUndefined();
    const withFollowUps = menuOf(askRecord({ ...api, followUp: NO_FOLLOW_UP }));
    expect(withFollowUps?.type).toBe('button');
    expect((withFollowUps?.text as { text: string } | undefined)?.text).toBe('Ask someone else…');
  });
});

describe('the multi-select timeout line names every option the timeout will select', () => {
  const multi = choiceQuestion({
    multiSelect: true,
    options: [
      option('A', { recommended: true }),
      option('B'),
      option('C', { recommended: true }),
      option('D', { recommended: true }),
    ],
  });
  const none = choiceQuestion({ multiSelect: true, options: [option('A'), option('B'), option('C')] });
  it.each<[TimeoutPolicy, AskQuestion]>([
    ['recommended-or-first', multi],
    ['recommended-only', multi],
    ['no-answer', multi],
    ['recommended-or-first', none],
    ['recommended-only', none],
  ])('%s', (policy, q) => {
    const picks = assumeResolution(q, policy, '', 'timeout').selected;
    const line = (
      renderAskMessage(askRecord({ policy, deadline: null, questions: [q] })).blocks.at(-1) as {
        elements: Array<{ text: string }>;
      }
    ).elements[0]?.text;
    for (const label of q.options?.map((o) => o.label) ?? [])
      expect(line?.includes(`*${label}*`), label).toBe(picks.includes(label));
    if (picks.length === 0)
      expect(line).toBe("⏱ No answer within 30 min? I'll go on without an answer and say so.");
  });
});

describe("a person's view once the ask is over", () => {
  const one = [
    choiceQuestion({ options: [option('Roll back', { recommended: true }), option('Keep going')] }),
  ];
  const three = [
    choiceQuestion({
      header: 'Deploy',
      options: [option('Roll back', { recommended: true }), option('Keep going')],
    }),
    choiceQuestion({
      header: 'Notify',
      multiSelect: true,
      options: [option('#ops', { recommended: true }), option('#support')],
    }),
    freeTextQuestion(),
  ];
  const lines = (ask: AskRecord) =>
    renderAskMessage(ask).blocks.map((block) => [
      block.type,
      (block as { text?: { text: string } }).text?.text ?? null,
    ]);

  it.each<[string, AskRecord, Array<[string, string | null]>]>([
    [
      'one question, answered',
      askRecord({ questions: one, status: 'resolved', resolutions: [answered(['Keep going'])] }),
      [
        ['header', 'Deploy'],
        ['section', 'The deploy failed health checks. What should I do?'],
        ['section', '✅ *Keep going* — chosen by <@U0BOB>'],
      ],
    ],
    [
      'one question, timed out',
      askRecord({ questions: one, status: 'resolved', resolutions: [assumed(['Roll back'])] }),
      [
        ['header', 'Deploy'],
        ['section', 'The deploy failed health checks. What should I do?'],
        ['section', '⏱ No answer in 30 min: assumed *Roll back*'],
      ],
    ],
    [
      'one question, canceled',
      askRecord({ questions: one, status: 'resolved', resolutions: [canceled('U0ALICE')] }),
      [
        ['header', 'Deploy'],
        ['section', 'The deploy failed health checks. What should I do?'],
        ['section', '🚫 Canceled by <@U0ALICE>'],
      ],
    ],
    [
      'three questions: answered, timed out, typed',
      askRecord({
        questions: three,
        status: 'resolved',
        resolutions: [
          answered(['Roll back']),
          assumed(['#ops']),
          answered([], 'U0CAROL', { other: 'Back at 5 <!here>', source: 'modal' }),
        ],
      }),
      [
        ['section', '*1/3 · Deploy*\nThe deploy failed health checks. What should I do?'],
        ['section', '✅ *Roll back* — chosen by <@U0BOB>'],
        ['divider', null],
        ['section', '*2/3 · Notify*\nThe deploy failed health checks. What should I do?'],
        ['section', '⏱ No answer in 30 min: assumed *#ops*'],
        ['divider', null],
        ['section', '*3/3 · Release notes*\nWhat should the release note say?'],
        ['section', '✅ “Back at 5 &lt;!here&gt;” _(typed answer)_ — answered by <@U0CAROL>'],
      ],
    ],
    [
      'three questions, canceled',
      askRecord({ questions: three, status: 'resolved', resolutions: three.map(() => canceled('U0ALICE')) }),
      [
        ['section', '*1/3 · Deploy*\nThe deploy failed health checks. What should I do?'],
        ['section', '🚫 Canceled by <@U0ALICE>'],
        ['divider', null],
        ['section', '*2/3 · Notify*\nThe deploy failed health checks. What should I do?'],
        ['section', '🚫 Canceled by <@U0ALICE>'],
        ['divider', null],
        ['section', '*3/3 · Release notes*\nWhat should the release note say?'],
        ['section', '🚫 Canceled by <@U0ALICE>'],
      ],
    ],
  ])('%s: the question and how it ended, no controls, no menu, no timeout line', (_name, ask, expected) => {
    expect(lines(ask)).toEqual(expected);
    const { blocks } = renderAskMessage(ask, { now: Date.parse('2026-11-29T20:31:00Z') });
    expect(validateBlocks(blocks, 'message')).toEqual([]);
    expect(actionsElements(blocks)).toEqual([]);
    expect(blocks.some((block) => accessoryOf(block) !== undefined)).toBe(false);
    expect(blocks.some(isFooter)).toBe(false);
  });

  it('the timeout line of an open 3-question ask is one line for all of them', () => {
    const { blocks } = renderAskMessage(
      askRecord({ questions: three, timeoutMs: THIRTY_MIN, deadline: null }),
    );
    expect(
      blocks.filter(isFooter).map((b) => (b as { elements: Array<{ text: string }> }).elements[0]?.text),
    ).toEqual([
      `⏱ No answer within 30 min? I'll assume *Roll back* for 1/3, *#ops* for 2/3 and no answer for 3/3, and say so.\n${replyHintLine()}`,
    ]);
  });
});
