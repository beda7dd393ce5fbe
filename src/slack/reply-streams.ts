import type { ChatStreamer } from '@slack/web-api';
import { type ReplyStream, STREAM_TASK_TITLE_MAX, type StreamTask } from '../agent/surface.js';
import type { ConversationRef } from '../asks/conversation.js';
import type { EngineLogger } from '../asks/logger.js';
import { truncateText } from './blocks/truncate.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { clientFor, type SlackClients } from './slack-clients.js';
import { slackErrorCode } from './slack-error-code.js';
import type { SlackMarks } from './slack-marks.js';
import { REPLY_TEXT_MAX, replyText } from './slack-text.js';

/**
 * Characters {@link ChatStreamer} gathers before it calls Slack (its `buffer_size`). Smaller than its
 * default of 256 so that the first words show sooner; `chat.appendStream` is rate limited per thread like
 * `chat.postMessage`, and models write a few hundred characters a second.
 */
export const STREAM_BUFFER_CHARACTERS = 120;

/** In the post-then-update fallback, the shortest time between two `chat.update`s of the message, in ms. */
export const FALLBACK_UPDATE_INTERVAL_MS = 1000;

/** Options of {@link SlackReplyStreams}. */
export interface SlackReplyStreamsOptions {
  /** The Web API client of each conversation's workspace. */
  clients: SlackClients;
  marks: SlackMarks;
  log: EngineLogger;
  /** The workspace's team id (`auth.test`), for `recipient_team_id` when the conversation does not name one. */
  teamId?: string | undefined;
  /** `metadata.event_type` of the messages holdpoint posts. */
  metadataType: string;
}

/**
 * How a stream's message is being written:
 * - `idle`: nothing posted yet;
 * - `streaming`: a Slack stream (`chat.startStream` … `chat.stopStream`) through {@link ChatStreamer};
 * - `updating`: streaming was refused or broke off; the message is posted, then edited with `chat.update`;
 * - `replacing`: another attempt (one that crashed) began this stream; its message is replaced at the end;
 * - `closed`: stopped.
 */
type StreamMode = 'idle' | 'streaming' | 'updating' | 'replacing' | 'closed';

/**
 * The replies being streamed by this process, one per stream key. A stream key is claimed in Redis (the
 * post mark) before its first call to Slack and holds the message `ts` as soon as Slack returns it, so an
 * attempt that takes over after a crash finds the message the dead attempt began and replaces it instead
 * of posting a second reply.
 */
export class SlackReplyStreams {
  private readonly live = new Map<string, LiveStream>();

  constructor(private readonly options: SlackReplyStreamsOptions) {}

  /** The stream for `key` in this process (created on first use; it posts nothing until written to). */
  open(conversation: ConversationRef, key: string, recipientUserId: string): ReplyStream {
    let stream = this.live.get(key);
    if (!stream) {
      stream = new LiveStream(this.options, conversation, key, recipientUserId);
      this.live.set(key, stream);
    }
    return stream;
  }

  /** Stops the stream for `key` with `last` as its final status line; a no-op when nothing streamed. */
  async close(conversation: ConversationRef, key: string, last?: StreamTask): Promise<void> {
    const stream = this.live.get(key) ?? (await this.adopt(conversation, key));
    this.live.delete(key);
    await stream?.close(last);
  }

  /**
   * Ends the stream for `key` as the reply `text`, carrying `metadata`. Returns the message `ts`, or null
   * when nothing was streamed under `key` (the caller then posts the reply as a new message).
   * @throws the Slack client's error when the message could be neither stopped nor updated.
   */
  async finish(
    conversation: ConversationRef,
    key: string,
    text: string,
    metadata: { event_type: string; event_payload: Record<string, string> },
  ): Promise<string | null> {
    const stream = this.live.get(key) ?? (await this.adopt(conversation, key));
    const ts = (await stream?.finish(text, metadata)) ?? null;
    this.live.delete(key);
    return ts;
  }

  /**
   * A stream for a key another process began and did not close (the mark holds its message `ts`), or
   * null when none did.
   */
  private async adopt(conversation: ConversationRef, key: string): Promise<LiveStream | null> {
    const { marks } = this.options;
    if ((await marks.getPost(closedKey(key))) !== null) return null;
    const ts = await marks.getPost(key);
    if (!ts || ts === 'pending') return null;
    return LiveStream.adopted(this.options, conversation, key, ts);
  }
}

/** Zero-width space: between `]` and `(` it keeps Markdown from reading a link, and shows nothing. */
const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Model text made safe for a stream's `markdown_text` (Markdown, not mrkdwn): `&`, `<`, `>` escaped as
 * for mrkdwn (no `<!channel>`, `<@U…>` or `<url|label>`), and Markdown links and images (`[label](url)`,
 * `[label][ref]`) broken with a zero-width space after the `]`, so model text cannot show a link under
 * a label of its choosing; the URL itself still shows as text (and Slack links bare URLs as usual).
 * `before` is the last character already streamed (a `](` may straddle two pieces). Pure.
 */
export function safeMarkdown(delta: string, before: string): string {
  const escaped = escapeMrkdwn(delta).replace(/\](?=[([])/g, `]${ZERO_WIDTH_SPACE}`);
  return before === ']' && /^[([]/.test(escaped) ? `${ZERO_WIDTH_SPACE}${escaped}` : escaped;
}

/** The mark recording that the stream under `key` was closed (its message is final). */
function closedKey(key: string): string {
  return `${key}-closed`;
}

/** One stream's message; calls are queued so that pieces reach Slack in order. */
class LiveStream implements ReplyStream {
  private mode: StreamMode = 'idle';
  private streamer: ChatStreamer | null = null;
  private ts: string | null = null;
  /** Everything written so far (escaped for Slack), to redraw the message when streaming stops working. */
  private written = '';
  private readonly tasks = new Map<string, StreamTask>();
  private queue: Promise<void> = Promise.resolve();
  private lastUpdate = 0;

  constructor(
    private readonly options: SlackReplyStreamsOptions,
    private readonly conversation: ConversationRef,
    private readonly key: string,
    private readonly recipientUserId: string,
  ) {}

  /** A stream whose message another attempt posted (`ts`): it is replaced, not continued. */
  static adopted(
    options: SlackReplyStreamsOptions,
    conversation: ConversationRef,
    key: string,
    ts: string,
  ): LiveStream {
    const stream = new LiveStream(options, conversation, key, '');
    stream.mode = 'replacing';
    stream.ts = ts;
    return stream;
  }

  text(delta: string): Promise<void> {
    return this.enqueue(async () => {
      const room = REPLY_TEXT_MAX - this.written.length;
      if (room <= 0) return;
      const piece = safeMarkdown(delta, this.written.at(-1) ?? '').slice(0, room);
      this.written += piece;
      if (await this.begin()) await this.send({ markdown_text: piece });
    });
  }

  task(task: StreamTask): Promise<void> {
    return this.enqueue(async () => {
      const shown = { ...task, title: truncateText(task.title, STREAM_TASK_TITLE_MAX) };
      this.tasks.set(task.id, shown);
      if (await this.begin()) await this.send({ chunks: [{ type: 'task_update', ...shown }] });
    });
  }

  close(last?: StreamTask): Promise<void> {
    return this.enqueue(async () => {
      if (last) this.tasks.set(last.id, last);
      if (this.mode === 'idle' || this.mode === 'closed' || (this.mode === 'replacing' && this.ts === null)) {
        this.mode = 'closed';
        return;
      }
      if (this.mode === 'streaming' && this.streamer) {
        try {
          await this.streamer.stop(last ? { chunks: [{ type: 'task_update', ...last }] } : {});
          this.mode = 'closed';
          await this.markClosed();
          return;
        } catch (error) {
          this.options.log.warn({ key: this.key, err: error }, 'could not stop a reply stream; updating it');
        }
      }
      try {
        await this.redraw(this.rendered(''), undefined);
        await this.markClosed();
      } catch (error) {
        this.options.log.warn({ key: this.key, err: error }, 'could not finish a streamed message');
      }
      this.mode = 'closed';
    });
  }

  /** Records that the stream's message is final, so that a retried pause leaves it as it is. */
  private async markClosed(): Promise<void> {
    if (this.ts) await this.options.marks.finishPost(closedKey(this.key), this.ts);
  }

  finish(
    text: string,
    metadata: { event_type: string; event_payload: Record<string, string> },
  ): Promise<string | null> {
    return this.enqueue(async () => {
      if (this.mode === 'idle' || this.mode === 'closed') return null;
      // Begun by an attempt that crashed before Slack gave it a ts: the reply is posted as a new message.
      if (this.mode === 'replacing' && this.ts === null) return null;
      if (this.mode === 'streaming' && this.streamer) {
        try {
          // Only status lines were streamed (tool calls, then a step without text): the reply's text ends it.
          const rest = this.written.trim() === '' ? { markdown_text: safeMarkdown(text, '') } : {};
          await this.streamer.stop({ metadata, ...rest });
          this.mode = 'closed';
          return this.streamer.ts ?? null;
        } catch (error) {
          this.options.log.warn({ key: this.key, err: error }, 'could not stop a reply stream; updating it');
        }
      }
      // What this attempt wrote ends with the reply; an adopted message shows the reply alone.
      const body = this.written.trim() === '' ? replyText(text) : this.written;
      const ts = await this.redraw(this.rendered(body), metadata);
      this.mode = 'closed';
      return ts;
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Makes sure the message exists or can be started; false when this call should not reach Slack now
   * (another attempt owns the message, or the fallback waits for its next update).
   */
  private async begin(): Promise<boolean> {
    if (this.mode === 'closed' || this.mode === 'replacing') return false;
    if (this.mode === 'updating') {
      await this.updateSoon();
      return false;
    }
    if (this.mode === 'streaming') return true;
    const { marks } = this.options;
    const client = await clientFor(this.options.clients, this.conversation);
    if (!this.conversation.threadTs || !(await marks.beginPost(this.key))) {
      // No thread to stream into, or an attempt that crashed began this message: the reply replaces it.
      const ts = this.conversation.threadTs ? await marks.getPost(this.key) : null;
      this.mode = 'replacing';
      this.ts = ts && ts !== 'pending' ? ts : null;
      return false;
    }
    const teamId = this.conversation.teamId ?? this.options.teamId;
    this.streamer = client.chatStream({
      channel: this.conversation.channel,
      thread_ts: this.conversation.threadTs,
      ...(this.recipientUserId ? { recipient_user_id: this.recipientUserId } : {}),
      ...(teamId ? { recipient_team_id: teamId } : {}),
      buffer_size: STREAM_BUFFER_CHARACTERS,
    });
    this.mode = 'streaming';
    return true;
  }

  /** One call through the streamer; on a refusal the message falls back to post-then-update. */
  private async send(piece: Parameters<ChatStreamer['append']>[0]): Promise<void> {
    const streamer = this.streamer;
    if (!streamer) return;
    try {
      await streamer.append(piece);
      if (streamer.ts && this.ts !== streamer.ts) {
        this.ts = streamer.ts;
        await this.options.marks.finishPost(this.key, streamer.ts);
      }
    } catch (error) {
      // Refused at the start (an old workspace, a missing scope) or after it (the stream expired:
      // `message_not_in_streaming_state`): post or edit the message instead.
      this.options.log.warn(
        { key: this.key, slackError: slackErrorCode(error), err: error },
        'streaming a reply failed; posting and updating it instead',
      );
      this.mode = 'updating';
      this.ts = streamer.ts ?? this.ts;
      await this.updateSoon(true);
    }
  }

  /** In the fallback: redraws the message when the last redraw is old enough (or `now`). */
  private async updateSoon(now = false): Promise<void> {
    if (!now && Date.now() - this.lastUpdate < FALLBACK_UPDATE_INTERVAL_MS) return;
    try {
      await this.redraw(this.rendered(''), {
        event_type: this.options.metadataType,
        event_payload: { key: this.key },
      });
    } catch (error) {
      this.options.log.warn({ key: this.key, err: error }, 'could not update a streamed message');
    }
  }

  /**
   * Shows `text` as the whole message: `chat.update` when it exists (stopping it first if it may still be
   * streaming), else a new post whose `ts` is recorded under the stream's key. Returns the `ts`.
   */
  private async redraw(
    text: string,
    metadata: { event_type: string; event_payload: Record<string, string> } | undefined,
  ): Promise<string> {
    const { marks } = this.options;
    const client = await clientFor(this.options.clients, this.conversation);
    const channel = this.conversation.channel;
    this.lastUpdate = Date.now();
    const body = text.trim() === '' ? '…' : text;
    if (this.ts === null) {
      const posted = await client.chat.postMessage({
        channel,
        ...(this.conversation.threadTs ? { thread_ts: this.conversation.threadTs } : {}),
        text: body,
        metadata: metadata ?? { event_type: this.options.metadataType, event_payload: { key: this.key } },
        unfurl_links: false,
        unfurl_media: false,
      });
      this.ts = posted.ts ?? null;
      if (this.ts) await marks.finishPost(this.key, this.ts);
      return this.ts ?? '';
    }
    if (this.mode !== 'updating') {
      // Left streaming by an attempt that crashed: stop it, so that it can be edited.
      await client.chat.stopStream({ channel, ts: this.ts }).catch(() => undefined);
    }
    await client.chat.update({ channel, ts: this.ts, text: body, ...(metadata ? { metadata } : {}) });
    return this.ts;
  }

  /** The message as plain mrkdwn: the status lines, then `body` or what was written. */
  private rendered(body: string): string {
    const lines = [...this.tasks.values()].map(
      (task) =>
        `${task.status === 'complete' ? '✓' : task.status === 'error' ? '✗' : '•'} ${escapeMrkdwn(task.title)}`,
    );
    const text = body || this.written;
    return [...lines, ...(text ? [text] : [])].join('\n');
  }
}
