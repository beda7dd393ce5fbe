/**
 * The modals of an ask's follow-ups: "Ask someone else…" (a user picker), "Change answer" (the options
 * of a question resolved by assumption, or a text for a free-text one) and the "Cancel…" confirmation. Pure; every modal limit holds by
 * construction (title/submit/close ≤ 24, private_metadata ≤ 3000, option texts ≤ 75, values ≤ 150).
 */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { AskRecord } from '../../asks/types.js';
import { StateError } from '../../errors.js';
import {
  blockId,
  CANCEL_MODAL_CALLBACK_ID,
  CHANGE_CHOICE_ACTION_ID,
  CHANGE_INPUT_BLOCK_ID,
  CHANGE_MODAL_CALLBACK_ID,
  CHANGE_TEXT_ACTION_ID,
  DELEGATE_INPUT_ACTION_ID,
  DELEGATE_INPUT_BLOCK_ID,
  DELEGATE_MODAL_CALLBACK_ID,
  encodeModalMetadata,
} from './action-ids.js';
import { SLACK_LIMITS } from './limits.js';
import type { AnswerModalTarget } from './render-answer-modal.js';
import { mrkdwnText, plainText } from './text-objects.js';
import { escapeAndTruncate, truncateText } from './truncate.js';

function questionSection(ask: AskRecord, questionIndex: number): KnownBlock {
  const question = ask.questions[questionIndex];
  return {
    type: 'section',
    block_id: blockId(ask.askId, 0, questionIndex, 'mq'),
    text: mrkdwnText(`*${escapeAndTruncate(question?.question ?? '', 2000)}*`, SLACK_LIMITS.sectionText),
  };
}

/**
 * "Ask someone else…": a required `users_select` (block `hp.delegate`, action `hp.delegate.user`); the
 * person picked becomes an answerer and is mentioned in the thread. callback_id `hp.modal.delegate`.
 * @throws StateError `slack_metadata_too_long` when the ids make private_metadata exceed 3000 characters.
 */
export function renderDelegateModal(ask: AskRecord, target: AnswerModalTarget): ModalView {
  return {
    type: 'modal',
    callback_id: DELEGATE_MODAL_CALLBACK_ID,
    title: plainText('Ask someone else', SLACK_LIMITS.modalTitle),
    submit: plainText('Ask them', SLACK_LIMITS.modalButton),
    close: plainText('Cancel', SLACK_LIMITS.modalButton),
    private_metadata: encodeModalMetadata({ v: 1, turnId: ask.scope, askId: ask.askId, q: 0, ...target }),
    blocks: [
      questionSection(ask, Math.max(0, ask.resolutions.indexOf(null))),
      {
        type: 'input',
        block_id: DELEGATE_INPUT_BLOCK_ID,
        label: plainText('Who should answer?', SLACK_LIMITS.inputLabel),
        element: {
          type: 'users_select',
          action_id: DELEGATE_INPUT_ACTION_ID,
          placeholder: plainText('Pick a person', SLACK_LIMITS.placeholder),
        },
      },
    ],
  };
}

/**
 * "Change answer" of question `questionIndex` (resolved by assumption): the question, what was assumed,
 * and radio buttons of its options (block `hp.change`, action `hp.change.choice`, values the option
 * indexes), or a text input (`hp.change.text`) for a free-text question. callback_id `hp.modal.change`.
 * @throws StateError `slack_index_invalid` for a question the ask does not have; `slack_metadata_too_long`.
 */
export function renderChangeModal(
  ask: AskRecord,
  questionIndex: number,
  target: AnswerModalTarget,
): ModalView {
  const question = ask.questions[questionIndex];
  if (!question)
    throw new StateError('slack_index_invalid', `question index ${questionIndex} is not in this ask`, {
      fields: { questionIndex },
    });
  const assumed = ask.resolutions[questionIndex]?.selected ?? [];
  const options = question.kind === 'choice' ? (question.options ?? []) : [];
  const choices: PlainTextOption[] = options.map((option, index) => ({
    text: plainText(truncateText(option.label, SLACK_LIMITS.optionText), SLACK_LIMITS.optionText),
    value: String(index),
  }));
  const was =
    assumed.length > 0
      ? assumed.map((label) => `*${escapeAndTruncate(label, 300)}*`).join(', ')
      : '_no answer_';
  return {
    type: 'modal',
    callback_id: CHANGE_MODAL_CALLBACK_ID,
    title: plainText('Change answer', SLACK_LIMITS.modalTitle),
    submit: plainText('Change it', SLACK_LIMITS.modalButton),
    close: plainText('Cancel', SLACK_LIMITS.modalButton),
    private_metadata: encodeModalMetadata({
      v: 1,
      turnId: ask.scope,
      askId: ask.askId,
      q: questionIndex,
      ...target,
    }),
    blocks: [
      questionSection(ask, questionIndex),
      {
        type: 'context',
        block_id: blockId(ask.askId, 0, questionIndex, 'mwas'),
        elements: [
          mrkdwnText(
            `Nobody answered in time, so ${was} was assumed. ${ask.waiter.kind === 'turn' ? 'The agent is told of the change.' : 'The program that asked is told of the change.'}`,
            SLACK_LIMITS.textObject,
          ),
        ],
      },
      choices.length > 0
        ? {
            type: 'input',
            block_id: CHANGE_INPUT_BLOCK_ID,
            label: plainText('The right answer', SLACK_LIMITS.inputLabel),
            element: { type: 'radio_buttons', action_id: CHANGE_CHOICE_ACTION_ID, options: choices },
          }
        : {
            type: 'input',
            block_id: CHANGE_INPUT_BLOCK_ID,
            label: plainText('The right answer', SLACK_LIMITS.inputLabel),
            element: {
              type: 'plain_text_input',
              action_id: CHANGE_TEXT_ACTION_ID,
              multiline: true,
              max_length: SLACK_LIMITS.plainTextInputMaxLength,
            },
          },
    ],
  };
}

/**
 * The confirmation of "Cancel…" from the ask's menu (the one action of the menu that cannot be undone):
 * the first question, what canceling does, submit "Cancel it", close "Keep it". callback_id
 * `hp.modal.cancel`; no input, so the submission carries nothing but the metadata.
 * @throws StateError `slack_metadata_too_long` when the ids make private_metadata exceed 3000 characters.
 */
export function renderCancelModal(ask: AskRecord, target: AnswerModalTarget): ModalView {
  const several = ask.questions.length > 1;
  return {
    type: 'modal',
    callback_id: CANCEL_MODAL_CALLBACK_ID,
    title: plainText(several ? 'Cancel the questions?' : 'Cancel the question?', SLACK_LIMITS.modalTitle),
    submit: plainText('Cancel it', SLACK_LIMITS.modalButton),
    close: plainText('Keep it', SLACK_LIMITS.modalButton),
    private_metadata: encodeModalMetadata({ v: 1, turnId: ask.scope, askId: ask.askId, q: 0, ...target }),
    blocks: [
      questionSection(ask, 0),
      {
        type: 'context',
        block_id: blockId(ask.askId, 0, 'x', 'mcancel'),
        elements: [
          mrkdwnText(
            `${several ? 'These questions close' : 'This question closes'} unanswered, and the agent is told that you canceled ${several ? 'them' : 'it'}.`,
            SLACK_LIMITS.textObject,
          ),
        ],
      },
    ],
  };
}
