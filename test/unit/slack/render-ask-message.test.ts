import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { AskQuestion, TimeoutPolicy } from '../../../src/ask/types.js';
import type { AskRecord } from '../../../src/asks/types.js';
import { parseActionId, parseActionValue } from '../../../src/slack/blocks/action-ids.js';
import { renderArgumentsModal } from '../../../src/slack/blocks/render-arguments-modal.js';
import { renderAskMessage, whoMayAnswerLine } from '../../../src/slack/blocks/render-ask-message.js';
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
  SHOWN_AT,
  THIRTY_MIN,
} from './ask-records.js';
import {
  actionsElements,
  allStrings,
  forbiddenSequences,
  hasLoneSurrogate,
  mrkdwnTexts,
} from './inspect-blocks.js';

/** Exactly `count` code points built by repeating `unit` (which may itself be several code points). */
function codePoints(unit: string, count: number): string {
  let text = '';
  while (Array.from(text).length < count) text += unit;
  return Array.from(text).slice(0, count).join('');
}

const ALPHABETS: Record<string, string> = {
  ascii: 'x',
  emoji: '😀',
  cjk: '日',
  combining: 'e\u0301',
  zwj: '👩‍👩‍👧‍👦',
  flags: '🇯🇵',
  ampersand: '&',
  injection: '<!channel> ',
};

function atCaps(unit: string, multiSelect: boolean, index: number): AskQuestion {
  return {
    header: codePoints(unit, 60),
    question: codePoints(unit, 200),
    kind: 'choice',
    multiSelect,
    purpose: codePoints(unit, 200),
    options: [0, 1, 2, 3].map((o) =>
      option(`${o}${codePoints(unit, 47)}`, {
        description: codePoints(unit, 200),
        recommended: o === index % 4,
      }),
    ),
  };
}

function capAsk(unit: string): AskRecord {
  return askRecord({
    questions: [atCaps(unit, false, 0), atCaps(unit, true, 1), atCaps(unit, false, 2)],
  });
}

function textOf(block: KnownBlock | undefined): string {
  if (block === undefined) return '';
  const record = block as unknown as { text?: { text?: string }; elements?: Array<{ text?: string }> };
  return record.text?.text ?? record.elements?.[0]?.text ?? '';
}

function expectSlackValid(ask: AskRecord, allowedMentions: string[] = []): void {
  const { text, blocks } = renderAskMessage(ask);
  expect(validateBlocks(blocks, 'message')).toEqual([]);
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThanOrEqual(40_000);
  for (const { pointer, text: value } of allStrings({ text, blocks })) {
    expect(hasLoneSurrogate(value), pointer).toBe(false);
  }
  const allActionIds: string[] = [];
  for (const elements of actionsElements(blocks)) {
    const ids = elements.map((element) => element.action_id as string);
    expect(new Set(ids).size).toBe(ids.length);
    allActionIds.push(...ids);
    for (const element of elements) {
      expect(parseActionId(element.action_id)).not.toBeNull();
      if (element.type === 'button') {
        expect(parseActionValue(element.value)).not.toBeNull();
        expect((element.text as { type: string }).type).toBe('plain_text');
      }
    }
  }
  expect(new Set(allActionIds).size).toBe(allActionIds.length);
  expect(forbiddenSequences(JSON.stringify({ text, blocks }), allowedMentions)).toEqual([]);
}

describe('renderAskMessage at the caps', () => {
  const states: Array<[string, (ask: AskRecord) => AskRecord, string[]]> = [
    ['open', (ask) => ask, []],
    [
      'partly answered',
      (ask) => ({
        ...ask,
        resolutions: [answered([ask.questions[0]?.options?.[1]?.label ?? '']), null, null],
      }),
      ['<@U0BOB>'],
    ],
    [
      'answered with typed text at 3000 code points',
      (ask) => ({
        ...ask,
        resolutions: [
          answered([], 'U0BOB', {
            other: codePoints(Object.values(ALPHABETS)[0] ?? 'x', 3000),
            source: 'modal',
          }),
          answered(
            (ask.questions[1]?.options ?? []).map((o) => o.label),
            'U0BOB',
          ),
          null,
        ],
      }),
      ['<@U0BOB>'],
    ],
    [
      'resolved by timeout',
      (ask) => ({
        ...ask,
        status: 'resolved',
        resolutions: ask.questions.map((q) => assumed((q.options ?? []).map((o) => o.label))),
      }),
      [],
    ],
    [
      'canceled',
      (ask) => ({ ...ask, status: 'resolved', resolutions: ask.questions.map(() => canceled()) }),
      ['<@U0ALICE>'],
    ],
  ];

  for (const [alphabet, unit] of Object.entries(ALPHABETS)) {
    for (const [state, transform, mentions] of states) {
      it(`${alphabet}, ${state}: valid, within every limit, ids only, nothing pings`, () => {
        expectSlackValid(transform(capAsk(unit)), mentions);
      });
    }
  }

  it('stays within 50 blocks for 3 questions x 4 options with descriptions and purposes', () => {
    for (const unit of Object.values(ALPHABETS)) {
      expect(renderAskMessage(capAsk(unit)).blocks.length).toBeLessThanOrEqual(50);
    }
  });

  it('typed text of 3000 ampersands is escaped and cut without breaking an entity', () => {
    const ask = askRecord({
      status: 'resolved',
      resolutions: [answered([], 'U0BOB', { other: '&'.repeat(3000), source: 'modal' })],
    });
    const { blocks } = renderAskMessage(ask);
    expect(validateBlocks(blocks, 'message')).toEqual([]);
    const line = textOf(blocks.at(-1));
    expect(line).toMatch(/^✅ “(&amp;)+…” _\(typed answer\)_ — answered by <@U0BOB>$/);
  });
});

describe('renderAskMessage content', () => {
  const epochSec = Math.floor((SHOWN_AT + THIRTY_MIN) / 1000);
  const dateToken = `<!date^${epochSec}^{date_short_pretty} at {time}|2026-11-29 20:30 UTC>`;
  /** The timeout line of the whole-ask context (the reply hint, when there is one, follows it). */
  const footer = (blocks: KnownBlock[]) =>
    textOf(blocks.at(-1))
      .split('\n')
      .filter((line) => line !== replyHintLine())
      .at(-1);

  it('one question with descriptions: a section per option (label once, whole description, Choose beside it)', () => {
    const { text, blocks } = renderAskMessage(
      askRecord({
        questions: [
          choiceQuestion({
            purpose: 'Checks fail on 3 of 5 pods',
            options: [
              option('Keep going', { description: 'Watch for 10 min' }),
              option('Roll back', { recommended: true, description: 'Restore v1.4 & keep data' }),
            ],
          }),
        ],
      }),
    );
    expect(text).toBe('Question from the agent: The deploy failed health checks. What should I do?');
    expect(blocks.map((block) => [block.type, block.block_id])).toEqual([
      ['header', 'hp.ask_01JDXK7Q9R8S.r0.0.head'],
      ['section', 'hp.ask_01JDXK7Q9R8S.r0.0.q'],
      ['section', 'hp.ask_01JDXK7Q9R8S.r0.0.o1'],
      ['section', 'hp.ask_01JDXK7Q9R8S.r0.0.o0'],
      ['actions', 'hp.ask_01JDXK7Q9R8S.r0.0.act'],
      ['context', 'hp.ask_01JDXK7Q9R8S.r0.x.due'],
    ]);
    expect(textOf(blocks[0])).toBe('Deploy');
    expect(textOf(blocks[1])).toBe(
      'The deploy failed health checks. What should I do?\n_Why:_ Checks fail on 3 of 5 pods',
    );
    expect(textOf(blocks[2])).toBe('*Roll back* _(recommended)_\nRestore v1.4 &amp; keep data');
    expect(textOf(blocks[3])).toBe('*Keep going*\nWatch for 10 min');
    expect((blocks[2] as { accessory?: unknown }).accessory).toEqual({
      type: 'button',
      action_id: 'hp.option.0.1',
      text: { type: 'plain_text', text: 'Choose', emoji: true },
      value: 'v1|turn_01JDXK7P00AA|ask_01JDXK7Q9R8S|0|1',
      style: 'primary',
      accessibility_label: 'Choose Roll back',
    });
    expect((blocks[3] as { accessory?: { style?: string } }).accessory?.style).toBeUndefined();
    expect(actionsElements(blocks)).toEqual([
      [
        {
          type: 'button',
          action_id: 'hp.other.0',
          text: { type: 'plain_text', text: 'Other…', emoji: true },
          value: 'v1|turn_01JDXK7P00AA|ask_01JDXK7Q9R8S|0|-',
        },
      ],
    ]);
    expect(textOf(blocks[5])).toBe(
      `⏱ No answer by ${dateToken} (30 min)? I'll assume *Roll back* and say so.`,
    );
  });

  it('puts the recommended option first with primary style whatever the stored order, keeping its index', () => {
    const { blocks } = renderAskMessage(
      askRecord({
        questions: [
          choiceQuestion({ options: [option('A'), option('B'), option('C', { recommended: true })] }),
        ],
      }),
    );
    const [elements] = actionsElements(blocks);
    expect(
      elements?.map((element) => [element.action_id, (element.text as { text: string }).text, element.style]),
    ).toEqual([
      ['hp.option.0.2', 'C (recommended)', 'primary'],
      ['hp.option.0.0', 'A', undefined],
      ['hp.option.0.1', 'B', undefined],
      ['hp.other.0', 'Other…', undefined],
    ]);
  });

  it('C01: three options and Other in one block have distinct action_ids', () => {
    const { blocks } = renderAskMessage(
      askRecord({
        questions: [
          choiceQuestion({
            header: 'Region',
            question: 'Which region should I deploy to?',
            options: [option('us-east-1'), option('eu-west-1'), option('ap-south-1')],
          }),
        ],
      }),
    );
    const [elements] = actionsElements(blocks);
    expect(elements?.map((element) => element.action_id)).toEqual([
      'hp.option.0.0',
      'hp.option.0.1',
      'hp.option.0.2',
      'hp.other.0',
    ]);
    expect(parseActionValue(elements?.[2]?.value)).toEqual({
      turnId: 'turn_01JDXK7P00AA',
      askId: 'ask_01JDXK7Q9R8S',
      questionIndex: 0,
      optionIndex: 2,
    });
  });

  it('C02: a 48-character recommended label stays within 75 on its button, and a 48-emoji label is cut on a grapheme', () => {
    const label = 'Use the existing Postgres cluster in us-east-1 o';
    expect(label).toHaveLength(48);
    const emoji = codePoints('😀', 48);
    const { blocks } = renderAskMessage(
      askRecord({
        questions: [choiceQuestion({ options: [option(label, { recommended: true }), option(emoji)] })],
      }),
    );
    const [elements] = actionsElements(blocks);
    const texts = elements?.map((element) => (element.text as { text: string }).text) ?? [];
    expect(texts[0]).toBe(`${label} (recommended)`);
    expect(texts[1]).toBe(`${codePoints('😀', 37)}…`);
    for (const value of texts) expect(value.length).toBeLessThanOrEqual(75);
  });

  it('renders multi-select as checkboxes with descriptions (option index values) plus Submit and Other, no list', () => {
    const { blocks } = renderAskMessage(
      askRecord({
        questions: [
          choiceQuestion({
            multiSelect: true,
            options: [
              option('Staging'),
              option('Production', { recommended: true, description: 'Requires approval' }),
            ],
          }),
        ],
      }),
    );
    expect(blocks.map((block) => block.type)).toEqual(['header', 'section', 'actions', 'context']);
    const [elements] = actionsElements(blocks);
    expect(elements).toEqual([
      {
        type: 'checkboxes',
        action_id: 'hp.checks.0',
        options: [
          { text: { type: 'plain_text', text: 'Staging', emoji: true }, value: '0' },
          {
            text: { type: 'plain_text', text: 'Production (recommended)', emoji: true },
            value: '1',
            description: { type: 'plain_text', text: 'Requires approval', emoji: true },
          },
        ],
      },
      expect.objectContaining({
        action_id: 'hp.submit.0',
        style: 'primary',
        text: expect.objectContaining({ text: 'Submit' }),
      }),
      expect.objectContaining({ action_id: 'hp.other.0' }),
    ]);
  });

  it('several questions with descriptions: radio buttons with descriptions (recommended first) and one Submit', () => {
    const { blocks } = renderAskMessage(
      askRecord({
        questions: [
          choiceQuestion({
            options: [
              option('Keep going', { description: 'Watch for 10 min' }),
              option('Roll back', { recommended: true, description: 'Restore v1.4' }),
            ],
          }),
          freeTextQuestion(),
        ],
      }),
    );
    expect(actionsElements(blocks)[0]).toEqual([
      {
        type: 'radio_buttons',
        action_id: 'hp.radio.0',
        options: [
          {
            text: { type: 'plain_text', text: 'Roll back (recommended)', emoji: true },
            value: '1',
            description: { type: 'plain_text', text: 'Restore v1.4', emoji: true },
          },
          {
            text: { type: 'plain_text', text: 'Keep going', emoji: true },
            value: '0',
            description: { type: 'plain_text', text: 'Watch for 10 min', emoji: true },
          },
        ],
      },
      expect.objectContaining({ action_id: 'hp.submit.0', style: 'primary' }),
      expect.objectContaining({ action_id: 'hp.other.0' }),
    ]);
  });

  it('renders a free-text question with an Answer button and says how to answer by reply', () => {
    const { blocks } = renderAskMessage(askRecord({ questions: [freeTextQuestion()] }));
    const [elements] = actionsElements(blocks);
    expect(elements?.map((element) => element.action_id)).toEqual(['hp.answer.0']);
    expect(textOf(blocks.at(-1)).split('\n').slice(-2)).toEqual([
      `⏱ No answer by ${dateToken} (30 min)? I'll go on without an answer and say so.`,
      replyHintLine(),
    ]);
  });

  it('says how to answer by reply once, on the free-text question a reply answers, and not for choices', () => {
    const choiceOnly = renderAskMessage(askRecord({ questions: [choiceQuestion()] }));
    expect(JSON.stringify(choiceOnly.blocks)).not.toContain(replyHintLine());
    const two = renderAskMessage(
      askRecord({ questions: [choiceQuestion(), freeTextQuestion(), freeTextQuestion()] }),
    );
    expect(JSON.stringify(two.blocks).split(replyHintLine())).toHaveLength(2);
  });

  it("a program's ask (no turn holds its thread, so a reply is no answer) does not say to answer by reply", () => {
    const program = askRecord({
      questions: [freeTextQuestion()],
      waiter: { kind: 'api', clientName: 'deploy-script' },
    } as Partial<AskRecord>);
    expect(JSON.stringify(renderAskMessage(program).blocks)).not.toContain(replyHintLine());
  });

  it.each<[string, TimeoutPolicy, AskQuestion, string]>([
    [
      'recommended, default policy',
      'recommended-or-first',
      choiceQuestion(),
      "I'll assume *Roll back* and say so.",
    ],
    [
      'no recommended, default policy -> first',
      'recommended-or-first',
      choiceQuestion({ options: [option('C'), option('D')] }),
      "I'll assume *C* and say so.",
    ],
    [
      'no recommended, recommended-only',
      'recommended-only',
      choiceQuestion({ options: [option('C'), option('D')] }),
      "I'll go on without an answer and say so.",
    ],
    [
      'recommended, recommended-only',
      'recommended-only',
      choiceQuestion(),
      "I'll assume *Roll back* and say so.",
    ],
    ['no-answer', 'no-answer', choiceQuestion(), "I'll go on without an answer and say so."],
    [
      'multi-select names every recommended option',
      'recommended-or-first',
      choiceQuestion({
        multiSelect: true,
        options: [
          option('A', { recommended: true }),
          option('B'),
          option('C &', { recommended: true }),
          option('D', { recommended: true }),
        ],
      }),
      "I'll assume *A*, *C &amp;* and *D* and say so.",
    ],
  ])('deadline line: %s', (_name, policy, question, outcome) => {
    const { blocks } = renderAskMessage(askRecord({ policy, questions: [question] }));
    expect(footer(blocks)).toBe(`⏱ No answer by ${dateToken} (30 min)? ${outcome}`);
  });

  it('uses now + timeout before the ask was shown, or only the duration', () => {
    const notShown = askRecord({ shownAt: null, deadline: null });
    expect(footer(renderAskMessage(notShown, { now: SHOWN_AT }).blocks)).toBe(
      `⏱ No answer by ${dateToken} (in 30 min)? I'll assume *Roll back* and say so.`,
    );
    expect(footer(renderAskMessage(notShown).blocks)).toBe(
      "⏱ No answer within 30 min? I'll assume *Roll back* and say so.",
    );
  });

  it('partly answered: the answered question loses its controls, the open one keeps them', () => {
    const ask = askRecord({
      questions: [
        choiceQuestion({ header: 'Q1', options: [option('A', { recommended: true }), option('B')] }),
        choiceQuestion({ header: 'Q2', options: [option('C'), option('D')] }),
      ],
      resolutions: [answered(['B']), null],
    });
    const { blocks } = renderAskMessage(ask);
    expect(blocks.map((block) => block.type)).toEqual([
      'section',
      'section',
      'divider',
      'section',
      'actions',
      'context',
    ]);
    expect(textOf(blocks[0])).toBe('*1/2 · Q1*\nThe deploy failed health checks. What should I do?');
    expect(textOf(blocks[1])).toBe('✅ *B* — chosen by <@U0BOB>');
    expect(textOf(blocks[3])).toBe('*2/2 · Q2*\nThe deploy failed health checks. What should I do?');
    // The timeout line speaks only of the open question.
    expect(footer(blocks)).toBe(`⏱ No answer by ${dateToken} (30 min)? I'll assume *C* for 2/2, and say so.`);
    expect(actionsElements(blocks).map((elements) => elements.map((element) => element.action_id))).toEqual([
      ['hp.option.1.0', 'hp.option.1.1', 'hp.other.1'],
    ]);
    // The menu stays beside the first question.
    expect((blocks[0] as { accessory?: { action_id?: string } }).accessory?.action_id).toBe('hp.more');
    const before = new Set(
      renderAskMessage({ ...ask, resolutions: [null, null] }).blocks.map((block) => block.block_id),
    );
    for (const block of blocks) expect(before.has(block.block_id)).toBe(false);
  });

  it.each<[string, AskRecord['resolutions'][number], string]>([
    ['answered', answered(['Roll back']), '✅ *Roll back* — chosen by <@U0BOB>'],
    ['answered, several', answered(['A', 'B']), '✅ *A*, *B* — chosen by <@U0BOB>'],
    [
      'typed Other',
      answered([], 'U0BOB', { other: '<staging> & prod at 80%', source: 'modal' }),
      '✅ “&lt;staging&gt; &amp; prod at 80%” _(typed answer)_ — answered by <@U0BOB>',
    ],
    ['answered by a malformed id', answered(['A'], '<!channel>'), '✅ *A* — chosen by &lt;!channel&gt;'],
    ['assumed', assumed(['Roll back']), '⏱ No answer in 30 min: assumed *Roll back*'],
    ['assumed nothing', assumed([]), '⏱ No answer in 30 min: no option assumed'],
    [
      'not shown',
      assumed(['Roll back'], { source: 'not_shown' }),
      '⚠️ Could not be shown in Slack: assumed *Roll back*',
    ],
    ['canceled', canceled('U0ALICE'), '🚫 Canceled by <@U0ALICE>'],
  ])('resolved line: %s', (_name, resolution, line) => {
    const { text, blocks } = renderAskMessage(askRecord({ status: 'resolved', resolutions: [resolution] }));
    expect(blocks.map((block) => block.type)).toEqual(['header', 'section', 'section']);
    expect(textOf(blocks[2])).toBe(line);
    expect(text).toBe('Resolved: The deploy failed health checks. What should I do?');
  });

  it('C05: mentions, broadcasts, links and & in every model field come out inert', () => {
    const evil = 'Tell <!channel> <!here> <!everyone> <!subteam^S1> <@U024BE7LH> <https://x|y> & <#C0OPS>';
    const question: AskQuestion = {
      header: 'Notify <!here>',
      question: `Should I tell <!channel> the deploy is paused? cc <@U024BE7LH> <!subteam^S0123ABC>`,
      kind: 'choice',
      multiSelect: false,
      purpose: evil,
      options: [
        option('Yes, <!here> now', { recommended: true, description: evil }),
        option('<https://x|y>', { description: evil }),
      ],
    };
    const multi: AskQuestion = { ...question, multiSelect: true };
    const states: AskRecord[] = [
      askRecord({
        questions: [
          question,
          multi,
          freeTextQuestion({ header: evil.slice(0, 60), question: evil, purpose: evil }),
        ],
      }),
      askRecord({
        questions: [question, multi],
        resolutions: [
          answered(['Yes, <!here> now']),
          answered([], 'U0BOB', { other: evil, source: 'modal' }),
        ],
        status: 'resolved',
      }),
      askRecord({ questions: [question], resolutions: [assumed(['Yes, <!here> now'])], status: 'resolved' }),
    ];
    for (const ask of states) {
      const rendered = renderAskMessage(ask);
      const serialized = JSON.stringify(rendered);
      expect(forbiddenSequences(serialized, ['<@U0BOB>'])).toEqual([]);
      for (const text of [...mrkdwnTexts(rendered.blocks), rendered.text]) {
        expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      }
      expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
    }
  });
});

describe('renderAskMessage for an ask a program opened', () => {
  const programAsk = (extra: Partial<AskRecord> = {}) =>
    askRecord({ scope: 'ask-p1', waiter: { kind: 'api', clientName: 'deploy-script' }, ...extra });

  it('shows its intro first, escaped like model text, and offers no Cancel (the program cancels through the API)', () => {
    const rendered = renderAskMessage(programAsk({ intro: 'Release <!channel> 2.41 & more' }));
    const first = rendered.blocks[0] as { type: string; text?: { text: string } };
    expect(first.type).toBe('section');
    expect(first.text?.text).toBe('Release &lt;!channel&gt; 2.41 &amp; more');
    expect(JSON.stringify(rendered.blocks)).not.toContain('hp.cancel');
    expect(JSON.stringify(rendered.blocks)).not.toContain('|c"');
    expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
  });

  it('its notification text names the program (its token name, escaped), not the agent', () => {
    const cases: Array<[string, string]> = [
      ['deploy-script', 'Question from deploy-script: '],
      ['ci <!here> & co', 'Question from ci &lt;!here&gt; &amp; co: '],
    ];
    for (const [clientName, lead] of cases) {
      const rendered = renderAskMessage(programAsk({ waiter: { kind: 'api', clientName } }));
      expect(rendered.text.startsWith(lead)).toBe(true);
    }
  });

  it("a turn's ask offers Cancel… in its menu and has no intro block", () => {
    const rendered = renderAskMessage(askRecord());
    expect(JSON.stringify(rendered.blocks)).toContain('"value":"m1|turn_01JDXK7P00AA|ask_01JDXK7Q9R8S|c"');
    expect(JSON.stringify(rendered.blocks)).not.toContain('.intro');
  });
});

describe('renderAskMessage for an approval of tool calls', () => {
  const gatedQuestion = (onTimeout: 'deny' | 'approve' = 'deny'): AskQuestion =>
    choiceQuestion({
      header: 'Approve deploy.rollback?',
      question: 'The agent wants to run rollback on the MCP server deploy, with these arguments:',
      purpose: 'Checks fail <!channel> <https://evil.example|click>',
      options: [
        option('Approve', { recommended: onTimeout === 'approve' }),
        option('Deny', { recommended: onTimeout === 'deny' }),
      ],
    });
  const approvalAsk = (extra: Partial<AskRecord> = {}) =>
    askRecord({
      questions: [gatedQuestion()],
      approval: {
        calls: [
          {
            toolCallId: 'call_1',
            toolName: 'deploy_rollback',
            server: 'deploy',
            tool: 'rollback',
            input: { service: 'api <!here>', note: '```</code> <@U0EVIL> <https://x.example|y>' },
          },
        ],
        reason: 'Checks fail',
      },
      ...extra,
    });

  it('shows the arguments in a code block, inert; Approve (primary), Deny (danger), Deny with reason…', () => {
    const rendered = renderAskMessage(approvalAsk());
    expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
    expect(rendered.text).toBe('Approval needed: deploy.rollback');
    const serialized = JSON.stringify(rendered.blocks);
    expect(forbiddenSequences(serialized, [])).toEqual([]);
    const args = mrkdwnTexts(rendered.blocks).find((text) => text.startsWith('```'));
    expect(args).toContain('&lt;!here&gt;');
    // The model's backticks cannot close the code block early.
    expect(args?.slice(3, -3)).not.toContain('`');
    const buttons = actionsElements(rendered.blocks)[0] ?? [];
    expect(buttons.map((b) => [(b.text as { text: string }).text, b.style ?? null])).toEqual([
      ['Approve', 'primary'],
      ['Deny', 'danger'],
      ['Deny with reason…', null],
    ]);
    expect(mrkdwnTexts(rendered.blocks).some((t) => t.includes('It will be *denied*'))).toBe(true);
  });

  it.each([
    [answered(['Approve']), '✅ Approved by <@U0BOB>'],
    [answered(['Deny']), '⛔ Denied by <@U0BOB>'],
    [
      answered([], 'U0BOB', { other: 'freeze <!channel>', source: 'modal' }),
      '⛔ Denied by <@U0BOB>: “freeze &lt;!channel&gt;”',
    ],
    [assumed(['Deny']), '⏱ No decision in 30 min: denied'],
    [assumed(['Approve']), '⏱ No decision in 30 min: approved by default'],
    [canceled(), '🚫 Canceled by <@U0ALICE>: not run'],
  ])('a decided approval says %#: %s', (resolution, line) => {
    const rendered = renderAskMessage(approvalAsk({ status: 'resolved', resolutions: [resolution] }));
    expect(mrkdwnTexts(rendered.blocks)).toContain(line);
    expect(actionsElements(rendered.blocks)).toEqual([]);
    expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
  });

  it.each([
    [{ ok: true, text: 'rolled back' }, '✅ Approved by <@U0BOB> — ran: ok'],
    [
      { ok: false, text: 'deploy API said <!here> no' },
      '✅ Approved by <@U0BOB> — ran, failed: deploy API said &lt;!here&gt; no',
    ],
  ])('an approved call that ran says how it went: %j', (outcome, line) => {
    const rendered = renderAskMessage(
      approvalAsk({ status: 'resolved', resolutions: [answered(['Approve'])] }),
      {
        approvalOutcomes: [outcome],
      },
    );
    expect(mrkdwnTexts(rendered.blocks)).toContain(line);
  });

  it('onTimeout approve says so, and three calls stay within Slack limits', () => {
    const three = approvalAsk({
      questions: [gatedQuestion('approve'), gatedQuestion(), gatedQuestion()],
      resolutions: [null, null, null],
      approval: {
        calls: [0, 1, 2].map((n) => ({
          toolCallId: `call_${n}`,
          toolName: 'deploy_rollback',
          server: 'deploy',
          tool: 'rollback',
          input: { blob: 'x'.repeat(10_000) },
        })),
        reason: null,
      },
    });
    const rendered = renderAskMessage(three);
    expect(validateBlocks(rendered.blocks, 'message')).toEqual([]);
    expect(
      mrkdwnTexts(rendered.blocks).some((t) =>
        t.includes('1 will be *approved*, 2 will be *denied*, 3 will be *denied*, and the agent told so.'),
      ),
    ).toBe(true);
  });
});

describe('the arguments of an approval cut in its message', () => {
  const big = {
    service: 'api',
    items: Array.from({ length: 400 }, (_, n) => ({ n, note: `<!here> item ${n}` })),
  };
  const ask = askRecord({
    questions: [choiceQuestion({ options: [option('Approve'), option('Deny', { recommended: true })] })],
    approval: {
      calls: [{ toolCallId: 'c1', toolName: 'deploy_apply', server: 'deploy', tool: 'apply', input: big }],
      reason: null,
    },
  });

  it('the message offers "Show all" (hp.args.0) only when the arguments were cut', () => {
    const cut = renderAskMessage(ask);
    expect(JSON.stringify(cut.blocks)).toContain('"action_id":"hp.args.0"');
    expect(
      mrkdwnTexts(cut.blocks).some((t) =>
        /_Cut: [\d,]+ characters in all, not all shown; \*Show all\* has them whole\._$/.test(t),
      ),
    ).toBe(true);
    expect(validateBlocks(cut.blocks, 'message')).toEqual([]);
    expect(parseActionId('hp.args.0')).toEqual({ kind: 'args', questionIndex: 0, optionIndex: null });
    const small = renderAskMessage({
      ...ask,
      approval: {
        calls: [
          { ...(ask.approval?.calls[0] as NonNullable<typeof ask.approval>['calls'][0]), input: { a: 1 } },
        ],
        reason: null,
      },
    });
    expect(JSON.stringify(small.blocks)).not.toContain('hp.args.0');
  });

  it('the modal shows them whole, escaped, within the modal limits', () => {
    const view = renderArgumentsModal(ask, 0);
    expect(view).not.toBeNull();
    expect(validateBlocks(view?.blocks ?? [], 'modal')).toEqual([]);
    const texts = mrkdwnTexts(view?.blocks ?? []);
    expect(texts[0]).toBe('*deploy.apply*');
    const shown = texts
      .slice(1)
      .map((text) => text.slice(3, -3))
      .join('\n');
    expect(shown).toBe(
      JSON.stringify(big, null, 2).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
    );
    expect(forbiddenSequences(JSON.stringify(view), [])).toEqual([]);
    expect(renderArgumentsModal(askRecord(), 0)).toBeNull();
  });
});

describe('who may answer, by name', () => {
  it.each([
    [{ mode: 'anyone' as const }, null],
    [{ mode: 'requester' as const }, null],
    [
      { mode: 'list' as const, userIds: ['U0BOB'], groupIds: ['S0ONCALL'] },
      '👤 Who can answer: <@U0BOB>, <!subteam^S0ONCALL>',
    ],
    [
      { mode: 'list' as const, userIds: ['U0BOB<!channel>'], groupIds: ['S0X><!here'] },
      '👤 Who can answer: U0BOB&lt;!channel&gt;, S0X&gt;&lt;!here',
    ],
  ])('%j: %s', (answerers, line) => {
    expect(whoMayAnswerLine({ answerers, approval: null })).toBe(line);
  });

  it('an open ask with a list mentions them (and nothing else); an approval says approve; a resolved ask does not', () => {
    const answerers = { mode: 'list' as const, userIds: ['U0BOB', 'W0EVE'], groupIds: ['S0ONCALL'] };
    const open = renderAskMessage(askRecord({ answerers }));
    expect(validateBlocks(open.blocks, 'message')).toEqual([]);
    expect(mrkdwnTexts(open.blocks).at(-1)?.split('\n')[0]).toBe(
      '👤 Who can answer: <@U0BOB>, <@W0EVE>, <!subteam^S0ONCALL>',
    );
    expect(
      forbiddenSequences(JSON.stringify(open.blocks), ['<@U0BOB>', '<@W0EVE>', '<!subteam^S0ONCALL>']),
    ).toEqual([]);
    const many = {
      mode: 'list' as const,
      userIds: Array.from({ length: 12 }, (_, n) => `U0P${n}`),
      groupIds: [],
    };
    expect(
      mrkdwnTexts(renderAskMessage(askRecord({ answerers: many })).blocks).some((t) =>
        t.split('\n')[0]?.endsWith('and 2 more'),
      ),
    ).toBe(true);
    const resolved = renderAskMessage(
      askRecord({ answerers, status: 'resolved', resolutions: [answered(['Roll back'])] }),
    );
    expect(JSON.stringify(resolved.blocks)).not.toContain('Who can answer');
  });
});
