import { ErrorCode } from '@slack/web-api';
import type { ModelMessage } from 'ai';
import type {
  ActivityTarget,
  ReplyStream,
  StreamTask,
  Surface,
  TurnActivity,
  TurnTrigger,
} from '../agent/surface.js';
import type { AskNotice } from '../asks/ask-ports.js';
import type { ConversationRef } from '../asks/conversation.js';
import type { EngineLogger } from '../asks/logger.js';
import type { AskRecord } from '../asks/types.js';
import { renderAskMessage } from './blocks/render-ask-message.js';
import { renderAskNotice } from './blocks/render-ask-notice.js';
import type { HomeTab } from './home-tab.js';
import { encodeMessageRef, parseMessageRef } from './message-ref.js';
import { SlackReplyStreams } from './reply-streams.js';
import { clientFor, type SlackClients } from './slack-clients.js';
import { slackErrorCode } from './slack-error-code.js';
import { askPostKey, type SlackMarks } from './slack-marks.js';
import { replyText, slackTextToPlain } from './slack-text.js';
import { syncAskMessage } from './sync-ask-message.js';
import { updateAskMessage } from './update-ask-message.js';
import { displayNames, personLabel } from './user-names.js';

/** A message to post: its text (escaped mrkdwn), blocks, and for a reply the model's own text. */
interface PostContent {
  text: string;
  blocks?: unknown[];
  /** The model's text before escaping (a reply that finishes a stream passes it on). */
  modelText?: string;
}

/** The assistant status for an activity (Slack shows it after the app's name). */
function statusText(activity: TurnActivity): string {
  if (activity === null) return '';
  return activity.kind === 'thinking' ? 'is thinking…' : `is running ${activity.toolName}`;
}

/** `metadata.event_type` of every message holdpoint posts; `event_payload.key` is its idempotency key. */
export const MESSAGE_METADATA_TYPE = 'holdpoint_message';

/**
 * How long a poster that finds a post under its key already begun waits for the other poster's `ts`, in ms,
 * before looking for the message in the thread (a begun post normally completes within Slack's timeout).
 */
export const POST_CLAIM_WAIT_MS = 5000;

/** How many earlier thread messages become the model's history (newest kept). */
export const HISTORY_MAX_MESSAGES = 50;
/** Each history message is cut to this many characters. */
export const HISTORY_MESSAGE_MAX = 4000;

/** Options of {@link SlackSurface}. */
export interface SlackSurfaceOptions {
  /** The Web API client of each conversation's workspace (one client in single-workspace mode). */
  clients: SlackClients;
  marks: SlackMarks;
  log: EngineLogger;
  /** The bot's user id (`U…`), to tell its own messages from people's. */
  botUserId: string;
  /** Reads an ask from the store (fresh, for redrawing its message). */
  readAsk: (turnId: string, askId: string) => Promise<AskRecord | null>;
  /** The Home tabs to refresh when an ask changes (see {@link HomeTab.askChanged}); absent: none. */
  homes?: HomeTab;
  /** The reaction shown on the message that started a turn while it works (default `hourglass_flowing_sand`). */
  workingReaction?: string;
  /** The workspace's team id (`auth.test`), for streams in conversations that do not name their team. */
  teamId?: string | undefined;
}

/**
 * The Slack {@link Surface}: asks are one Block Kit message in the thread, replies are thread messages.
 * Posts are exactly-once across retries: each carries message metadata with its key, a Redis mark
 * records the returned `ts`, and a retry that finds a post begun but unconfirmed looks for its own
 * message in the thread before posting again.
 */
export class SlackSurface implements Surface {
  private readonly reaction: string;
  /**
   * Posts in flight in this process, by key. The engine may finish one turn from two jobs at once (the
   * turn job that showed the ask and the resume job of a quick click); both post the same key, and the
   * second must get the first's `ts` instead of posting again. Across processes the Redis mark decides.
   */
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly streams: SlackReplyStreams;
  /** DM channels where `assistant.threads.setStatus` was refused (not an assistant thread): they get the reaction. */
  private readonly statusRefused = new Set<string>();

  constructor(private readonly options: SlackSurfaceOptions) {
    this.reaction = options.workingReaction ?? 'hourglass_flowing_sand';
    this.streams = new SlackReplyStreams({
      clients: options.clients,
      marks: options.marks,
      log: options.log,
      teamId: options.teamId,
      metadataType: MESSAGE_METADATA_TYPE,
    });
  }

  async loadHistory(conversation: ConversationRef, trigger: TurnTrigger): Promise<ModelMessage[]> {
    const client = await clientFor(this.options.clients, conversation);
    const botUserId = await this.options.clients.botUserIdOf(
      { teamId: conversation.teamId },
      this.options.botUserId,
    );
    const named = { client, marks: this.options.marks, log: this.options.log };
    const fallback = async (): Promise<ModelMessage[]> => {
      if (trigger.synthetic) return [{ role: 'user', content: trigger.text }];
      const names = await displayNames(named, [trigger.userId]);
      return [{ role: 'user', content: this.userLine(trigger.userId, trigger.text, names, botUserId) }];
    };
    let messages: Array<{ ts?: string; text?: string; user?: string; bot_id?: string }>;
    try {
      const replies = await client.conversations.replies({
        channel: conversation.channel,
        ts: conversation.threadTs,
        limit: 200,
      });
      messages = (replies.messages ?? []).filter(
        (message) => !message.ts || Number(message.ts) <= Number(trigger.ts),
      );
    } catch (error) {
      this.options.log.warn(
        { channel: conversation.channel, err: error },
        'could not read the thread; using the trigger message only',
      );
      return fallback();
    }
    // A synthetic trigger (a late answer) is not a message of the thread: the thread up to it is the history.
    if (!trigger.synthetic && !messages.some((message) => message.ts === trigger.ts)) return fallback();
    const recent = messages
      .slice(-HISTORY_MAX_MESSAGES)
      .map((message) => ({ ...message, text: (message.text ?? '').slice(0, HISTORY_MESSAGE_MAX) }))
      .filter((message) => message.text.trim().length > 0);
    const isBot = (message: { user?: string; bot_id?: string }) =>
      message.user === botUserId || message.bot_id !== undefined;
    // People by name and id (users.info, cached): best effort, an id alone when the name is unknown.
    const names = await displayNames(
      named,
      recent.flatMap((message) => (!isBot(message) && message.user ? [message.user] : [])),
    );
    const history: ModelMessage[] = recent.map((message) =>
      isBot(message)
        ? { role: 'assistant', content: slackTextToPlain(message.text) }
        : { role: 'user', content: this.userLine(message.user ?? 'someone', message.text, names, botUserId) },
    );
    if (trigger.synthetic) history.push({ role: 'user', content: trigger.text });
    // Providers want the conversation to start with a user message.
    while (history[0]?.role === 'assistant') history.shift();
    return history.length > 0 ? history : fallback();
  }

  async showAsk(conversation: ConversationRef, ask: AskRecord): Promise<string> {
    const rendered = renderAskMessage(ask, { now: Date.now() });
    const ts = await this.postOnce(conversation, askPostKey(ask.askId), {
      text: rendered.text,
      blocks: rendered.blocks,
    });
    return encodeMessageRef({ channel: conversation.channel, ts });
  }

  async showApprovalOutcomes(
    ask: AskRecord,
    outcomes: ReadonlyArray<{ ok: boolean; text: string } | null>,
  ): Promise<void> {
    const ref = parseMessageRef(ask.messageRef);
    if (!ref) return;
    try {
      // The ask is resolved: no later sync draws over this (its revision was drawn already).
      const client = await clientFor(this.options.clients, ask.conversation);
      await updateAskMessage(client, ask, ref, { approvalOutcomes: outcomes });
    } catch (error) {
      this.options.log.warn({ askId: ask.askId, err: error }, 'could not show the approval outcome');
    }
  }

  async syncAsk(ask: AskRecord): Promise<void> {
    const { marks, readAsk, homes } = this.options;
    const client = await clientFor(this.options.clients, ask.conversation);
    await syncAskMessage(
      {
        client,
        marks,
        readAsk: () => readAsk(ask.scope, ask.askId),
        ...(homes ? { onDrawn: (drawn: AskRecord) => homes.askChanged(client, drawn) } : {}),
      },
      ask.askId,
      ask,
    );
  }

  async shown(ask: AskRecord): Promise<void> {
    const { homes } = this.options;
    if (homes) await homes.askChanged(await clientFor(this.options.clients, ask.conversation), ask);
  }

  async postMessage(
    conversation: ConversationRef,
    text: string,
    key: string,
    kind: 'reply' | 'error',
    streamKey?: string,
  ): Promise<void> {
    if (kind === 'error') {
      // What streamed before the error stays, stopped; the error is a message of its own below it.
      if (streamKey) await this.streams.close(conversation, streamKey);
      await this.postOnce(conversation, key, { text: `:warning: ${replyText(text)}` });
      return;
    }
    await this.postOnce(conversation, key, { text: replyText(text), modelText: text }, streamKey);
  }

  openStream(conversation: ConversationRef, key: string, recipientUserId: string): ReplyStream {
    return this.streams.open(conversation, key, recipientUserId);
  }

  async closeStream(conversation: ConversationRef, key: string, last?: StreamTask): Promise<void> {
    try {
      await this.streams.close(conversation, key, last);
    } catch (error) {
      this.options.log.warn({ key, err: error }, 'could not close a reply stream');
    }
  }

  async postNotice(ask: AskRecord, notice: AskNotice): Promise<void> {
    // In the ask's thread: the turn's thread, or the thread under a program's ask posted as a new message.
    const ref = parseMessageRef(ask.messageRef);
    const threadTs = ask.conversation.threadTs || ref?.ts || '';
    const conversation: ConversationRef = { ...ask.conversation, threadTs };
    await this.postOnce(conversation, notice.key, { text: renderAskNotice(ask, notice, Date.now()) });
  }

  /**
   * In a DM (where Slack's assistant threads live): `assistant.threads.setStatus` ("is thinking…", "is
   * running x", and an empty status to clear it). Elsewhere, or when Slack refuses the status (a DM that is
   * not an assistant thread): a reaction on the message that started the turn while it works. A tool
   * call changes only the status; the reaction stays until the turn pauses or ends.
   */
  async setActivity(target: ActivityTarget, activity: TurnActivity): Promise<void> {
    const { conversation } = target;
    const client = await clientFor(this.options.clients, conversation);
    if (conversation.channel.startsWith('D') && !this.statusRefused.has(conversation.channel)) {
      try {
        await client.assistant.threads.setStatus({
          channel_id: conversation.channel,
          thread_ts: conversation.threadTs,
          status: statusText(activity),
        });
        return;
      } catch (error) {
        if (slackErrorCode(error) === null) return; // not refused, just failed: best effort
        this.statusRefused.add(conversation.channel);
      }
    }
    if (activity?.kind === 'tool') return;
    try {
      const args = {
        channel: conversation.channel,
        timestamp: target.triggerTs ?? conversation.threadTs,
        name: this.reaction,
      };
      if (activity) await client.reactions.add(args);
      else await client.reactions.remove(args);
    } catch {
      // Best effort: already_reacted, no_reaction, missing scope.
    }
  }

  /**
   * `Name (<@U…>) wrote: text`. The text's own lines after the first are quoted (`> `), so a message cannot
   * forge a line that reads like another person's attribution: only holdpoint starts a line with one.
   */
  private userLine(
    userId: string,
    text: string,
    names: ReadonlyMap<string, string>,
    botUserId: string,
  ): string {
    const who = userId === 'someone' ? userId : personLabel(userId, names);
    const body = slackTextToPlain(text, botUserId).replace(/\r?\n/g, '\n> ');
    return `${who} wrote: ${body}`;
  }

  /**
   * Posts into the thread once per key; returns the message `ts`. Concurrent calls share one post. With
   * `streamKey`, the message streamed under that key becomes the post (when one was streamed).
   */
  private postOnce(
    conversation: ConversationRef,
    key: string,
    content: PostContent,
    streamKey?: string,
  ): Promise<string> {
    const running = this.inFlight.get(key);
    if (running !== undefined) return running;
    const post = this.postOnceUnshared(conversation, key, content, streamKey).finally(() => {
      this.inFlight.delete(key);
    });
    this.inFlight.set(key, post);
    return post;
  }

  private async postOnceUnshared(
    conversation: ConversationRef,
    key: string,
    content: PostContent,
    streamKey: string | undefined,
  ): Promise<string> {
    const marks = this.options.marks;
    // Before the mark: a workspace that is no longer installed claims nothing.
    const client = await clientFor(this.options.clients, conversation);
    if (!(await marks.beginPost(key))) {
      // Posted already (the mark holds its ts), being posted by another process right now (wait for its
      // ts), or begun by an attempt that crashed between posting and recording (look in the thread).
      const settled = await this.waitForPost(key);
      if (settled) return settled;
      const found = await this.findPosted(conversation, key);
      if (found) {
        await marks.finishPost(key, found);
        return found;
      }
    }
    const metadata = { event_type: MESSAGE_METADATA_TYPE, event_payload: { key } };
    if (streamKey) {
      // The reply was streamed: its message is stopped (or, when streaming broke off, edited to the reply).
      const streamed = await this.streams.finish(
        conversation,
        streamKey,
        content.modelText ?? content.text,
        metadata,
      );
      if (streamed) {
        await marks.finishPost(key, streamed);
        return streamed;
      }
    }
    let result: Awaited<ReturnType<typeof client.chat.postMessage>>;
    try {
      result = await client.chat.postMessage({
        channel: conversation.channel,
        // An ask from a program may start a new message instead of replying in a thread.
        ...(conversation.threadTs ? { thread_ts: conversation.threadTs } : {}),
        text: content.text,
        ...(content.blocks ? { blocks: content.blocks as never } : {}),
        metadata,
        unfurl_links: false,
        unfurl_media: false,
      });
    } catch (error) {
      // Slack answered with an error (`ok: false`): nothing was posted, so the next try need not wait for
      // the mark. After a timeout or a dropped connection the post may exist: the mark stays, and the next
      // try looks for it in the thread.
      if ((error as { code?: unknown }).code === ErrorCode.PlatformError) await marks.abandonPost(key);
      throw error;
    }
    const ts = result.ts ?? '';
    await marks.finishPost(key, ts);
    return ts;
  }

  /** Waits up to {@link POST_CLAIM_WAIT_MS} for a concurrent poster to record its `ts`; null when it does not. */
  private async waitForPost(key: string): Promise<string | null> {
    const until = Date.now() + POST_CLAIM_WAIT_MS;
    while (Date.now() < until) {
      const value = await this.options.marks.getPost(key);
      if (value && value !== 'pending') return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  }

  /** Looks for the bot's own message carrying `key` in the thread, or the channel (after a crash between post and mark). */
  private async findPosted(conversation: ConversationRef, key: string): Promise<string | null> {
    try {
      const client = await clientFor(this.options.clients, conversation);
      const replies = conversation.threadTs
        ? await client.conversations.replies({
            channel: conversation.channel,
            ts: conversation.threadTs,
            include_all_metadata: true,
            limit: 200,
          })
        : await client.conversations.history({
            channel: conversation.channel,
            include_all_metadata: true,
            limit: 200,
          });
      for (const message of replies.messages ?? []) {
        const metadata = message.metadata as
          | { event_type?: string; event_payload?: { key?: unknown } }
          | undefined;
        if (
          metadata?.event_type === MESSAGE_METADATA_TYPE &&
          metadata.event_payload?.key === key &&
          message.ts
        )
          return message.ts;
      }
    } catch (error) {
      this.options.log.warn({ key, err: error }, 'could not look for an earlier post; posting');
    }
    return null;
  }
}
