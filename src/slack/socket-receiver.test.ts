import type { App } from '@slack/bolt';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slackLogger } from './slack-logger.js';
import { SlackSocketReceiver } from './socket-receiver.js';

const silent = pino({ level: 'silent' });
const quiet = slackLogger(silent);

/** Frames the Socket Mode client reads from its WebSocket (`ws_message`), each unreadable in its own way. */
const FRAMES = [
  'null',
  '42',
  '"text"',
  '[]',
  '{"type":"events_api"}',
  '{"type":"events_api","envelope_id":"e1","payload":null}',
  '{"type":"events_api","envelope_id":"e2","payload":{"event":null}}',
  '{"type":"interactive","envelope_id":"e3","payload":null}',
  '{"type":"interactive","envelope_id":"e4","payload":{"type":"block_actions","actions":{"0":{}},"user":{"id":"U1"}}}',
  '{"type":"slash_commands","envelope_id":"e5","payload":"x"}',
  '{not json',
];

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('SlackSocketReceiver: frames the Socket Mode client cannot read', () => {
  it('are dropped or refused without an unhandled rejection, and never reach Bolt malformed', async () => {
    const processed: unknown[] = [];
    const receiver = new SlackSocketReceiver({ appToken: 'xapp-test', logger: silent, slackLogger: quiet });
    receiver.init({
      processEvent: async (event: { body: unknown }) => void processed.push(event.body),
    } as unknown as App);
    for (const frame of FRAMES) receiver.client.emit('ws_message', frame, false);
    // Let every async handler (and the acks it tries on a socket that is not connected) settle.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    expect(processed).toEqual([]);
  });

  it('a well-formed envelope is handed to Bolt', async () => {
    const processed: unknown[] = [];
    const receiver = new SlackSocketReceiver({ appToken: 'xapp-test', logger: silent, slackLogger: quiet });
    receiver.init({
      processEvent: async (event: { body: unknown }) => void processed.push(event.body),
    } as unknown as App);
    const body = {
      type: 'event_callback',
      event_id: 'Ev1',
      event: { type: 'app_mention', channel: 'C1', ts: '1.2' },
    };
    receiver.client.emit(
      'ws_message',
      JSON.stringify({ type: 'events_api', envelope_id: 'e9', payload: body }),
      false,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    expect(processed).toEqual([body]);
  });
});
