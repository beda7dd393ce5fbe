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
  };
}
