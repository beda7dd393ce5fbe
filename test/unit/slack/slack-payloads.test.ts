import { describe, expect, it } from 'vitest';
import {
  parseActionId,
  parseActionValue,
  parseModalMetadata,
  selectedCheckboxIndexes,
} from '../../../src/slack/blocks/action-ids.js';
import { renderAnswerModal } from '../../../src/slack/blocks/render-answer-modal.js';
import { renderAskMessage } from '../../../src/slack/blocks/render-ask-message.js';
import {
  answerModalValues,
  blockActionRequest,
  buttonActionFromBlocks,
  checkboxStateFromBlocks,
  eventRequest,
  urlVerificationRequest,
  viewSubmissionRequest,
} from '../../support/slack-payloads.js';
import { signSlackRequest } from '../../support/slack-signing.js';
import { askRecord, choiceQuestion, option } from './ask-records.js';

const secret = 'fake_signing_secret_for_tests_only';
const timestampSec = 1780000060;

function formPayload(body: string): Record<string, unknown> {
  expect(body.startsWith('payload=')).toBe(true);
  return JSON.parse(new URLSearchParams(body).get('payload') ?? 'null') as Record<string, unknown>;
}

describe('signed Slack request builders', () => {
  it('url_verification is JSON and signed', () => {
    const request = urlVerificationRequest({ secret, timestampSec });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-slack-signature']).toBe(
      'v0=d94fdd530a1db924e6be0d05cc64c433d02582928a010c18835adac57d9e6a61',
    );
  });

  it('eventRequest merges overrides, sets the event_id and adds retry headers', () => {
    const request = eventRequest(
      { text: '<@U0BOT> roll back?', thread_ts: undefined, ts: '1780000300.000100' },
      { secret, timestampSec, eventId: 'Ev0RETRY', retryNum: 1 },
    );
    const body = JSON.parse(request.body) as { event_id: string; event: Record<string, unknown> };
    expect(body.event_id).toBe('Ev0RETRY');
    expect(body.event).toMatchObject({
      type: 'app_mention',
      user: 'U0ALICE',
      channel: 'C0OPS',
      text: '<@U0BOT> roll back?',
    });
    expect('thread_ts' in body.event).toBe(false);
    expect('blocks' in body.event).toBe(false);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestampSec),
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(request.headers['x-slack-signature']).toBe(signSlackRequest(secret, request.body, timestampSec));
  });

  it('eventRequest can start from the DM sample', () => {
    const body = JSON.parse(eventRequest({}, { secret, eventId: 'Ev1', template: 'message_im' }).body) as {
      event: Record<string, unknown>;
    };
    expect(body.event).toMatchObject({ type: 'message', channel_type: 'im', channel: 'D0ALICE' });
  });

  it('blockActionRequest clicks a rendered button with a form body signed over the raw bytes', () => {
    const { blocks, text } = renderAskMessage(askRecord());
    const action = buttonActionFromBlocks(blocks, 'hp.option.0.0');
    const request = blockActionRequest(
      {
        user: 'U0BOB',
        actions: [action],
        message: { ts: '1780001001.000101', thread_ts: '1780000000.000100', blocks, text },
        responseUrl: 'http://127.0.0.1:1/response_url/r1',
      },
      { secret, timestampSec },
    );
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers['x-slack-signature']).toBe(signSlackRequest(secret, request.body, timestampSec));
    const payload = formPayload(request.body);
    expect(payload).toMatchObject({
      type: 'block_actions',
      user: { id: 'U0BOB' },
      container: { channel_id: 'C0OPS', message_ts: '1780001001.000101', thread_ts: '1780000000.000100' },
      response_url: 'http://127.0.0.1:1/response_url/r1',
    });
    const [sent] = payload.actions as Array<Record<string, unknown>>;
    expect(parseActionId(sent?.action_id)).toEqual({ kind: 'option', questionIndex: 0, optionIndex: 0 });
    expect(parseActionValue(sent?.value)).toMatchObject({
      askId: 'ask_01JDXK7Q9R8S',
      questionIndex: 0,
      optionIndex: 0,
    });
    expect(sent?.block_id).toMatch(/^hp\./);
  });

  it('checkboxStateFromBlocks builds the state a Submit click carries', () => {
    const ask = askRecord({
      questions: [choiceQuestion({ multiSelect: true, options: [option('A'), option('B'), option('C')] })],
    });
    const { blocks } = renderAskMessage(ask);
    const state = checkboxStateFromBlocks(blocks, 'hp.checks.0', ['0', '2']);
    expect(selectedCheckboxIndexes(state.values, 0)).toEqual([0, 2]);
    const payload = formPayload(
      blockActionRequest(
        { user: 'U0BOB', actions: [buttonActionFromBlocks(blocks, 'hp.submit.0')], state },
        { secret },
      ).body,
    );
    expect(selectedCheckboxIndexes((payload.state as { values: unknown }).values, 0)).toEqual([0, 2]);
  });

  it('viewSubmissionRequest carries the modal metadata and the typed text raw', () => {
    const ask = askRecord();
    const modal = renderAnswerModal(ask, 0, { channel: 'C0OPS', messageTs: '1780001001.000101' });
    const request = viewSubmissionRequest(
      {
        user: 'U0BOB',
        callbackId: modal.callback_id ?? '',
        privateMetadata: modal.private_metadata ?? '',
        values: answerModalValues('Use <staging> & wait'),
        view: { blocks: modal.blocks, title: modal.title },
      },
      { secret, timestampSec },
    );
    const payload = formPayload(request.body) as { type: string; view: Record<string, unknown> };
    expect(payload.type).toBe('view_submission');
    expect(payload.view.callback_id).toBe('hp.modal.answer');
    expect(parseModalMetadata(payload.view.private_metadata)).toMatchObject({
      q: 0,
      messageTs: '1780001001.000101',
    });
    expect(payload.view.state).toEqual({
      values: {
        'hp.answer': { 'hp.answer.text': { type: 'plain_text_input', value: 'Use <staging> & wait' } },
      },
    });
  });

  it('buttonActionFromBlocks refuses an unknown action_id', () => {
    expect(() => buttonActionFromBlocks(renderAskMessage(askRecord()).blocks, 'hp.option.2.0')).toThrow(
      /no button/,
    );
  });
});
