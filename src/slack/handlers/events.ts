import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { submitTurn } from '../../agent/thread-admission.js';
import { type ConversationRef, conversationKey } from '../../asks/conversation.js';
import { notKeptText } from '../blocks/render-notices.js';
import { slackTextToPlain } from '../slack-text.js';
import { inAllowedGroup } from './answerer-check.js';
import { reportTransition } from './feedback.js';
import type { SlackHandlerDeps } from './handler-deps.js';
import { inAskThread } from './message-match.js';
import { eventEnvelopeSchema, type MessageEvent, messageEventSchema } from './payloads.js';

const DEFAULT_THREAD_MEMORY_MS = 30 * 24 * 3600 * 1000;
const DEFAULT_EVENT_DEDUPE_MS = 3600 * 1000;

/**
 * Registers the triggers. Bolt acks Events API requests before listeners run, so work here happens
 * after the ack; it only de-duplicates (by `event_id`, never by dropping retries), stores and enqueues.
 * - `app_mention`: starts a turn in the mention's thread (or a new thread under the mention).
 * - a DM (`message.im`): starts or continues a turn in the DM thread.
 * - a reply in a thread the bot takes part in: answers an open free-text question there, or
 *   continues the conversation (one turn at a time per thread; later messages wait their turn).
 */
export function registerEventHandlers(app: App, deps: SlackHandlerDeps): void {
  app.event('app_mention', async ({ body, event, client }) => {
    const parsed = messageEventSchema.safeParse(event);
    // A mention by another bot (two bots could mention each other forever), an edit, or one without an
    // author starts nothing: a turn needs a person who asked.
    if (!parsed.success || parsed.data.bot_id || parsed.data.subtype || !parsed.data.user) return;
    await withStorage(deps, client, parsed.data, 'mention', async () => {
      if (await firstDelivery(deps, body))
        await onHumanMessage(deps, client, parsed.data, teamOf(body), 'mention');
    });
  });

  app.message(async ({ body, message, client }) => {
    const parsed = messageEventSchema.safeParse(message);
    if (!parsed.success) return;
    const event = parsed.data;
    if (event.subtype || event.bot_id || !event.user || event.user === deps.botUserId) return;
    const isDm = event.channel_type === 'im';
    // In channels only thread replies count, and a reply that mentions the bot arrives as app_mention too.
    if (!isDm && (!event.thread_ts || (event.text ?? '').includes(`<@${deps.botUserId}>`))) return;
    await withStorage(deps, client, event, isDm ? 'dm' : 'reply', async () => {
      if (!isDm) {
        const conversation = conversationOf(event, teamOf(body));
        if (!(await deps.marks.isThreadMarked(conversationKey(conversation)))) return;
      }
      if (await firstDelivery(deps, body))
        await onHumanMessage(deps, client, event, teamOf(body), isDm ? 'dm' : 'reply');
    });
  });
}

/**
 * Runs the storing part of a listener. Bolt has already acked the event, so Slack will not redeliver it:
 * when Redis fails here (down, or too slow for the request client's bounds), the person who mentioned
 * the bot or wrote to it in a DM is told in the thread that nothing was kept and to try again. A plain
 * reply in a channel thread gets no notice: without Redis we cannot tell whether the bot takes part in
 * that thread, and a notice under every reply of every thread would be noise (it is logged).
 */
async function withStorage(
  deps: SlackHandlerDeps,
  client: WebClient,
  event: MessageEvent,
  how: 'mention' | 'dm' | 'reply',
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    const threadTs = event.thread_ts ?? event.ts;
    deps.engine.log.error(
      { err: error, channel: event.channel, threadTs, how, told: how !== 'reply' },
      'could not store a Slack message; it was not kept',
    );
    if (how === 'reply') return;
    try {
      await client.chat.postMessage({ channel: event.channel, thread_ts: threadTs, text: notKeptText(how) });
    } catch (postError) {
      deps.engine.log.warn(
        { err: postError, channel: event.channel },
        'could not tell the person to try again',
      );
    }
  }
}

function teamOf(body: unknown): string | undefined {
  const parsed = eventEnvelopeSchema.safeParse(body);
  return parsed.success ? parsed.data.team_id : undefined;
}

async function firstDelivery(deps: SlackHandlerDeps, body: unknown): Promise<boolean> {
  const envelope = eventEnvelopeSchema.safeParse(body);
  if (!envelope.success) return true;
  return deps.marks.claimEvent(envelope.data.event_id, deps.eventDedupeMs ?? DEFAULT_EVENT_DEDUPE_MS);
}

function conversationOf(event: MessageEvent, teamId: string | undefined): ConversationRef {
  return { surface: 'slack', channel: event.channel, threadTs: event.thread_ts ?? event.ts, teamId };
}

async function onHumanMessage(
  deps: SlackHandlerDeps,
  client: WebClient,
  event: MessageEvent,
  teamId: string | undefined,
  how: 'mention' | 'dm' | 'reply',
): Promise<void> {
  const userId = event.user ?? '';
  const conversation = conversationOf(event, teamId);
  const threadKey = conversationKey(conversation);
  await deps.marks.markThread(threadKey, deps.threadMemoryMs ?? DEFAULT_THREAD_MEMORY_MS);
  if (how !== 'mention' && (await answeredFreeText(deps, client, event, threadKey))) return;
  const admitted = await submitTurn(deps.engine, {
    turnId: deps.engine.newId(),
    conversation,
    requestedBy: userId,
    trigger: { text: event.text ?? '', ts: event.ts, userId },
  });
  deps.engine.log.info(
    { channel: event.channel, threadTs: conversation.threadTs, how, admitted },
    'turn submitted',
  );
}

/**
 * A thread reply while the thread's turn waits on an ask with an open free-text question answers that
 * question (source `thread_reply`). Returns true when the reply was used as an answer.
 */
async function answeredFreeText(
  deps: SlackHandlerDeps,
  client: WebClient,
  event: MessageEvent,
  threadKey: string,
): Promise<boolean> {
  const { store } = deps.engine;
  const holder = await store.threadHolder(threadKey);
  const turn = holder ? await store.getTurn(holder) : null;
  if (turn?.status !== 'paused' || !turn.pendingAskId) return false;
  const ask = await store.getAsk(turn.turnId, turn.pendingAskId);
  if (ask?.status !== 'open') return false;
  if (!inAskThread(ask, event.channel, event.thread_ts)) {
    deps.engine.log.warn(
      { askId: ask.askId, channel: event.channel, threadTs: event.thread_ts },
      'thread reply not used as an answer: the ask was asked in another thread',
    );
    return false;
  }
  const questionIndex = ask.questions.findIndex(
    (question, index) => question.kind === 'free_text' && !ask.resolutions[index],
  );
  if (questionIndex < 0) return false;
  const userId = event.user ?? '';
  const text = slackTextToPlain(event.text ?? '', deps.botUserId).trim();
  if (!text) return false;
  const result = await deps.engine.asks.answer({
    turnId: turn.turnId,
    askId: ask.askId,
    questionIndex,
    resolution: {
      status: 'answered',
      selected: [],
      other: text.slice(0, 3000),
      answeredBy: userId,
      answeredAt: new Date(deps.engine.now()).toISOString(),
      source: 'thread_reply',
      assumption: null,
    },
    inAllowedGroup: await inAllowedGroup(deps, client, ask, userId),
  });
  if (result.status === 'forbidden') return false; // not theirs to answer: treat it as conversation
  await reportTransition(
    deps,
    client,
    result,
    { channel: event.channel, userId, threadTs: ask.conversation.threadTs },
    questionIndex,
  );
  return true;
}
