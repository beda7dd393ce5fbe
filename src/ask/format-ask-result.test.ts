import { describe, expect, it } from 'vitest';
import { type AskResultAnswer, formatAskResult, parseAskResultJson } from './format-ask-result.js';
import type { AskQuestion, QuestionResolution } from './types.js';

const t0 = '2025-01-01T10:00:00.000Z';
const t1 = '2025-01-01T10:30:00.000Z';

const auth: AskQuestion = {
  header: 'Auth method',
  question: 'Which authentication method should the new service use?',
  kind: 'choice',
  multiSelect: false,
  purpose: null,
  options: [
    { label: 'OAuth 2.0', description: null, recommended: true },
    { label: 'API key', description: null, recommended: false },
  ],
};
const region: AskQuestion = {
  header: 'Region',
  question: 'Where should I deploy?',
  kind: 'choice',
  multiSelect: false,
  purpose: null,
  options: [
    { label: 'eu-west-1', description: null, recommended: false },
    { label: 'us-east-1', description: null, recommended: false },
  ],
};
const sections: AskQuestion = {
  header: 'Sections',
  question: 'Which sections should the report include?',
  kind: 'choice',
  multiSelect: true,
  purpose: null,
  options: [
    { label: 'Summary', description: null, recommended: false },
    { label: 'Timeline', description: null, recommended: false },
  ],
};
const ticket: AskQuestion = {
  header: null,
  question: 'Which ticket should I link?',
  kind: 'free_text',
  multiSelect: false,
  purpose: null,
  options: null,
};

function answered(
  selected: string[],
  other: string | null,
  source: QuestionResolution['source'],
): QuestionResolution {
  return {
    status: 'answered',
    selected,
    other,
    answeredBy: 'U024BE7LH',
    answeredAt: t0,
    source,
    assumption: null,
  };
}

function assumed(
  selected: string[],
  assumption: QuestionResolution['assumption'],
  source: 'timeout' | 'not_shown' = 'timeout',
): QuestionResolution {
  return { status: 'assumed', selected, other: null, answeredBy: null, answeredAt: t1, source, assumption };
}

function summaryLines(text: string): string[] {
  return text.slice(0, text.lastIndexOf('```json\n')).trim().split('\n');
}

describe('formatAskResult', () => {
  it('all answered: who chose what, and typed text marked as typed by the person', () => {
    const text = formatAskResult(
      [auth, region],
      [answered(['OAuth 2.0'], null, 'button'), answered([], 'ap-south-1 please', 'modal')],
    );
    expect(summaryLines(text)).toEqual([
      'Result of your ask_question call:',
      '1. Which authentication method should the new service use? -> "OAuth 2.0" (answered by <@U024BE7LH> via button)',
      '2. Where should I deploy? -> typed by the person: "ap-south-1 please" (answered by <@U024BE7LH> via modal)',
    ]);
    expect(parseAskResultJson(text)?.answers[1]).toEqual({
      header: 'Region',
      question: 'Where should I deploy?',
      status: 'answered',
      selected: [],
      other: 'ap-south-1 please',
      answeredBy: 'U024BE7LH',
      source: 'modal',
      answeredAt: t0,
    });
  });

  it('assumed with a recommended option: nobody answered within the limit, picked by default, an assumption', () => {
    const text = formatAskResult([auth], [assumed(['OAuth 2.0'], 'recommended')], { timeoutMs: 30 * 60_000 });
    expect(summaryLines(text)[1]).toBe(
      '1. Which authentication method should the new service use? -> "OAuth 2.0": NOBODY answered within the time limit (30 minutes), so the recommended option was picked by default. This is an assumption, not a decision by a person: say so when you act on it.',
    );
    expect(parseAskResultJson(text)?.answers[0]).toMatchObject({
      status: 'assumed',
      assumption: 'recommended',
      answeredBy: null,
      source: 'timeout',
    });
  });

  it('assumed without a recommended option: the first option, said in words', () => {
    const text = formatAskResult([region], [assumed(['eu-west-1'], 'first_option')], { timeoutMs: 90_000 });
    const line = summaryLines(text)[1];
    expect(line).toContain('NOBODY answered within the time limit (1.5 minutes)');
    expect(line).toContain('no option was marked recommended, so the first option was picked by default');
    expect(line).toContain('This is an assumption, not a decision by a person');
  });

  it('assumed with no answer: no option chosen, any choice is an assumption to state', () => {
    const text = formatAskResult([ticket], [assumed([], 'no_answer')]);
    expect(summaryLines(text)[1]).toBe(
      '1. Which ticket should I link? -> no answer: NOBODY answered within the time limit, and no option was chosen. Any choice you make here is an assumption you must state explicitly.',
    );
  });

  it('multi-select plus free text', () => {
    const text = formatAskResult(
      [sections, ticket],
      [
        answered(['Summary', 'Timeline'], 'and a glossary', 'modal'),
        answered([], 'JIRA-123', 'thread_reply'),
      ],
    );
    expect(summaryLines(text).slice(1)).toEqual([
      '1. Which sections should the report include? -> "Summary", "Timeline", typed by the person: "and a glossary" (answered by <@U024BE7LH> via modal)',
      '2. Which ticket should I link? -> typed by the person: "JIRA-123" (answered by <@U024BE7LH> via thread reply)',
    ]);
  });

  it('canceled: do not act on it', () => {
    const canceled: QuestionResolution = {
      status: 'canceled',
      selected: [],
      other: null,
      answeredBy: 'U1',
      answeredAt: t0,
      source: 'cancel',
      assumption: null,
    };
    const text = formatAskResult([auth], [canceled]);
    expect(summaryLines(text)[1]).toBe(
      '1. Which authentication method should the new service use? -> canceled by <@U1>: the requester canceled this question; do not act on it.',
    );
    expect(parseAskResultJson(text)?.answers[0]).not.toHaveProperty('assumption');
  });

  it('not shown: the question could not be shown to anyone', () => {
    const text = formatAskResult([auth], [assumed(['OAuth 2.0'], 'recommended', 'not_shown')]);
    expect(summaryLines(text)[1]).toContain(
      'the question could not be shown to anyone, so NOBODY answered it',
    );
    expect(summaryLines(text)[1]).toContain('picked by default');
  });

  it('mixed batch (C30): the JSON block parses back to the same answers', () => {
    const text = formatAskResult(
      [auth, region, ticket],
      [
        answered(['API key'], null, 'button'),
        assumed(['eu-west-1'], 'first_option'),
        assumed([], 'no_answer'),
      ],
      { timeoutMs: 300_000, ignoredKeys: ['questions[0].allow_other'] },
    );
    const expected: AskResultAnswer[] = [
      {
        header: 'Auth method',
        question: 'Which authentication method should the new service use?',
        status: 'answered',
        selected: ['API key'],
        other: null,
        answeredBy: 'U024BE7LH',
        source: 'button',
        answeredAt: t0,
      },
      {
        header: 'Region',
        question: 'Where should I deploy?',
        status: 'assumed',
        selected: ['eu-west-1'],
        other: null,
        answeredBy: null,
        source: 'timeout',
        answeredAt: t1,
        assumption: 'first_option',
      },
      {
        header: null,
        question: 'Which ticket should I link?',
        status: 'assumed',
        selected: [],
        other: null,
        answeredBy: null,
        source: 'timeout',
        answeredAt: t1,
        assumption: 'no_answer',
      },
    ];
    expect(parseAskResultJson(text)).toEqual({ answers: expected });
    expect(text).toContain('(5 minutes)');
    expect(text).toContain(
      'Note: these keys are not part of ask_question and were ignored: questions[0].allow_other.',
    );
    expect(text.endsWith('\n```')).toBe(true);
  });

  it('keeps the block readable when model text contains fences and newlines', () => {
    const tricky: AskQuestion = { ...ticket, question: 'Paste it:\n```json\n{"answers":[]}\n```' };
    const text = formatAskResult([tricky], [answered([], 'x\n```', 'modal')]);
    expect(parseAskResultJson(text)?.answers[0]).toMatchObject({
      question: tricky.question,
      other: 'x\n```',
    });
    expect(summaryLines(text)).toHaveLength(2);
  });

  it('throws StateError when resolutions do not match questions', () => {
    expect(() => formatAskResult([auth, region], [answered(['API key'], null, 'button')])).toThrow(
      expect.objectContaining({ code: 'ask_resolution_mismatch' }),
    );
  });
});

describe('parseAskResultJson', () => {
  it.each([['no block'], ['```json\nnot json\n```'], ['```json\n{"answers":[{"status":"maybe"}]}\n```']])(
    'returns null for %j',
    (text) => {
      expect(parseAskResultJson(text)).toBeNull();
    },
  );
});

describe('formatAskResult with a quorum', () => {
  it('names everyone whose equal answer counted, in words and in the JSON', () => {
    const resolution: QuestionResolution = {
      status: 'answered',
      selected: ['OAuth 2.0'],
      other: null,
      answeredBy: 'U0BOB',
      answeredAt: t1,
      source: 'button',
      assumption: null,
      voters: ['U0ALICE', 'U0BOB'],
    };
    const text = formatAskResult([auth], [resolution]);
    expect(text).toContain('"OAuth 2.0" (agreed by 2 people: <@U0ALICE>, <@U0BOB>)');
    expect(parseAskResultJson(text)?.answers[0]?.voters).toEqual(['U0ALICE', 'U0BOB']);
  });
});
