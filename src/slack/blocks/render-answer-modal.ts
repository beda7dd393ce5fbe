/**
 * The modal for a typed answer: "Other…" on a choice question, "Answer" on a free-text question. Pure.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import type { AskRecord } from '../../asks/types.js';
import { StateError } from '../../errors.js';
import {
  ANSWER_INPUT_ACTION_ID,
  ANSWER_INPUT_BLOCK_ID,
  ANSWER_MODAL_CALLBACK_ID,
  blockId,
  encodeModalMetadata,
} from './action-ids.js';
import { SLACK_LIMITS } from './limits.js';
import { mrkdwnText, plainText } from './text-objects.js';
import { escapeAndTruncate } from './truncate.js';

/** Where the ask message lives, so the modal submit can update it. */
export interface AnswerModalTarget {
  /** Channel id of the ask message. */
  channel: string;
  /** `ts` of the ask message. */
  messageTs: string;
}

/**
 * Renders the answer modal for question `questionIndex` of `ask`: title "Answer" (free text) or "Other
 * answer" (choice), the header and question (escaped mrkdwn), a required multiline plain_text_input
 * (max_length 3000) in input block `hp.answer` / action `hp.answer.text`, submit "Send", close "Cancel",
 * callback_id `hp.modal.answer` and private_metadata `{v:1, turnId, askId, q, channel, messageTs}`.
 * Every modal limit (title/submit/close ≤ 24, private_metadata ≤ 3000, ≤ 100 blocks) holds by construction.
 *
 * @throws StateError `slack_index_invalid` when `questionIndex` is not a question of the ask;
 *   `slack_metadata_too_long` when the ids make private_metadata exceed 3000 characters.
 */
export function renderAnswerModal(
  ask: AskRecord,
  questionIndex: number,
  target: AnswerModalTarget,
): ModalView {
  const question = ask.questions[questionIndex];
  if (question === undefined) {
    throw new StateError('slack_index_invalid', `question index ${questionIndex} is not in this ask`, {
      fields: { questionIndex, questions: ask.questions.length },
    });
  }
  const freeText =
    question.kind === 'free_text' || question.options === null || question.options.length === 0;
  const revision = 0;
  const blocks: KnownBlock[] = [];
  // An approval's typed answer is a denial with its reason.
  const denial = ask.approval?.calls[questionIndex] !== undefined;
  const headerPart =
    question.header !== null && question.header.length > 0
      ? `*${escapeAndTruncate(question.header, 400)}*\n`
      : '';
  blocks.push({
    type: 'section',
    block_id: blockId(ask.askId, revision, questionIndex, 'mq'),
    text: mrkdwnText(headerPart + escapeAndTruncate(question.question, 2000), SLACK_LIMITS.sectionText),
  });
  blocks.push({
    type: 'input',
    block_id: ANSWER_INPUT_BLOCK_ID,
    label: plainText(
      denial ? 'Why deny it?' : freeText ? 'Your answer' : 'Your own answer',
      SLACK_LIMITS.inputLabel,
    ),
    element: {
      type: 'plain_text_input',
      action_id: ANSWER_INPUT_ACTION_ID,
      multiline: true,
      max_length: SLACK_LIMITS.plainTextInputMaxLength,
      placeholder: plainText(
        denial ? 'The agent is told your reason' : 'Type your answer',
        SLACK_LIMITS.placeholder,
      ),
    },
  });
  blocks.push({
    type: 'context',
    block_id: blockId(ask.askId, revision, questionIndex, 'mnote'),
    elements: [
      mrkdwnText(
        denial
          ? 'The call is not run; the agent gets your reason as typed by you.'
          : 'The agent gets your text as typed by you.',
        SLACK_LIMITS.textObject,
      ),
    ],
  });
  return {
    type: 'modal',
    callback_id: ANSWER_MODAL_CALLBACK_ID,
    title: plainText(
      denial ? 'Deny with reason' : freeText ? 'Answer' : 'Other answer',
      SLACK_LIMITS.modalTitle,
    ),
    submit: plainText(denial ? 'Deny' : 'Send', SLACK_LIMITS.modalButton),
    close: plainText('Cancel', SLACK_LIMITS.modalButton),
    private_metadata: encodeModalMetadata({
      v: 1,
      turnId: ask.scope,
      askId: ask.askId,
      q: questionIndex,
      channel: target.channel,
      messageTs: target.messageTs,
    }),
    blocks,
  };
}
