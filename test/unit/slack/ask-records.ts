/**
 * Builders of AskRecords for Slack renderer tests. Defaults: one open single-select question with a
 * recommended first option, 30 min timeout, policy `recommended-or-first`, deadline set.
 */
import type { AskOption, AskQuestion, QuestionResolution } from '../../../src/ask/types.js';
import { type AskRecord, openAskState } from '../../../src/asks/types.js';

/** 2026-11-29T20:00:00Z in epoch ms. */
export const SHOWN_AT = Date.UTC(2026, 10, 29, 20, 0, 0);
/** 30 minutes in ms. */
export const THIRTY_MIN = 30 * 60 * 1000;

export function option(label: string, extra: Partial<AskOption> = {}): AskOption {
  return { label, description: null, recommended: false, ...extra };
}

export function choiceQuestion(extra: Partial<AskQuestion> = {}): AskQuestion {
  return {
    header: 'Deploy',
    question: 'The deploy failed health checks. What should I do?',
    kind: 'choice',
    multiSelect: false,
    purpose: null,
    options: [option('Roll back', { recommended: true }), option('Keep going')],
    ...extra,
  };
}

export function freeTextQuestion(extra: Partial<AskQuestion> = {}): AskQuestion {
  return {
    header: 'Release notes',
    question: 'What should the release note say?',
    kind: 'free_text',
    multiSelect: false,
    purpose: null,
    options: null,
    ...extra,
  };
}

export function askRecord(extra: Partial<AskRecord> = {}): AskRecord {
  const questions = extra.questions ?? [choiceQuestion()];
  return {
    version: 2,
    askId: 'ask_01JDXK7Q9R8S',
    scope: 'turn_01JDXK7P00AA',
    waiter: { kind: 'turn', turnId: 'turn_01JDXK7P00AA', toolCallId: 'call_1' },
    ordinal: 0,
    questions,
    conversation: { surface: 'slack', channel: 'C0OPS', threadTs: '1780000000.000100' },
    requestedBy: 'U0ALICE',
    answerers: { mode: 'anyone' },
    timeoutMs: THIRTY_MIN,
    policy: 'recommended-or-first',
    createdAt: '2026-11-29T19:59:59.000Z',
    ...openAskState({ questions }),
    shownAt: SHOWN_AT,
    deadline: SHOWN_AT + THIRTY_MIN,
    messageRef: '{"channel":"C0OPS","ts":"1780000065.000300"}',
    resumeQueuedAt: null,
    ...extra,
  };
}

export function answered(
  selected: string[],
  by = 'U0BOB',
  extra: Partial<QuestionResolution> = {},
): QuestionResolution {
  return {
    status: 'answered',
    selected,
    other: null,
    answeredBy: by,
    answeredAt: '2026-11-29T20:01:00.000Z',
    source: 'button',
    assumption: null,
    ...extra,
  };
}

export function assumed(selected: string[], extra: Partial<QuestionResolution> = {}): QuestionResolution {
  return {
    status: 'assumed',
    selected,
    other: null,
    answeredBy: null,
    answeredAt: '2026-11-29T20:30:00.000Z',
    source: 'timeout',
    assumption: selected.length > 0 ? 'recommended' : 'no_answer',
    ...extra,
  };
}

export function canceled(by = 'U0ALICE'): QuestionResolution {
  return {
    status: 'canceled',
    selected: [],
    other: null,
    answeredBy: by,
    answeredAt: '2026-11-29T20:02:00.000Z',
    source: 'cancel',
    assumption: null,
  };
}
