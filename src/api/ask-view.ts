import { type AskResultAnswer, askResultAnswer } from '../ask/format-ask-result.js';
import type { AskRecord } from '../asks/types.js';
import { parseMessageRef } from '../slack/message-ref.js';

/** An ask as the ask API returns it. */
export interface AskView {
  id: string;
  /** `canceled` when it was canceled; `resolved` when answered or assumed. */
  status: 'open' | 'resolved' | 'canceled';
  channel: string;
  /** The Slack message's ts; null until shown. */
  ts: string | null;
  /** ISO 8601; null until shown. */
  deadline: string | null;
  metadata: Record<string, unknown> | null;
  /** One entry per resolved question, the same objects as the JSON block of the agent's tool result. */
  answers: AskResultAnswer[];
  /** Late answers that replaced an assumed one, one per changed question (see `ask.overridden`). */
  overrides: AskOverrideView[];
}

/** A late answer as the API shows it: which question, what was assumed, what it is now, who and when. */
export interface AskOverrideView {
  /** 0-based. */
  questionIndex: number;
  question: string;
  /** The option labels the timeout assumed. */
  assumed: string[];
  selected: string[];
  other: string | null;
  /** Slack user id. */
  by: string;
  /** ISO 8601. */
  at: string;
}

/** The API view of a stored ask. Pure. */
export function askView(ask: AskRecord): AskView {
  const answers = ask.questions.flatMap((question, index) => {
    const resolution = ask.resolutions[index];
    return resolution ? [askResultAnswer(question, resolution)] : [];
  });
  const canceled = ask.status === 'resolved' && ask.resolutions.some((r) => r?.status === 'canceled');
  const ref = parseMessageRef(ask.messageRef);
  return {
    id: ask.askId,
    status: ask.status === 'open' ? 'open' : canceled ? 'canceled' : 'resolved',
    channel: ref?.channel ?? ask.conversation.channel,
    ts: ref?.ts ?? null,
    deadline: ask.deadline === null ? null : new Date(ask.deadline).toISOString(),
    metadata: ask.metadata ?? null,
    answers,
    overrides: ask.questions.flatMap((question, index) => {
      const override = ask.overrides[index];
      if (!override) return [];
      return [
        {
          questionIndex: index,
          question: question.question,
          assumed: ask.resolutions[index]?.selected ?? [],
          selected: override.selected,
          other: override.other,
          by: override.by,
          at: override.at,
        },
      ];
    }),
  };
}
