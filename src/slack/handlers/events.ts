import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { submitTurn } from '../../agent/thread-admission.js';
import { type ConversationRef, conversationKey } from '../../asks/conversation.js';
import { notKeptText } from '../blocks/render-notices.js';
import type { SlackHandlerDeps, UninstalledTeam } from './handler-deps.js';
import {
  eventEnvelopeSchema,
  type MessageEvent,
  messageEventSchema,
  uninstallEnvelopeSchema,
} from './payloads.js';
import { answerByMention, offerReplyAsAnswer, openFreeTextFor } from './reply-answers.js';

const DEFAULT_THREAD_MEMORY_MS = 30 * 24 * 3600 * 1000;
const DEFAULT_EVENT_DEDUPE_MS = 3600 * 1000;

/**
 * Message subtypes a person writes: a message with a file, and a thread reply also sent to the channel.
 * Every other subtype (edits, deletions, joins, bot messages) starts nothing.
 */
const PERSON_SUBTYPES: ReadonlySet<string> = new Set(['file_share', 'thread_broadcast']);

function writtenByPerson(event: MessageEvent): boolean {
  return event.subtype === undefined || PERSON_SUBTYPES.has(event.subtype);
}

/**
 * Registers the triggers (the thread rules of the README). Bolt acks Events API requests before listeners
 * run, so work here happens after the ack; it only de-duplicates (by `event_id`, never by dropping
 * retries), stores and enqueues.
 * - `app_mention`: starts a turn in the mention's thread (or a new thread under the mention); in the
 *   thread of an ask with an open free-text question, an allowed answerer's mention is the answer.
 * - a DM (`message.im`): starts or continues a turn in the DM thread.
 * - a reply in a channel thread the bot takes part in: starts a turn only with `THREAD_FOLLOW=all`
 *   (a reply that mentions the bot arrives as `app_mention`).
 * - while a free-text question is open, a reply without a mention from an allowed answerer is held and
 *   they are asked privately whether it is their answer; a stranger's reply is never an answer.
 */
export function registerEventHandlers(app: App, sharedDeps: SlackHandlerDeps): void {
  app.event('app_mention', async ({ body, event, client, context }) => {
    const deps = withBotOf(sharedDeps, context.botUserId);
    const parsed = messageEventSchema.safeParse(event);
    // A mention by another bot (two bots could mention each other forever), an edit, or one without an
    // author starts nothing: a turn needs a person who asked.
    if (!parsed.success || parsed.data.bot_id || !writtenByPerson(parsed.data) || !parsed.data.user) return;
    await withStorage(deps, client, parsed.data, 'mention', async () => {
      if (await firstDelivery(deps, body))
        await onHumanMessage(deps, client, parsed.data, teamOf(body), 'mention');
    });
  });

  app.message(async ({ body, message, client, context }) => {
    const deps = withBotOf(sharedDeps, context.botUserId);
    const parsed = messageEventSchema.safeParse(message);
    if (!parsed.success) return;
    const event = parsed.data;
    if (!writtenByPerson(event) || event.bot_id || !event.user || event.user === deps.botUserId) return;
    const isDm = event.channel_type === 'im';
    // In channels only thread replies count, and a reply that mentions the bot arrives as app_mention too.
    if (!isDm && (!event.thread_ts || mentionsBot(deps, event))) return;
    await withStorage(deps, client, event, isDm ? 'dm' : 'reply', async () => {
      if (!isDm) {
        const conversation = conversationOf(deps, event, teamOf(body));
        if (!(await deps.marks.isThreadMarked(conversationKey(conversation)))) return;
      }
      if (await firstDelivery(deps, body))
        await onHumanMessage(deps, client, event, teamOf(body), isDm ? 'dm' : 'reply');
    });
  });
}

function mentionsBot(deps: SlackHandlerDeps, event: MessageEvent): boolean {
  return (event.text ?? '').includes(`<@${deps.botUserId}>`);
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

function conversationOf(
  deps: SlackHandlerDeps,
  event: MessageEvent,
  teamId: string | undefined,
): ConversationRef {
  return {
    surface: 'slack',
    channel: event.channel,
    threadTs: event.thread_ts ?? event.ts,
    teamId,
    ...(deps.scopeByTeam && teamId ? { workspace: teamId } : {}),
  };
}

/**
 * The deps with the bot user id of the request's workspace (Bolt's `context.botUserId`, from the team's
 * installation in OAuth install mode; the same id in single-workspace mode).
 */
export function withBotOf(deps: SlackHandlerDeps, botUserId: string | undefined): SlackHandlerDeps {
  return botUserId && botUserId !== deps.botUserId ? { ...deps, botUserId } : deps;
}

/** Registers `app_uninstalled` and `tokens_revoked` (bot tokens) when the deps handle uninstalls. */
export function registerUninstallHandlers(app: App, deps: SlackHandlerDeps): void {
  const uninstalled = deps.uninstalled;
  if (!uninstalled) return;
  const teamOfEnvelope = (body: unknown, reason: UninstalledTeam['reason']): UninstalledTeam => {
    const parsed = uninstallEnvelopeSchema.safeParse(body);
    const envelope = parsed.success ? parsed.data : {};
    const authorization = envelope.authorizations?.[0];
    return {
      teamId: envelope.team_id ?? authorization?.team_id ?? undefined,
      enterpriseId: envelope.enterprise_id ?? authorization?.enterprise_id ?? undefined,
      isEnterpriseInstall: envelope.is_enterprise_install ?? authorization?.is_enterprise_install ?? false,
      reason,
    };
  };
  app.event('app_uninstalled', async ({ body }) => {
    await uninstalled(teamOfEnvelope(body, 'app_uninstalled'));
  });
  app.event('tokens_revoked', async ({ body, event }) => {
    // A revoked user token changes nothing here: holdpoint acts with the bot token only.
    if ((event.tokens.bot ?? []).length === 0) return;
    await uninstalled(teamOfEnvelope(body, 'tokens_revoked'));
  });
}

async function onHumanMessage(
  deps: SlackHandlerDeps,
  client: WebClient,
  event: MessageEvent,
  teamId: string | undefined,
  how: 'mention' | 'dm' | 'reply',
): Promise<void> {
  const userId = event.user ?? '';
  const conversation = conversationOf(deps, event, teamId);
  const threadKey = conversationKey(conversation);
  const memoryMs = deps.threadMemoryMs ?? DEFAULT_THREAD_MEMORY_MS;
  // Replies go on as conversation in DMs always, in channel threads only with THREAD_FOLLOW=all.
  const follows = how !== 'reply' || deps.threadFollow === 'all';
  if (how !== 'reply') await deps.marks.markThread(threadKey, memoryMs);
  const open = await openFreeTextFor(deps, event, threadKey);
  if (open) {
    // With the bot mentioned in the ask's thread it is the answer; without, its author confirms it first.
    const answered =
      how === 'mention' || mentionsBot(deps, event)
        ? await answerByMention(deps, client, event, open)
        : await offerReplyAsAnswer(deps, client, event, open, teamId, follows);
    if (answered) return;
  }
  if (!follows) {
    deps.engine.log.debug(
      { channel: event.channel, threadTs: conversation.threadTs },
      'thread reply without a mention: no turn (THREAD_FOLLOW=mention)',
    );
    return;
  }
  if (how === 'reply') await deps.marks.markThread(threadKey, memoryMs);
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
