/**
 * The ephemeral that asks the author of a thread reply whether it is their answer to an open free-text
 * question, and the texts it is replaced with once they decided. Model text (the question) and the
 * person's reply are escaped; the buttons carry ids only. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { AskRecord } from '../../asks/types.js';
import { REPLY_DISMISS_ACTION_ID, REPLY_USE_ACTION_ID } from './action-ids.js';
import { SLACK_LIMITS } from './limits.js';
import { mrkdwnText, plainText } from './text-objects.js';
import { escapeAndTruncate } from './truncate.js';

/** Budget of the question inside the ephemeral's mrkdwn (escaped). */
const QUESTION_MRKDWN_MAX = 600;
/** Budget of the quoted reply (escaped). */
const REPLY_MRKDWN_MAX = 1200;

/** The rendered ephemeral: fallback `text` and `blocks`. */
export interface RenderedReplyConfirm {
  text: string;
  blocks: KnownBlock[];
}

/** `'Q'` for a question, escaped and cut. */
function quoted(question: string): string {
  return `‘${escapeAndTruncate(question, QUESTION_MRKDWN_MAX)}’`;
}

/**
 * "Use this as your answer to 'Q'?" with the reply quoted, a Use (primary) and a Not an answer button
 * (both with `value`, from `encodeReplyValue`), and a hint that a reply mentioning the bot answers at once.
 */
export function renderReplyConfirm(question: string, replyText: string, value: string): RenderedReplyConfirm {
  const ask = `Use this as your answer to ${quoted(question)}?`;
  const reply = escapeAndTruncate(replyText.replace(/\s+/g, ' ').trim(), REPLY_MRKDWN_MAX);
  return {
    text: ask,
    blocks: [
      {
        type: 'section',
        block_id: 'hp.reply.ask',
        text: mrkdwnText(`${ask}\n>${reply}`, SLACK_LIMITS.sectionText),
      },
      {
        type: 'actions',
        block_id: 'hp.reply.act',
        elements: [
          {
            type: 'button',
            action_id: REPLY_USE_ACTION_ID,
            text: plainText('Use', SLACK_LIMITS.buttonText),
            value,
            style: 'primary',
          },
          {
            type: 'button',
            action_id: REPLY_DISMISS_ACTION_ID,
            text: plainText('Not an answer', SLACK_LIMITS.buttonText),
            value,
          },
        ],
      },
      {
        type: 'context',
        block_id: 'hp.reply.tip',
        elements: [
          mrkdwnText(
            'Only you see this. A reply that mentions me answers at once, without this step.',
            SLACK_LIMITS.textObject,
          ),
        ],
      },
    ],
  };
}

/** What the ephemeral says once the reply was used as the answer. */
export function replyUsedText(question: string): string {
  return `:white_check_mark: Used your reply as the answer to ${quoted(question)}.`;
}

/** What the ephemeral says when Use found the question closed or answered (a notice says why). */
export function replyNotUsedText(): string {
  return 'Your reply was not used as an answer.';
}

/** What the ephemeral says after "Not an answer"; `follows` when the reply went on as conversation. */
export function replyDismissedText(follows: boolean): string {
  return follows
    ? 'OK, not an answer: I took your reply as part of the conversation.'
    : 'OK, not an answer. The question is still open.';
}

/** The reply is no longer held (its offer expired) or was never offered. */
export function replyGoneText(): string {
  return 'This reply is no longer waiting for your decision. Answer with the question’s *Answer* button, or reply again mentioning me.';
}

/** Someone other than the reply's author clicked. */
export function replyNotYoursText(): string {
  return 'Only the person who wrote the reply can decide whether it is their answer. Nothing was changed.';
}

/** A click that contradicts the decision made before (Use after Not an answer, or the other way). */
export function replyDecidedText(decision: 'use' | 'dismiss'): string {
  return decision === 'use'
    ? 'You already chose *Use* for this reply. Nothing was changed.'
    : 'You already chose *Not an answer* for this reply. Nothing was changed.';
}

/**
 * The question a thread reply answers while the ask is open: its first free-text question without a
 * resolution; -1 when there is none (or the ask is not open).
 */
export function replyAnswerableQuestion(
  ask: Pick<AskRecord, 'status' | 'questions' | 'resolutions'>,
): number {
  if (ask.status !== 'open') return -1;
  return ask.questions.findIndex(
    (question, index) => question.kind === 'free_text' && !ask.resolutions[index],
  );
}

/**
 * The line the ask message carries for a free-text question: how to answer by replying in the thread.
 */
export function replyHintLine(): string {
  return 'Or answer by replying in this thread and mentioning me (a reply without the mention is checked with you first).';
}
