/**
 * The in-memory workspace behind the fake Slack Web API: messages, ephemerals, views, user groups, users,
 * and one handler per supported Web API method, answering the way Slack does (ok / error codes).
 */
import {
  validateBlocks,
  validateHomeView,
  validateModalView,
} from '../../../src/slack/blocks/validate-blocks.js';
import { isTrue, stringArg } from './parse-request.js';
import type { FakeSlackEphemeral, FakeSlackMessage } from './types.js';

/** What a method handler answers: HTTP 200 unless `status` says otherwise. */
export interface MethodResult {
  status?: number;
  body: Record<string, unknown>;
}

type Args = Record<string, unknown>;

const TOP_LEVEL_TEXT_LIMIT = 40_000;

function ok(body: Record<string, unknown> = {}): MethodResult {
  return { body: { ok: true, ...body } };
}

function fail(error: string, extra: Record<string, unknown> = {}): MethodResult {
  return { body: { ok: false, error, ...extra } };
}

function streamError(message: string): Record<string, unknown> {
  return { response_metadata: { messages: [`[ERROR] ${message}`] } };
}

/** Compares Slack timestamps (`seconds.micros`) numerically without float rounding. */
export function compareTs(a: string, b: string): number {
  const [aSec = '0', aMicro = '0'] = a.split('.');
  const [bSec = '0', bMicro = '0'] = b.split('.');
  return Number(aSec) - Number(bSec) || Number(aMicro.padEnd(6, '0')) - Number(bMicro.padEnd(6, '0'));
}

export class FakeSlackState {
  readonly messages: FakeSlackMessage[] = [];
  /**
   * The same messages by channel and ts: tests look messages up by ts thousands of times a second (a thread
   * waiting for its reply checks every streamed and edited message), and a scan of every message each time
   * made a long test file starve the fake's own server.
   */
  private readonly byTs = new Map<string, FakeSlackMessage>();
  readonly ephemerals: FakeSlackEphemeral[] = [];
  readonly views = new Map<string, Record<string, unknown>>();
  /** The Home tab view published for each user (`views.publish`), by user id. */
  readonly homeViews = new Map<string, Record<string, unknown>>();
  readonly userGroups = new Map<string, string[]>();
  readonly users = new Map<
    string,
    { id: string; name?: string; real_name?: string; display_name?: string; is_bot?: boolean }
  >();
  /** Shared by every team's state of one fake, so message `ts` values never repeat across teams. */
  private readonly clock: { ts: number };
  private viewCounter = 0;

  constructor(
    readonly botUserId: string,
    readonly botId: string,
    readonly teamId: string,
    clock: { ts: number } = { ts: 0 },
    readonly teamName = 'Test Workspace',
  ) {
    this.clock = clock;
  }

  /** A new `ts`, strictly increasing: `1780001000.000100`, `1780001001.000101`, … */
  nextTs(): string {
    this.clock.ts += 1;
    const n = this.clock.ts;
    return `${1_780_001_000 + n}.${String(100 + n).padStart(6, '0')}`;
  }

  find(channel: string, ts: string): FakeSlackMessage | undefined {
    return this.byTs.get(`${channel}\u0000${ts}`);
  }

  private removeMessage(message: FakeSlackMessage): void {
    this.messages.splice(this.messages.indexOf(message), 1);
    const key = `${message.channel}\u0000${message.ts}`;
    if (this.byTs.get(key) !== message) return;
    const next = this.messages.find((other) => other.channel === message.channel && other.ts === message.ts);
    if (next) this.byTs.set(key, next);
    else this.byTs.delete(key);
  }

  thread(channel: string, threadTs: string): FakeSlackMessage[] {
    return this.messages
      .filter(
        (message) =>
          message.channel === channel && (message.ts === threadTs || message.thread_ts === threadTs),
      )
      .sort((a, b) => compareTs(a.ts, b.ts));
  }

  addMessage(message: FakeSlackMessage): FakeSlackMessage {
    this.messages.push(message);
    // The first message of a ts stays the one found, as with a scan in order.
    const key = `${message.channel}\u0000${message.ts}`;
    if (!this.byTs.has(key)) this.byTs.set(key, message);
    if (message.thread_ts !== undefined && message.thread_ts !== message.ts) {
      const parent = this.find(message.channel, message.thread_ts);
      if (parent !== undefined && parent.thread_ts === undefined) parent.thread_ts = parent.ts;
    }
    return message;
  }

  /** Dispatches one method; undefined for an unknown method. */
  handle(method: string, args: Args): MethodResult | undefined {
    const handler = this.handlers[method];
    return handler === undefined ? undefined : handler(args);
  }

  private checkBlocks(args: Args): MethodResult | null {
    if (args.blocks === undefined) return null;
    if (typeof args.blocks === 'string') return fail('invalid_blocks_format');
    const errors = validateBlocks(args.blocks, 'message');
    if (errors.length === 0) return null;
    return fail('invalid_blocks', {
      errors,
      response_metadata: { messages: errors.map((error) => `[ERROR] ${error}`) },
    });
  }

  private textWarning(args: Args): { text: string; warning: Record<string, unknown> } {
    const text = typeof args.text === 'string' ? args.text : '';
    if (text.length <= TOP_LEVEL_TEXT_LIMIT) return { text, warning: {} };
    return {
      text: text.slice(0, TOP_LEVEL_TEXT_LIMIT),
      warning: { warning: 'message_truncated', response_metadata: { warnings: ['message_truncated'] } },
    };
  }

  private ownMessage(args: Args, tsKey: string): FakeSlackMessage | MethodResult {
    const channel = stringArg(args, 'channel');
    const ts = stringArg(args, tsKey);
    if (channel === undefined) return fail('channel_not_found');
    if (ts === undefined) return fail('message_not_found');
    const message = this.find(channel, ts);
    if (message === undefined) return fail('message_not_found');
    if (message.bot_id !== this.botId && message.user !== this.botUserId) return fail('cant_update_message');
    return message;
  }

  private renderMessage(message: FakeSlackMessage, includeMetadata: boolean): Record<string, unknown> {
    const replies = this.messages.filter(
      (other) => other.thread_ts === message.ts && other.ts !== message.ts,
    );
    return {
      type: 'message',
      user: message.user,
      ...(message.bot_id !== undefined ? { bot_id: message.bot_id, app_id: 'A0APP' } : {}),
      text: message.text,
      ts: message.ts,
      ...(message.thread_ts !== undefined ? { thread_ts: message.thread_ts } : {}),
      ...(message.thread_ts === message.ts ? { reply_count: replies.length } : {}),
      ...(message.blocks !== undefined ? { blocks: message.blocks } : {}),
      ...(includeMetadata && message.metadata !== undefined ? { metadata: message.metadata } : {}),
      ...(message.reactions.length > 0
        ? { reactions: message.reactions.map((reaction) => ({ ...reaction, count: reaction.users.length })) }
        : {}),
      ...(message.edited !== undefined ? { edited: message.edited } : {}),
    };
  }

  private readonly handlers: Record<string, (args: Args) => MethodResult> = {
    'auth.test': () =>
      ok({
        url: `https://${this.teamName.toLowerCase().replaceAll(' ', '-')}.slack.com/`,
        team: this.teamName,
        user: 'holdpoint',
        team_id: this.teamId,
        user_id: this.botUserId,
        bot_id: this.botId,
        is_enterprise_install: false,
      }),

    'chat.postMessage': (args) => {
      const channel = stringArg(args, 'channel');
      if (channel === undefined) return fail('channel_not_found');
      if (args.text === undefined && args.blocks === undefined && args.attachments === undefined)
        return fail('no_text');
      const invalid = this.checkBlocks(args);
      if (invalid !== null) return invalid;
      const { text, warning } = this.textWarning(args);
      const threadTs = stringArg(args, 'thread_ts');
      const message = this.addMessage({
        channel,
        ts: this.nextTs(),
        ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
        user: this.botUserId,
        bot_id: this.botId,
        text,
        ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
        ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
        reactions: [],
      });
      return ok({ channel, ts: message.ts, message: this.renderMessage(message, true), ...warning });
    },

    'chat.update': (args) => {
      const found = this.ownMessage(args, 'ts');
      if ('body' in found) return found;
      // A message being streamed changes only through the stream methods.
      if (found.streaming === true) return fail('cant_update_message');
      const invalid = this.checkBlocks(args);
      if (invalid !== null) return invalid;
      const message = found;
      const { text, warning } = this.textWarning(args);
      if (args.text !== undefined) message.text = text;
      if (Array.isArray(args.blocks)) message.blocks = args.blocks;
      else if (args.text !== undefined) delete message.blocks;
      if (args.metadata !== undefined) message.metadata = args.metadata;
      message.edited = { user: this.botUserId, ts: this.nextTs() };
      return ok({
        channel: message.channel,
        ts: message.ts,
        text: message.text,
        message: this.renderMessage(message, true),
        ...warning,
      });
    },

    'chat.startStream': (args) => {
      const channel = stringArg(args, 'channel');
      if (channel === undefined) return fail('channel_not_found');
      const threadTs = stringArg(args, 'thread_ts');
      if (threadTs === undefined) return fail('invalid_arguments', streamError('thread_ts is required'));
      // Outside a DM, Slack needs to know whom the stream is for.
      if (!channel.startsWith('D')) {
        if (stringArg(args, 'recipient_user_id') === undefined) return fail('missing_recipient_user_id');
        if (stringArg(args, 'recipient_team_id') === undefined) return fail('missing_recipient_team_id');
      }
      const message = this.addMessage({
        channel,
        ts: this.nextTs(),
        thread_ts: threadTs,
        user: this.botUserId,
        bot_id: this.botId,
        text: '',
        reactions: [],
        streaming: true,
        tasks: [],
      });
      const invalid = this.appendChunks(message, args);
      if (invalid !== null) {
        this.removeMessage(message);
        return invalid;
      }
      return ok({ channel, ts: message.ts });
    },

    'chat.appendStream': (args) => {
      const found = this.ownMessage(args, 'ts');
      if ('body' in found) return found;
      if (found.streaming !== true) return fail('message_not_in_streaming_state');
      if (args.markdown_text === undefined && args.chunks === undefined)
        return fail('invalid_arguments', streamError('markdown_text or chunks is required'));
      const invalid = this.appendChunks(found, args);
      return invalid ?? ok({ channel: found.channel, ts: found.ts });
    },

    'chat.stopStream': (args) => {
      const found = this.ownMessage(args, 'ts');
      if ('body' in found) return found;
      if (found.streaming !== true) return fail('message_not_in_streaming_state');
      const invalid = this.appendChunks(found, args) ?? this.checkBlocks(args);
      if (invalid !== null) return invalid;
      if (Array.isArray(args.blocks)) found.blocks = args.blocks;
      if (args.metadata !== undefined) found.metadata = args.metadata;
      found.streaming = false;
      return ok({ channel: found.channel, ts: found.ts, message: this.renderMessage(found, true) });
    },

    'chat.delete': (args) => {
      const found = this.ownMessage(args, 'ts');
      if ('body' in found) return found;
      this.removeMessage(found);
      return ok({ channel: found.channel, ts: found.ts });
    },

    'chat.postEphemeral': (args) => {
      const channel = stringArg(args, 'channel');
      const user = stringArg(args, 'user');
      if (channel === undefined) return fail('channel_not_found');
      if (user === undefined) return fail('user_not_found');
      if (args.text === undefined && args.blocks === undefined) return fail('no_text');
      const invalid = this.checkBlocks(args);
      if (invalid !== null) return invalid;
      const { text, warning } = this.textWarning(args);
      const threadTs = stringArg(args, 'thread_ts');
      const ephemeral: FakeSlackEphemeral = {
        channel,
        user,
        text,
        ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
        ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
        message_ts: this.nextTs(),
      };
      this.ephemerals.push(ephemeral);
      return ok({ message_ts: ephemeral.message_ts, ...warning });
    },

    'chat.getPermalink': (args) => {
      const channel = stringArg(args, 'channel');
      const ts = stringArg(args, 'message_ts');
      if (channel === undefined) return fail('channel_not_found');
      if (ts === undefined || this.find(channel, ts) === undefined) return fail('message_not_found');
      return ok({
        channel,
        permalink: `https://test-workspace.slack.com/archives/${channel}/p${ts.replace('.', '')}`,
      });
    },

    'views.open': (args) => {
      if (
        stringArg(args, 'trigger_id') === undefined &&
        stringArg(args, 'interactivity_pointer') === undefined
      ) {
        return fail('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] missing required field: trigger_id'] },
        });
      }
      return this.storeView(args, undefined);
    },

    'views.update': (args) => {
      const viewId = stringArg(args, 'view_id');
      const externalId = stringArg(args, 'external_id');
      const existing =
        viewId !== undefined
          ? this.views.get(viewId)
          : [...this.views.values()].find(
              (view) => externalId !== undefined && view.external_id === externalId,
            );
      if (existing === undefined) return fail('not_found');
      return this.storeView(args, existing.id as string);
    },

    'views.publish': (args) => {
      // Slack: user_id is required and must be a user of the workspace; the view must be a valid home view
      // (type home, ≤ 100 blocks, unique block_ids…); a `hash` that is not the current view's is refused.
      const userId = stringArg(args, 'user_id');
      if (userId === undefined)
        return fail('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] missing required field: user_id'] },
        });
      if (!/^[UW][A-Z0-9]{2,}$/.test(userId) || userId === this.botUserId) return fail('user_not_found');
      const view = args.view;
      if (typeof view !== 'object' || view === null)
        return fail('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] missing required field: view'] },
        });
      const errors = validateHomeView(view);
      if (errors.length > 0)
        return fail('invalid_arguments', {
          response_metadata: { messages: errors.map((error) => `[ERROR] ${error}`) },
        });
      const existing = this.homeViews.get(userId);
      const hash = stringArg(args, 'hash');
      if (hash !== undefined && existing !== undefined && existing.hash !== hash)
        return fail('hash_conflict');
      this.viewCounter += existing === undefined ? 1 : 0;
      const stored = {
        ...(view as Record<string, unknown>),
        id: (existing?.id as string | undefined) ?? `VHOME${String(this.viewCounter).padStart(4, '0')}`,
        team_id: this.teamId,
        app_id: 'A0APP',
        bot_id: this.botId,
        hash: `${Date.now()}.${this.viewCounter}.${Math.random().toString(36).slice(2, 8)}`,
        state: { values: {} },
      };
      this.homeViews.set(userId, stored);
      return ok({ view: stored });
    },

    'conversations.replies': (args) => {
      const channel = stringArg(args, 'channel');
      const ts = stringArg(args, 'ts');
      if (channel === undefined) return fail('channel_not_found');
      if (ts === undefined) return fail('invalid_arguments');
      const parent = this.find(channel, ts);
      const threadTs = parent?.thread_ts ?? ts;
      const messages = this.thread(channel, threadTs);
      if (messages.length === 0) return fail('thread_not_found');
      const limit = Number(args.limit ?? 1000) || 1000;
      const includeMetadata = isTrue(args.include_all_metadata);
      return ok({
        messages: messages.slice(0, limit).map((message) => this.renderMessage(message, includeMetadata)),
        has_more: messages.length > limit,
        response_metadata: { next_cursor: '' },
      });
    },

    'conversations.open': (args) => {
      const users = stringArg(args, 'users');
      if (users === undefined || !/^[UW][A-Z0-9]+$/.test(users)) return fail('user_not_found');
      // One DM channel per user, named after them (D + the user id without its first letter).
      return ok({ channel: { id: `D${users.slice(1)}` } });
    },

    'conversations.history': (args) => {
      const channel = stringArg(args, 'channel');
      if (channel === undefined) return fail('channel_not_found');
      const limit = Number(args.limit ?? 100) || 100;
      const includeMetadata = isTrue(args.include_all_metadata);
      const topLevel = this.messages
        .filter(
          (message) =>
            message.channel === channel &&
            (message.thread_ts === undefined || message.thread_ts === message.ts),
        )
        .sort((a, b) => compareTs(b.ts, a.ts));
      return ok({
        messages: topLevel.slice(0, limit).map((message) => this.renderMessage(message, includeMetadata)),
        has_more: topLevel.length > limit,
        response_metadata: { next_cursor: '' },
      });
    },

    'reactions.add': (args) => this.react(args, 'add'),
    'reactions.remove': (args) => this.react(args, 'remove'),

    'assistant.threads.setStatus': (args) => {
      if (stringArg(args, 'channel_id') === undefined || stringArg(args, 'thread_ts') === undefined) {
        return fail('invalid_arguments');
      }
      if (typeof args.status !== 'string') return fail('invalid_arguments');
      return ok();
    },

    'usergroups.users.list': (args) => {
      const group = stringArg(args, 'usergroup');
      const users = group === undefined ? undefined : this.userGroups.get(group);
      if (users === undefined) return fail('no_such_subteam');
      return ok({ users: [...users] });
    },

    'users.info': (args) => {
      const id = stringArg(args, 'user');
      if (id === undefined || !/^[UWB][A-Z0-9]{2,}$/.test(id)) return fail('user_not_found');
      const seeded = this.users.get(id);
      return ok({
        user: {
          id,
          team_id: this.teamId,
          name: seeded?.name ?? id.toLowerCase(),
          real_name: seeded?.real_name ?? id,
          profile: { real_name: seeded?.real_name ?? id, display_name: seeded?.display_name ?? '' },
          is_bot: seeded?.is_bot ?? id === this.botUserId,
          deleted: false,
          tz: 'UTC',
        },
      });
    },
  };

  private storeView(args: Args, existingId: string | undefined): MethodResult {
    const view = args.view;
    if (typeof view !== 'object' || view === null) {
      return fail('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] missing required field: view'] },
      });
    }
    const errors = validateModalView(view);
    if (errors.length > 0) {
      return fail('invalid_arguments', {
        response_metadata: { messages: errors.map((error) => `[ERROR] ${error}`) },
      });
    }
    this.viewCounter += existingId === undefined ? 1 : 0;
    const id = existingId ?? `V0FAKE${String(this.viewCounter).padStart(4, '0')}`;
    const stored = {
      ...(view as Record<string, unknown>),
      id,
      team_id: this.teamId,
      hash: `${Date.now()}.fake`,
      state: { values: {} },
    };
    this.views.set(id, stored);
    return ok({ view: stored });
  }

  /** Ends every open stream, as Slack does to a stream left without appends for too long. */
  expireStreams(): number {
    let expired = 0;
    for (const message of this.messages) {
      if (message.streaming !== true) continue;
      message.streaming = false;
      expired += 1;
    }
    return expired;
  }

  /** Adds a stream call's `markdown_text` and `chunks` to the message; an error result when they are malformed. */
  private appendChunks(message: FakeSlackMessage, args: Args): MethodResult | null {
    if (args.markdown_text !== undefined) {
      if (typeof args.markdown_text !== 'string') return fail('invalid_arguments');
      message.text += args.markdown_text;
    }
    if (args.chunks === undefined) return null;
    if (!Array.isArray(args.chunks)) return fail('invalid_chunks_format');
    for (const chunk of args.chunks as unknown[]) {
      const item = (typeof chunk === 'object' && chunk !== null ? chunk : {}) as Record<string, unknown>;
      if (item.type === 'markdown_text' && typeof item.text === 'string') message.text += item.text;
      else if (
        item.type === 'task_update' &&
        typeof item.id === 'string' &&
        typeof item.title === 'string' &&
        ['pending', 'in_progress', 'complete', 'error'].includes(String(item.status))
      ) {
        const tasks = message.tasks ?? [];
        const task = { id: item.id, title: item.title, status: String(item.status) };
        const index = tasks.findIndex((existing) => existing.id === item.id);
        if (index >= 0) tasks[index] = task;
        else tasks.push(task);
        message.tasks = tasks;
      } else return fail('invalid_chunks', streamError(`unsupported chunk: ${JSON.stringify(chunk)}`));
    }
    return null;
  }

  private react(args: Args, mode: 'add' | 'remove'): MethodResult {
    const channel = stringArg(args, 'channel');
    const ts = stringArg(args, 'timestamp');
    const name = stringArg(args, 'name');
    if (channel === undefined) return fail('channel_not_found');
    if (name === undefined) return fail('invalid_name');
    const message = ts === undefined ? undefined : this.find(channel, ts);
    if (message === undefined) return fail('message_not_found');
    const reaction = message.reactions.find((candidate) => candidate.name === name);
    if (mode === 'add') {
      if (reaction?.users.includes(this.botUserId)) return fail('already_reacted');
      if (reaction === undefined) message.reactions.push({ name, users: [this.botUserId] });
      else reaction.users.push(this.botUserId);
      return ok();
    }
    if (reaction === undefined || !reaction.users.includes(this.botUserId)) return fail('no_reaction');
    reaction.users = reaction.users.filter((user) => user !== this.botUserId);
    if (reaction.users.length === 0) message.reactions.splice(message.reactions.indexOf(reaction), 1);
    return ok();
  }
}
