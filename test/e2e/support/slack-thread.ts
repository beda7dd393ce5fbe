import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeSlack, FakeSlackCall } from '../../support/fake-slack/index.js';
import { TEST_SIGNING_SECRET } from '../../support/slack-harness.js';
import { blockActionRequest, eventRequest } from '../../support/slack-payloads.js';
import type { ProductionApp } from './production-app.js';

type Json = Record<string, unknown>;

let threadCounter = 0;

/** A Slack thread in channel `C0OPS` with its own `ts`, unique per call in this process. */
export interface TestThread {
  channel: string;
  threadTs: string;
  /** Seeds a human message in the thread and sends the app its `app_mention` event. Returns the HTTP status. */
  mention(app: Pick<ProductionApp, 'send'>, text?: string): Promise<number>;
  /** Bot posts in this thread whose blocks hold buttons (the asks), in order. */
  askPosts(): FakeSlackCall[];
  /** Waits for the `n`-th (1-based) ask posted in this thread. */
  waitForAsk(n?: number, timeoutMs?: number): Promise<FakeSlackCall>;
  /**
   * Waits for the `n`-th ask and then until the job that posted it is done with it (its last Slack call,
   * removing the "working" reaction, plus 250 ms), as a person's click would. A click inside that window
   * races the posting job; see the `it.fails` in production-click-path.test.ts.
   */
  waitForAskSettled(n?: number, timeoutMs?: number): Promise<FakeSlackCall>;
  /**
   * Bot messages in this thread other than asks, in order: posts without buttons, and streamed messages
   * finished as a reply or error (their `chat.stopStream`, with `args.text` set to the message's text).
   * The streamed text above an ask (a stretch that paused) is not a reply.
   */
  replies(): FakeSlackCall[];
  /** Waits for the first reply (see {@link replies}) in this thread. */
  waitForReply(timeoutMs?: number): Promise<FakeSlackCall>;
  /**
   * Sends a signed click answering question `question` (0-based) of `ask` with the option labelled
   * `label` (see {@link findButton}: its button, its Choose button, or its radio button and Submit).
   */
  click(
    app: Pick<ProductionApp, 'send'>,
    ask: FakeSlackCall,
    label: string,
    options?: { user?: string; question?: number },
  ): Promise<number>;
}

/** The post key a call's message metadata carries, if any. */
function metadataKey(call: FakeSlackCall): string | undefined {
  const payload = (call.args.metadata as { event_payload?: { key?: unknown } } | undefined)?.event_payload;
  return typeof payload?.key === 'string' ? payload.key : undefined;
}

function isAsk(call: FakeSlackCall): boolean {
  return Array.isArray(call.args.blocks) && JSON.stringify(call.args.blocks).includes('"type":"button"');
}

/**
 * The control that answers question `question` (0-based) with the option labelled `label` (a prefix match:
 * the renderer adds "(recommended)"): its button (`hp.option.<question>.<option>`, `hp.other.<question>`
 * for Other… / Deny with reason…, `hp.args.<question>` for Show all), or the "Choose" button beside the
 * option's section (whose text starts with the bold label), or, for a radio list, its Submit together with
 * the message `state` that has the option chosen.
 * @throws Error naming the controls that exist.
 */
export function findButton(
  blocks: unknown,
  label: string,
  question = 0,
): { blockId: string; button: Json; state?: Json } {
  const seen: string[] = [];
  const escaped = label.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const list = Array.isArray(blocks) ? (blocks as Json[]) : [];
  for (const block of list) {
    const elements = Array.isArray(block.elements) ? (block.elements as Json[]) : [];
    const candidates = block.accessory ? [...elements, block.accessory as Json] : elements;
    const sectionText = String((block.text as Json | undefined)?.text ?? '');
    for (const element of candidates) {
      if (element.type === 'radio_buttons' && element.action_id === `hp.radio.${question}`) {
        const options = (element.options ?? []) as Json[];
        const chosen = options.find((option) => String((option.text as Json).text).startsWith(label));
        seen.push(...options.map((option) => `hp.radio.${question} "${String((option.text as Json).text)}"`));
        const submit = elements.find((candidate) => candidate.action_id === `hp.submit.${question}`);
        if (chosen && submit) {
          const state = {
            values: {
              [String(block.block_id)]: {
                [`hp.radio.${question}`]: { type: 'radio_buttons', selected_option: chosen },
              },
            },
          };
          return { blockId: String(block.block_id), button: submit, state };
        }
      }
      if (element.type !== 'button' || typeof element.action_id !== 'string') continue;
      const beside = element === block.accessory && element.action_id.startsWith('hp.option.');
      const text = beside ? sectionText : String((element.text as Json | undefined)?.text ?? '');
      seen.push(`${element.action_id} "${text}"`);
      const ofQuestion =
        element.action_id.startsWith(`hp.option.${question}.`) ||
        element.action_id === `hp.other.${question}` ||
        element.action_id === `hp.args.${question}`;
      if (ofQuestion && (beside ? text.startsWith(`*${escaped}*`) : text.startsWith(label))) {
        return { blockId: String(block.block_id), button: element };
      }
    }
  }
  throw new Error(`no button "${label}" for question ${question}; buttons: ${seen.join(', ')}`);
}

/** A new thread: its parent message is seeded in the fake Slack. */
export function newThread(
  fake: FakeSlack,
  parentText = 'payments-api deploy is failing',
  channel = 'C0OPS',
): TestThread {
  threadCounter += 1;
  const base = 1_780_000_000 + (process.pid % 10_000) * 100 + threadCounter;
  const threadTs = `${base}.000100`;
  let messages = 0;
  fake.seedMessage({ channel, user: 'U0ALICE', text: parentText, ts: threadTs });
  const inThread = (call: FakeSlackCall) => call.args.channel === channel && call.args.thread_ts === threadTs;
  const posts = () => fake.callsTo('chat.postMessage').filter((call) => inThread(call) && call.response.ok);
  const replies = (): FakeSlackCall[] => {
    const posted = posts().filter((call) => !isAsk(call) && !metadataKey(call)?.startsWith('stream-'));
    const streamed = fake
      .callsTo('chat.stopStream')
      .filter((call) => call.response.ok === true && metadataKey(call) !== undefined)
      .flatMap((call) => {
        const message = fake.message(channel, String(call.args.ts));
        if (message?.thread_ts !== threadTs) return [];
        return [{ ...call, args: { ...call.args, thread_ts: threadTs, text: message.text } }];
      });
    // Fallback messages edited into the reply carry its key after their last chat.update.
    const edited = fake
      .callsTo('chat.update')
      .filter((call) => call.response.ok === true && /^(reply|error)-/.test(metadataKey(call) ?? ''))
      .flatMap((call) => {
        const message = fake.message(channel, String(call.args.ts));
        return message?.thread_ts === threadTs
          ? [{ ...call, args: { ...call.args, thread_ts: threadTs } }]
          : [];
      });
    return [...posted, ...streamed, ...edited].sort((a, b) => a.time - b.time);
  };
  const thread: TestThread = {
    channel,
    threadTs,
    async mention(app, text = '<@U0BOT> what should we do?') {
      messages += 1;
      const ts = `${base}.${String(200 + messages).padStart(6, '0')}`;
      fake.seedMessage({ channel, user: 'U0ALICE', text, ts, threadTs });
      const request = eventRequest(
        { text, ts, thread_ts: threadTs, user: 'U0ALICE', channel },
        { eventId: `Ev${base}${messages}`, secret: TEST_SIGNING_SECRET },
      );
      return (await app.send(request)).status;
    },
    askPosts: () => posts().filter(isAsk),
    async waitForAsk(n = 1, timeoutMs = 15_000) {
      let seen = 0;
      return fake.waitForCall(
        'chat.postMessage',
        (call) => {
          if (!inThread(call) || !call.response.ok || !isAsk(call)) return false;
          seen += 1;
          return seen === n;
        },
        timeoutMs,
      );
    },
    async waitForAskSettled(n = 1, timeoutMs = 15_000) {
      const ask = await thread.waitForAsk(n, timeoutMs);
      await fake.waitForCall(
        'reactions.remove',
        // The reaction sits on the message that started the turn (a message of this thread).
        (call) =>
          call.time >= ask.time &&
          call.args.channel === channel &&
          fake.message(channel, String(call.args.timestamp))?.thread_ts === threadTs,
        timeoutMs,
      );
      await sleep(250);
      return ask;
    },
    replies: () => replies(),
    async waitForReply(timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const first = replies()[0];
        if (first) return first;
        if (Date.now() > until) {
          const seen = fake.calls.map((call) => `${call.method}:${String(call.response.ok)}`).join(', ');
          throw new Error(`no reply in thread ${threadTs} within ${timeoutMs} ms (calls: ${seen})`);
        }
        await sleep(25);
      }
    },
    async click(app, ask, label, options = {}) {
      const blocks = ask.args.blocks as unknown[];
      const { blockId, button, state } = findButton(blocks, label, options.question ?? 0);
      const request = blockActionRequest(
        {
          user: options.user ?? 'U0BOB',
          actions: [
            {
              type: 'button',
              action_id: button.action_id,
              block_id: blockId,
              text: button.text,
              ...(button.value !== undefined ? { value: button.value } : {}),
              action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
            },
          ],
          channel,
          message: { ts: ask.response.ts, thread_ts: threadTs, blocks },
          container: { thread_ts: threadTs },
          responseUrl: fake.responseUrl(),
          ...(state ? { state } : {}),
        },
        { secret: TEST_SIGNING_SECRET },
      );
      return (await app.send(request)).status;
    },
  };
  return thread;
}
