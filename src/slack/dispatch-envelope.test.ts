import { App, type Receiver } from '@slack/bolt';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { dispatchEnvelope, type EnvelopeReply } from './dispatch-envelope.js';
import { slackLogger } from './slack-logger.js';

const silent = pino({ level: 'silent' });

const noReceiver: Receiver = {
  init: () => undefined,
  start: async () => undefined,
  stop: async () => undefined,
};

function boltApp(): App {
  return new App({
    token: 'xoxb-test',
    botId: 'B0BOT',
    botUserId: 'U0BOT',
    receiver: noReceiver,
    logger: slackLogger(silent),
  });
}

function recordingReply() {
  const answers: Array<{ kind: 'ack' | 'refuse'; response?: unknown }> = [];
  const reply: EnvelopeReply = {
    answered: () => answers.length > 0,
    ack: async (response?: unknown) => {
      answers.push({ kind: 'ack', response });
    },
    refuse: async () => {
      answers.push({ kind: 'refuse' });
    },
  };
  return { answers, reply };
}

const user = { id: 'U0ALICE', team_id: 'T0TEST' };

describe('dispatchEnvelope', () => {
  it('refuses a malformed body without calling Bolt', async () => {
    let called = 0;
    const app = { processEvent: async () => void called++ } as unknown as App;
    const { answers, reply } = recordingReply();
    await dispatchEnvelope(app, { body: { type: 'block_actions', user, actions: 'x' } }, reply, silent);
    expect(answers).toEqual([{ kind: 'refuse' }]);
    expect(called).toBe(0);
  });

  it('refuses (never rejects) when Bolt throws on a body that passed the check', async () => {
    const app = {
      processEvent: async () => {
        throw new TypeError('object is not iterable');
      },
    } as unknown as App;
    const { answers, reply } = recordingReply();
    await expect(
      dispatchEnvelope(app, { body: { type: 'something_new' } }, reply, silent),
    ).resolves.toBeUndefined();
    expect(answers).toEqual([{ kind: 'refuse' }]);
  });

  it('acks at once what no listener acknowledged (an action nobody listens to)', async () => {
    const app = boltApp();
    const { answers, reply } = recordingReply();
    const body = {
      type: 'block_actions',
      user,
      team: null,
      actions: [{ type: 'button', action_id: 'other.app' }],
    };
    const started = performance.now();
    await dispatchEnvelope(app, { body }, reply, silent);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(answers).toEqual([{ kind: 'ack', response: undefined }]);
  });

  it("passes a listener's ack response through, once", async () => {
    const app = boltApp();
    app.view('hp.modal', async ({ ack }) => {
      await ack({ response_action: 'errors', errors: { a: 'b' } });
    });
    const { answers, reply } = recordingReply();
    const body = { type: 'view_submission', user, team: null, view: { id: 'V1', callback_id: 'hp.modal' } };
    await dispatchEnvelope(app, { body }, reply, silent);
    expect(answers).toEqual([{ kind: 'ack', response: { response_action: 'errors', errors: { a: 'b' } } }]);
  });
});
