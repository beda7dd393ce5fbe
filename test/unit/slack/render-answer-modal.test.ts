import { describe, expect, it } from 'vitest';
import { StateError } from '../../../src/errors.js';
import { parseModalMetadata } from '../../../src/slack/blocks/action-ids.js';
import { renderAnswerModal } from '../../../src/slack/blocks/render-answer-modal.js';
import { validateModalView } from '../../../src/slack/blocks/validate-blocks.js';
import { askRecord, choiceQuestion, freeTextQuestion } from './ask-records.js';

const target = { channel: 'C0OPS', messageTs: '1780000065.000300' };

describe('renderAnswerModal', () => {
  const ask = askRecord({
    questions: [
      choiceQuestion({ header: 'Deploy <!here>', question: 'Roll back <prod> & data?' }),
      freeTextQuestion(),
    ],
  });

  it('renders the Other… modal of a choice question', () => {
    const view = renderAnswerModal(ask, 0, target);
    expect(validateModalView(view)).toEqual([]);
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: 'hp.modal.answer',
      title: { type: 'plain_text', text: 'Other answer' },
      submit: { type: 'plain_text', text: 'Send' },
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: '*Deploy &lt;!here&gt;*\nRoll back &lt;prod&gt; &amp; data?' },
        },
        {
          type: 'input',
          block_id: 'hp.answer',
          element: {
            type: 'plain_text_input',
            action_id: 'hp.answer.text',
            multiline: true,
            max_length: 3000,
          },
        },
        { type: 'context' },
      ],
    });
    expect(parseModalMetadata(view.private_metadata)).toEqual({
      v: 1,
      turnId: 'turn_01JDXK7P00AA',
      askId: 'ask_01JDXK7Q9R8S',
      q: 0,
      channel: 'C0OPS',
      messageTs: '1780000065.000300',
    });
  });

  it('titles the free-text modal "Answer"', () => {
    const view = renderAnswerModal(ask, 1, target);
    expect(view.title.text).toBe('Answer');
    expect(parseModalMetadata(view.private_metadata)?.q).toBe(1);
  });

  it('refuses a question index outside the ask', () => {
    expect(() => renderAnswerModal(ask, 2, target)).toThrow(StateError);
  });
});
