/**
 * Streamed replies and status on the built app (`node dist/src/main.js`, `REPLY_STREAMING` at its default
 * `on`): the real `@ai-sdk/anthropic` client streams from the model replay, and the reply reaches the fake
 * Slack through `chat.startStream` / `chat.appendStream` / `chat.stopStream` (`ChatStreamer`). Tool calls
 * and questions are status lines (`task_update` chunks) of the stream; a pause stops the stream above the
 * ask. A worker killed mid-stream and its retry leave one reply; a refused or expired stream falls back to
 * post-then-update. The working indicator sits on the message that started the turn, or, in a DM
 * (assistant thread), is `assistant.threads.setStatus`, cleared when the turn pauses or ends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slackTextToPlain } from '../../src/slack/slack-text.js';
import type { FakeSlack, FakeSlackCall, FakeSlackMessage } from '../support/fake-slack/index.js';
import { startFakeSlack } from '../support/fake-slack/index.js';
import { stdioServerYaml } from '../support/mcp-config.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { eventRequest } from '../support/slack-payloads.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, scopeEnv, startComposeRedis } from './support/production-env.js';
import { newThread } from './support/slack-thread.js';

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let scope: string;
const running: ProductionApp[] = [];

beforeAll(async () => {
  [redis, fake, replay] = await Promise.all([startComposeRedis(), startFakeSlack(), startModelReplay()]);
});
afterAll(async () => {
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});
beforeEach(() => {
  replay.reset();
  scope = `stream-${Math.random().toString(36).slice(2, 10)}`;
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop('SIGKILL')));
});

async function start(env: Record<string, string> = {}): Promise<ProductionApp> {
  const app = await startProductionApp(
    productionEnv({
      fake,
      replay,
      redisUrl: redis.url,
      port: await freePort(),
      model: 'anthropic',
      env: {
        ...scopeEnv(scope),
        ...env,
      },
    }),
  );
  running.push(app);
  return app;
}

async function until(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The bot's messages in a thread, oldest first. */
function botMessages(channel: string, threadTs: string): FakeSlackMessage[] {
  return fake.messagesIn(channel, threadTs).filter((message) => message.user === fake.botUserId);
}

/** A config file naming the deploy MCP server of test/support (read-only `deploy_status` among its tools), no approvals. */
function deployConfig(): string {
  const config = join(mkdtempSync(join(tmpdir(), 'hp-stream-')), 'holdpoint.yaml');
  writeFileSync(config, `mcpServers:\n${stdioServerYaml('deploy')}\napprovals: []\n`);
  return config;
}

/** The post key in a message's metadata. */
function keyOf(message: FakeSlackMessage | undefined): string | undefined {
  return (message?.metadata as { event_payload?: { key?: string } } | undefined)?.event_payload?.key;
}

/** Stream calls (start, append, stop) to one message, in order. */
function streamCalls(ts: string): FakeSlackCall[] {
  return fake.calls.filter(
    (call) =>
      call.method.endsWith('Stream') &&
      (call.args.ts === ts || (call.method === 'chat.startStream' && call.response.ts === ts)),
  );
}

/** A long reply (several appends at the streamer's buffer size), with characters that need escaping. */
const LONG_REPLY = `${'The rollback of payments-api to 2.40 is the safe option here. '.repeat(8)}Checks: 5/5 pods <healthy> & serving.`;

describe('streamed replies (REPLY_STREAMING=on)', () => {
  it('a reply streams: start, appends, stop; the message reads exactly the model text, once', async () => {
    replay.enqueue('anthropic', { text: LONG_REPLY });
    const app = await start();
    const thread = newThread(fake);
    expect(await thread.mention(app)).toBe(200);
    const reply = await thread.waitForReply();
    expect(reply.method).toBe('chat.stopStream');
    const ts = String(reply.args.ts);
    const calls = streamCalls(ts).map((call) => call.method);
    expect(calls[0]).toBe('chat.startStream');
    expect(calls.filter((method) => method === 'chat.appendStream').length).toBeGreaterThanOrEqual(2);
    expect(calls.at(-1)).toBe('chat.stopStream');
    expect(streamCalls(ts).every((call) => call.response.ok === true)).toBe(true);
    // Outside a DM the stream names its reader.
    const started = streamCalls(ts)[0];
    expect(started?.args).toMatchObject({ recipient_user_id: 'U0ALICE', recipient_team_id: fake.teamId });
    const message = fake.message(thread.channel, ts);
    expect(message?.streaming).toBe(false);
    expect(slackTextToPlain(message?.text ?? '')).toBe(LONG_REPLY);
    expect(message?.text).toContain('&lt;healthy&gt; &amp;');
    expect(keyOf(message)).toMatch(/^reply-/);
    await sleep(300);
    expect(botMessages(thread.channel, thread.threadTs)).toHaveLength(1);
    expect(
      fake.callsTo('chat.postMessage').filter((call) => call.args.thread_ts === thread.threadTs),
    ).toEqual([]);
  });

  it('a question step: its text and a status line stream, the stream stops above the ask; the reply is a new stream', async () => {
    replay.enqueue('anthropic', 'a-text-and-ask_question', 'd-final-text');
    const app = await start();
    const thread = newThread(fake);
    await thread.mention(app);
    const ask = await thread.waitForAskSettled();
    const [first] = botMessages(thread.channel, thread.threadTs);
    expect(first?.streaming).toBe(false);
    expect(first?.tasks).toEqual([
      // A finished step: the stream stops here and nothing would ever update an "in progress" line.
      expect.objectContaining({ title: 'Asked a question (below)', status: 'complete' }),
    ]);
    const stopped = fake.callsTo('chat.stopStream').find((call) => call.args.ts === first?.ts);
    expect(stopped && stopped.time <= ask.time).toBe(true);
    expect(thread.replies()).toHaveLength(0);

    await thread.click(app, ask, 'Hotfix forward');
    const reply = await thread.waitForReply();
    expect(reply.method).toBe('chat.stopStream');
    expect(String(reply.args.text)).toContain('Going with the hotfix');
    expect(String(reply.args.ts)).not.toBe(first?.ts);
    await sleep(300);
    expect(thread.replies()).toHaveLength(1);
  });

  it('a tool call shows as a status line while it runs and when it is done', async () => {
    const config = deployConfig();
    replay.enqueue(
      'anthropic',
      {
        text: 'Checking the deploy.',
        toolCalls: [{ name: 'deploy_status', input: { service: 'payments-api' } }],
      },
      { text: 'payments-api 2.41 is healthy.' },
    );
    const app = await start({ HOLDPOINT_CONFIG: config });
    const thread = newThread(fake);
    await thread.mention(app);
    const reply = await thread.waitForReply(20_000);
    const message = fake.message(thread.channel, String(reply.args.ts));
    expect(slackTextToPlain(message?.text ?? '')).toBe('Checking the deploy.payments-api 2.41 is healthy.');
    expect(message?.tasks).toEqual([
      expect.objectContaining({ title: 'Ran deploy_status', status: 'complete' }),
    ]);
    const updates = fake
      .callsTo('chat.appendStream')
      .concat(fake.callsTo('chat.startStream'))
      .flatMap((call) =>
        Array.isArray(call.args.chunks) ? (call.args.chunks as Array<{ title?: string }>) : [],
      )
      .map((chunk) => chunk.title)
      .filter(Boolean);
    expect(updates).toEqual(expect.arrayContaining(['Running deploy_status', 'Ran deploy_status']));
    expect(botMessages(thread.channel, thread.threadTs)).toHaveLength(1);
  });

  it('a stream of status lines only (a tool call, then no text): the reply text still ends it', async () => {
    const config = deployConfig();
    replay.enqueue(
      'anthropic',
      { toolCalls: [{ name: 'deploy_status', input: { service: 'payments-api' } }] },
      { text: '' },
    );
    const app = await start({ HOLDPOINT_CONFIG: config });
    const thread = newThread(fake);
    await thread.mention(app);
    const reply = await thread.waitForReply(20_000);
    const message = fake.message(thread.channel, String(reply.args.ts));
    expect(message?.tasks).toEqual([
      expect.objectContaining({ title: 'Ran deploy_status', status: 'complete' }),
    ]);
    expect(slackTextToPlain(message?.text ?? '')).toBe('(The agent finished without a reply.)');
    expect(botMessages(thread.channel, thread.threadTs)).toHaveLength(1);
  });

  it('a worker SIGKILLed mid-stream: the retry replaces its message; one reply in the thread', async () => {
    replay.enqueue(
      'anthropic',
      {
        text: 'Partial answer that will never finish because the worker dies. '.repeat(10),
        eventDelayMs: 150,
      },
      { text: 'The retried answer: roll back to 2.40.' },
    );
    const first = await start();
    const thread = newThread(fake);
    await thread.mention(first);
    // The stream has started and holds text (its ts is recorded), and the model is still writing.
    const appended = await fake.waitForCall(
      'chat.appendStream',
      (call) =>
        call.response.ok === true &&
        fake.message(thread.channel, String(call.args.ts))?.thread_ts === thread.threadTs,
      20_000,
    );
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
    const orphan = String(appended.args.ts);
    expect(fake.message(thread.channel, orphan)?.streaming).toBe(true);

    await start();
    await until(() => thread.replies().length > 0, 30_000, 'the retried reply');
    await sleep(500);
    const messages = botMessages(thread.channel, thread.threadTs);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.ts).toBe(orphan);
    expect(messages[0]?.streaming).toBe(false);
    expect(slackTextToPlain(messages[0]?.text ?? '')).toBe('The retried answer: roll back to 2.40.');
    expect(thread.replies()).toHaveLength(1);
    expect(replay.requests).toHaveLength(2);
  });

  it('streaming refused (an old workspace): the reply is posted and then edited, once', async () => {
    replay.enqueue('anthropic', { text: LONG_REPLY });
    fake.failNext('chat.startStream', { error: 'unknown_method' });
    const app = await start();
    const thread = newThread(fake);
    await thread.mention(app);
    await until(() => thread.replies().length > 0, 15_000, 'the reply');
    await sleep(300);
    const messages = botMessages(thread.channel, thread.threadTs);
    expect(messages).toHaveLength(1);
    expect(slackTextToPlain(messages[0]?.text ?? '')).toBe(LONG_REPLY);
    expect(keyOf(messages[0])).toMatch(/^reply-/);
    expect(fake.callsTo('chat.stopStream').filter((call) => call.args.ts === messages[0]?.ts)).toHaveLength(
      0,
    );
    expect(
      fake.callsTo('chat.startStream').filter((call) => call.args.thread_ts === thread.threadTs),
    ).toEqual([expect.objectContaining({ response: expect.objectContaining({ error: 'unknown_method' }) })]);
  });

  it('a stream Slack ended on a long turn (message_not_in_streaming_state): the message is edited to the full reply', async () => {
    replay.enqueue('anthropic', { text: LONG_REPLY, eventDelayMs: 40 });
    const app = await start();
    const thread = newThread(fake);
    await thread.mention(app);
    await fake.waitForCall(
      'chat.appendStream',
      (call) =>
        call.response.ok === true &&
        fake.message(thread.channel, String(call.args.ts))?.thread_ts === thread.threadTs,
      20_000,
    );
    expect(fake.expireStreams()).toBe(1);
    await until(() => thread.replies().length > 0, 20_000, 'the reply');
    await sleep(300);
    const refused = fake
      .callsTo('chat.appendStream')
      .concat(fake.callsTo('chat.stopStream'))
      .filter((call) => call.response.error === 'message_not_in_streaming_state');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    const messages = botMessages(thread.channel, thread.threadTs);
    expect(messages).toHaveLength(1);
    expect(slackTextToPlain(messages[0]?.text ?? '')).toBe(LONG_REPLY);
  });

  it('REPLY_STREAMING=off: the reply is one chat.postMessage', async () => {
    replay.enqueue('anthropic', { text: 'Plain reply.' });
    const app = await start({ REPLY_STREAMING: 'off' });
    const thread = newThread(fake);
    await thread.mention(app);
    const reply = await thread.waitForReply();
    expect(reply.method).toBe('chat.postMessage');
    expect(reply.args.text).toBe('Plain reply.');
    expect(
      fake.callsTo('chat.startStream').filter((call) => call.args.thread_ts === thread.threadTs),
    ).toEqual([]);
  });
});

describe('status while a turn works', () => {
  it('in a channel thread: the reaction goes on the message that started the turn, not the thread root, and is removed', async () => {
    replay.enqueue('anthropic', { text: 'Done.' });
    const app = await start();
    const thread = newThread(fake);
    await thread.mention(app);
    await thread.waitForReply();
    await until(
      () =>
        fake
          .callsTo('reactions.remove')
          .some(
            (call) =>
              call.args.channel === thread.channel &&
              fake.message(thread.channel, String(call.args.timestamp))?.thread_ts === thread.threadTs,
          ),
      10_000,
      'the reaction removed',
    );
    const mention = fake
      .messagesIn(thread.channel, thread.threadTs)
      .find((message) => message.user === 'U0ALICE' && message.ts !== thread.threadTs);
    const reactions = [...fake.callsTo('reactions.add'), ...fake.callsTo('reactions.remove')].filter(
      (call) =>
        call.args.channel === thread.channel &&
        fake.message(thread.channel, String(call.args.timestamp))?.thread_ts === thread.threadTs,
    );
    expect(reactions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(reactions.map((call) => call.args.timestamp))).toEqual(new Set([mention?.ts]));
    expect(fake.message(thread.channel, mention?.ts ?? '')?.reactions).toEqual([]);
    expect(fake.message(thread.channel, thread.threadTs)?.reactions).toEqual([]);
  });

  it('in a DM (assistant thread): "is thinking…", "is running x", cleared at the pause, then again until the end; no reaction', async () => {
    const config = deployConfig();
    replay.enqueue(
      'anthropic',
      { text: 'Checking.', toolCalls: [{ name: 'deploy_status', input: { service: 'payments-api' } }] },
      'a-text-and-ask_question',
      'd-final-text',
    );
    const app = await start({ HOLDPOINT_CONFIG: config });
    // The DM is a thread of its own: the person's message is its first message.
    const thread = newThread(fake, 'is payments-api ok?', 'D0ALICE');
    const { channel, threadTs: ts } = thread;
    const sent = await app.send(
      eventRequest(
        { text: 'is payments-api ok?', ts, user: 'U0ALICE', channel, channel_type: 'im' },
        { eventId: `EvDM${ts}`, secret: TEST_SIGNING_SECRET, template: 'message_im' },
      ),
    );
    expect(sent.status).toBe(200);
    const ask = await thread.waitForAsk(1, 20_000);
    const statuses = () =>
      fake
        .callsTo('assistant.threads.setStatus')
        .filter((call) => call.args.channel_id === channel && call.args.thread_ts === ts)
        .map((call) => String(call.args.status));
    await until(() => statuses().at(-1) === '', 10_000, 'the status cleared at the pause');
    expect(statuses()).toEqual(['is thinking…', 'is running deploy_status', 'is thinking…', '']);

    expect(await thread.click(app, ask, 'Hotfix forward', { user: 'U0ALICE' })).toBe(200);
    await until(
      () => statuses().length >= 6 && statuses().at(-1) === '',
      15_000,
      'the status cleared at the end',
    );
    expect(statuses().slice(4)).toEqual(['is thinking…', '']);
    expect(fake.callsTo('reactions.add').filter((call) => call.args.channel === channel)).toEqual([]);
    // The DM reply streamed without a recipient (Slack needs none in a DM) and reads the model's text.
    const reply = fake
      .callsTo('chat.stopStream')
      .find(
        (call) =>
          call.args.channel === channel &&
          (
            call.args.metadata as { event_payload?: { key?: string } } | undefined
          )?.event_payload?.key?.startsWith('reply-'),
      );
    expect(reply).toBeDefined();
  });
});
