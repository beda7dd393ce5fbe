/**
 * `npm run demo`: holdpoint end to end on this machine, with no Slack workspace and no model key.
 *
 * Starts a private redis-server (with the docker-compose flags; or uses REDIS_URL), a local fake Slack Web API,
 * a local replay of recorded Anthropic responses, and the real holdpoint runtime (HTTP mode, real Bolt receiver,
 * real BullMQ worker, the real @ai-sdk/anthropic client). Then it plays a person: mentions the bot in a thread,
 * prints the ask the bot posts, clicks an option with a correctly signed request, and prints the bot's reply.
 * Then it shows an approval: the config file (HOLDPOINT_CONFIG) wires the example MCP tool server
 * (examples/deploy-mcp), the agent checks a service (read-only, no approval) and wants to roll it back
 * (destructive): the approval is posted, the on-call person approves it, the tool runs once.
 * Add `--timeout` to see the timeout path instead of the click: nobody answers, the ask resolves by its
 * recommended option after a short ASK_TIMEOUT, and the model is told that this was an assumption.
 * Add `--keep` to leave everything running and print the URLs and a curl line to try by hand; Ctrl-C
 * (SIGINT) or SIGTERM stops it, its Redis included.
 * Without `redis-server` on PATH (and no REDIS_URL) it prints one line saying what to install and exits 1.
 * Slack tokens in what it prints are shown as a person sees them (`@bob`, the local time).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config/load-config.js';
import { startRuntime } from '../src/runtime.js';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
import { startModelReplay } from '../test/support/model-replay/model-replay.js';
import { hasRedisServerBinary, startRedisServer } from '../test/support/redis-server.js';
import {
  blockActionRequest,
  buttonActionFromBlocks,
  eventRequest,
  postToSlackApp,
} from '../test/support/slack-payloads.js';
import { readableSlackText } from './readable-slack-text.js';
import { readRedisFlags } from './redis-flags.mjs';

const SECRET = 'demo-signing-secret';
const FLAGS = ['--keep', '--timeout'] as const;
const args = process.argv.slice(2);
const unknown = args.filter((arg) => !(FLAGS as readonly string[]).includes(arg));
if (unknown.length > 0) {
  process.stderr.write(
    `npm run demo: unknown ${unknown.join(' ')}; use npm run demo [-- ${FLAGS.join(' ')}]\n`,
  );
  process.exit(2);
}
const keep = args.includes('--keep');
/** `--timeout`: nobody clicks; the ask resolves by its recommended option after {@link DEMO_ASK_TIMEOUT}. */
const timeoutPath = args.includes('--timeout');
/** ASK_TIMEOUT of a `--timeout` run: short, so the timeout comes while you watch. */
const DEMO_ASK_TIMEOUT = '5s';

if (!process.env.REDIS_URL && !hasRedisServerBinary()) {
  process.stderr.write(
    'npm run demo needs redis-server on PATH: install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis you own.\n',
  );
  process.exit(1);
}

/** The demo's people and channel, by the ids its Slack tokens carry. */
const NAMES = { users: { U0ALICE: 'alice', U0BOB: 'bob', U0BOT: 'holdpoint' }, channels: { C0OPS: 'ops' } };

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Slack mrkdwn as the Slack client shows it (`<@U0BOB>` -> `@bob`, dates in local time). */
function readable(text: string): string {
  return readableSlackText(text, NAMES);
}

/** The text of the last `tool_result` in an Anthropic Messages request body: what the model was told. */
function lastToolResultText(body: unknown): string | null {
  const messages = (body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
  let found: string | null = null;
  for (const message of messages) {
    for (const part of Array.isArray(message.content)
      ? (message.content as Array<Record<string, unknown>>)
      : []) {
      if (part.type !== 'tool_result') continue;
      const content = part.content;
      found =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? (content as Array<{ text?: unknown }>).map((item) => String(item.text ?? '')).join('\n')
            : null;
    }
  }
  return found;
}

/** A plain-text view of Block Kit blocks, enough to read an ask in a terminal. */
function blocksAsText(blocks: unknown): string {
  const lines: string[] = [];
  for (const block of Array.isArray(blocks) ? (blocks as Array<Record<string, unknown>>) : []) {
    const text = (block.text as { text?: string } | undefined)?.text;
    if (block.type === 'header' && text) lines.push(`  ## ${text}`);
    else if (block.type === 'section' && text)
      lines.push(
        ...readable(text)
          .split('\n')
          .map((line) => `  ${line}`),
      );
    else if (block.type === 'context') {
      const elements = (block.elements as Array<{ text?: string }> | undefined) ?? [];
      lines.push(`  (${readable(elements.map((element) => element.text ?? '').join(' '))})`);
    } else if (block.type === 'actions') {
      const elements =
        (block.elements as
          | Array<{ text?: { text?: string }; options?: Array<{ text?: { text?: string } }> }>
          | undefined) ?? [];
      lines.push(
        `  ${elements
          .map((element) =>
            element.options
              ? `[ ⋯ ${element.options.map((option) => option.text?.text ?? '?').join(' | ')} ]`
              : `[ ${element.text?.text ?? '?'} ]`,
          )
          .join(' ')}`,
      );
    }
  }
  return lines.join('\n');
}

const redis = process.env.REDIS_URL ? null : await startRedisServer(readRedisFlags());
const redisUrl = process.env.REDIS_URL ?? redis?.url ?? '';
const fake = await startFakeSlack();
const replay = await startModelReplay();
// Step 1: text + ask_question ("Hotfix forward" / "Roll back", recorded Anthropic format); step 2: the final
// reply: after bob's click the recorded one (the hotfix), after a timeout one that goes with the assumption.
replay.enqueue(
  'anthropic',
  'a-text-and-ask_question',
  timeoutPath
    ? {
        text: 'Nobody answered in time, so I went with the default and am rolling back to v2.14.3. That was an assumption, not a decision: say so here if you want the hotfix instead.',
      }
    : 'd-final-text',
);
// The approval part: a read-only status call, then a rollback (gated), then the reply.
replay.enqueue(
  'anthropic',
  {
    text: 'Let me look at payments-api first.',
    toolCalls: [{ name: 'deploy_status', input: { service: 'payments-api' } }],
  },
  {
    text: 'payments-api 2.41.0 is failing health checks; 2.40.3 was healthy. I want to roll back.',
    toolCalls: [{ name: 'deploy_rollback', input: { service: 'payments-api', version: '2.40.3' } }],
  },
  { text: 'Rolled payments-api back to 2.40.3 after @bob approved; all pods are healthy again.' },
);
const root = fileURLToPath(new URL('../', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'holdpoint-demo-'));
const configPath = join(configDir, 'holdpoint.yaml');
writeFileSync(
  configPath,
  `mcpServers:
  deploy:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(join(root, 'examples/deploy-mcp/server.mjs'))}]
    cwd: ${JSON.stringify(root)}
approvals:
  - tools: [deploy.rollback]
    approvers: [U0BOB]
    timeout: 15m
`,
);

const config = loadConfig({
  SLACK_BOT_TOKEN: fake.botToken,
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: fake.url,
  REDIS_URL: redisUrl,
  PORT: '0',
  MODEL: 'anthropic:claude-sonnet-4-5',
  ANTHROPIC_API_KEY: 'demo-key',
  ANTHROPIC_BASE_URL: replay.anthropicBaseUrl,
  HOLDPOINT_CONFIG: configPath,
  LOG_LEVEL: 'warn',
  ...(timeoutPath ? { ASK_TIMEOUT: DEMO_ASK_TIMEOUT } : {}),
});
const runtime = await startRuntime(config, pino({ level: 'warn' }), { storePrefix: `demo-${Date.now()}` });
const port = (runtime.server.address() as AddressInfo).port;
const events = `http://127.0.0.1:${port}/slack/events`;
say(
  `holdpoint is running on http://127.0.0.1:${port} (Redis ${redisUrl}, fake Slack ${fake.url}, model replay ${replay.anthropicBaseUrl})`,
);

const threadTs = '1780000000.000100';
fake.seedMessage({
  channel: 'C0OPS',
  user: 'U0ALICE',
  text: 'payments-api deploy failed on canary',
  ts: threadTs,
});
fake.seedMessage({
  channel: 'C0OPS',
  user: 'U0ALICE',
  text: '<@U0BOT> what should we do?',
  ts: '1780000000.000200',
  threadTs,
});
say('\nalice in #ops: @holdpoint what should we do?');
const mention = eventRequest(
  {
    text: '<@U0BOT> what should we do?',
    ts: '1780000000.000200',
    thread_ts: threadTs,
    user: 'U0ALICE',
    channel: 'C0OPS',
  },
  { eventId: `EvDemo${Date.now()}`, secret: SECRET },
);
say(`  -> signed app_mention: HTTP ${(await postToSlackApp(events, mention)).status}`);

const ask = await fake.waitForCall('chat.postMessage', (call) => Array.isArray(call.args.blocks), 20_000);
say('\nholdpoint posts in the thread:');
say(blocksAsText(ask.args.blocks));

const blocks = ask.args.blocks as unknown[];
if (timeoutPath) {
  say(
    `\nnobody clicks: the timeout job resolves the ask after ${DEMO_ASK_TIMEOUT} (ASK_TIMEOUT for this run)`,
  );
  const update = await fake.waitForCall(
    'chat.update',
    (call) => JSON.stringify(call.args.blocks ?? []).includes('No answer in'),
    30_000,
  );
  say('\nthe ask message now reads:');
  say(blocksAsText(update.args.blocks));
} else {
  // The recorded final reply (d-final-text) is the agent going with the hotfix, so bob picks that option.
  const hotfix =
    (blocks as Array<{ elements?: Array<{ action_id?: string; text?: { text?: string } }> }>)
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.text?.text?.includes('Hotfix forward'))?.action_id ?? 'hp.option.0.1';
  say(`\nbob clicks "Hotfix forward" (${hotfix})`);
  const click = blockActionRequest(
    {
      user: 'U0BOB',
      actions: [buttonActionFromBlocks(blocks, hotfix)],
      message: { ts: ask.response.ts, thread_ts: threadTs, blocks },
      container: { thread_ts: threadTs },
      responseUrl: fake.responseUrl(),
    },
    { secret: SECRET },
  );
  say(`  -> signed block_actions: HTTP ${(await postToSlackApp(events, click)).status}`);
  const update = await fake.waitForCall('chat.update', undefined, 10_000);
  say('\nthe ask message now reads:');
  say(blocksAsText(update.args.blocks));
}
/** The post's idempotency key (holdpoint puts one in every message's metadata). */
const postKey = (args: Record<string, unknown>): string =>
  String((args.metadata as { event_payload?: { key?: unknown } } | undefined)?.event_payload?.key ?? '');
/**
 * The turn's final reply in a thread: streamed (the `chat.stopStream` that carries its `reply-…` key; the
 * text is the message's as streamed) or posted (`REPLY_STREAMING=off`). Not a reminder (`nudge-…`).
 */
async function finalReply(threadTs: string): Promise<{ text: string; streamed: boolean }> {
  const until = Date.now() + 20_000;
  for (;;) {
    const message = fake
      .callsTo('chat.stopStream')
      .filter((call) => call.response.ok === true && postKey(call.args).startsWith('reply-'))
      .map((call) => fake.message(String(call.args.channel), String(call.args.ts)))
      .find((found) => found?.thread_ts === threadTs);
    if (message) return { text: message.text, streamed: true };
    const posted = fake
      .callsTo('chat.postMessage')
      .find(
        (call) =>
          call.args.thread_ts === threadTs &&
          !Array.isArray(call.args.blocks) &&
          postKey(call.args).startsWith('reply-'),
      );
    if (posted) return { text: String(posted.args.text), streamed: false };
    if (Date.now() > until) throw new Error('no reply within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const reply = await finalReply(threadTs);
if (timeoutPath) {
  for (const call of fake.callsTo('chat.postMessage').filter((c) => postKey(c.args).startsWith('nudge-')))
    say(`\nwhile nobody answered, holdpoint reminded the thread:\n  ${readable(String(call.args.text))}`);
}
if (timeoutPath) {
  // Its words; the same follows as JSON.
  const told = (lastToolResultText(replay.requests[1]?.body) ?? '(not found)').split('\n\n')[0] ?? '';
  say(
    `\nthe model is told (the ask_question tool result, before its JSON):\n  ${told.replaceAll('\n', '\n  ')}`,
  );
}
say(
  `\nholdpoint ${reply.streamed ? 'streams its reply into' : 'replies in'} the thread:\n  ${readable(reply.text).replaceAll('\n', '\n  ')}`,
);

// Part two: an approval.
const secondTs = '1780000100.000100';
fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'payments-api is still failing', ts: secondTs });
fake.seedMessage({
  channel: 'C0OPS',
  user: 'U0ALICE',
  text: '<@U0BOT> please fix payments-api',
  ts: '1780000100.000200',
  threadTs: secondTs,
});
say('\nalice in #ops (a new thread): @holdpoint please fix payments-api');
const fix = eventRequest(
  {
    text: '<@U0BOT> please fix payments-api',
    ts: '1780000100.000200',
    thread_ts: secondTs,
    user: 'U0ALICE',
    channel: 'C0OPS',
  },
  { eventId: `EvDemo2${Date.now()}`, secret: SECRET },
);
say(`  -> signed app_mention: HTTP ${(await postToSlackApp(events, fix)).status}`);
const approval = await fake.waitForCall(
  'chat.postMessage',
  (call) => Array.isArray(call.args.blocks) && call.args.thread_ts === secondTs,
  20_000,
);
say('\nholdpoint ran deploy.status (read-only) and asks before the rollback:');
say(blocksAsText(approval.args.blocks));
const approvalBlocks = approval.args.blocks as unknown[];
say('\nbob (the approver) clicks Approve');
const approve = blockActionRequest(
  {
    user: 'U0BOB',
    actions: [buttonActionFromBlocks(approvalBlocks, 'hp.option.0.0')],
    message: { ts: approval.response.ts, thread_ts: secondTs, blocks: approvalBlocks },
    container: { thread_ts: secondTs },
    responseUrl: fake.responseUrl(),
  },
  { secret: SECRET },
);
say(`  -> signed block_actions: HTTP ${(await postToSlackApp(events, approve)).status}`);
const decided = await fake.waitForCall(
  'chat.update',
  (call) => call.args.ts === approval.response.ts,
  10_000,
);
say('\nthe approval now reads:');
say(blocksAsText(decided.args.blocks));
const fixed = await finalReply(secondTs);
say(
  `\nholdpoint ${fixed.streamed ? 'streams its reply into' : 'replies in'} the thread:\n  ${readable(fixed.text).replaceAll('\n', '\n  ')}`,
);
say(`\n${replay.requests.length} model requests, ${fake.calls.length} Slack API calls.`);

if (keep) {
  say(
    `\nStill running (Ctrl-C or SIGTERM to stop). Health: curl http://127.0.0.1:${port}/readyz ; metrics: curl http://127.0.0.1:${port}/metrics`,
  );
  // Either signal stops everything below, the private redis-server included (a SIGTERM reaches only this
  // process, not its children as Ctrl-C in a terminal does).
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
await runtime.stop();
await replay.close();
await fake.close();
await redis?.stop();
