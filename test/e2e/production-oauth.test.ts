/**
 * The built app (`node dist/src/main.js`) in OAuth install mode, serving two workspaces of the fake Slack:
 * each is installed through `GET /slack/install` -> the fake authorize page -> `GET /slack/oauth_redirect`;
 * a mention in each pauses on an ask posted with that workspace's own bot token; a click signed for one
 * workspace on the other's ask is refused and changes nothing; each click resumes its own turn; and
 * `app_uninstalled` for one deletes its tokens and cancels its open ask while the other keeps working.
 * Redis never holds a bot token in plaintext.
 */
import { inflateSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeSlack,
  type FakeSlackCall,
  type FakeSlackTeam,
  startFakeSlack,
} from '../support/fake-slack/index.js';
import { type ModelReplay, startModelReplay } from '../support/model-replay/model-replay.js';
import { freePort, type RedisServerHandle } from '../support/redis-server.js';
import { TEST_SIGNING_SECRET } from '../support/slack-harness.js';
import { blockActionPayload, postToSlackApp } from '../support/slack-payloads.js';
import { slackSignatureHeaders } from '../support/slack-signing.js';
import { type ProductionApp, startProductionApp } from './support/production-app.js';
import { productionEnv, REPLAY_PROVIDER, startComposeRedis } from './support/production-env.js';
import { findButton } from './support/slack-thread.js';

const CLIENT_ID = '1111.2222';
const CLIENT_SECRET = 'fake-client-secret-0123456789';
const STORE_PREFIX = 'hp-oauth';
const STATE_SECRET = 'state-secret-0123456789abcdef0123456789';
const ENCRYPTION_KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 29 + 5) % 256)).toString(
  'base64',
);
const TEAM_A = 'T0TEST';
const TEAM_B = 'T0BBB';
/** A workspace outside SLACK_ALLOWED_WORKSPACES. */
const TEAM_C = 'T0CCC';
const provider = REPLAY_PROVIDER.anthropic;

let redis: RedisServerHandle;
let fake: FakeSlack;
let replay: ModelReplay;
let app: ProductionApp;
let inspect: Redis;
let teamA: FakeSlackTeam;
let teamB: FakeSlackTeam;
let teamC: FakeSlackTeam;
let counter = 0;

type Json = Record<string, unknown>;

function signedJson(body: Json): { body: string; headers: Record<string, string> } {
  const raw = JSON.stringify(body);
  return {
    body: raw,
    headers: {
      'content-type': 'application/json',
      ...slackSignatureHeaders(TEST_SIGNING_SECRET, raw, Math.floor(Date.now() / 1000)),
    },
  };
}

function signedForm(payload: Json): { body: string; headers: Record<string, string> } {
  const raw = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return {
    body: raw,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...slackSignatureHeaders(TEST_SIGNING_SECRET, raw, Math.floor(Date.now() / 1000)),
    },
  };
}

/** The envelope fields that name a workspace, as Slack sends them. */
function envelopeOf(team: FakeSlackTeam): Json {
  return {
    token: 'fake-verification-token',
    team_id: team.teamId,
    context_team_id: team.teamId,
    context_enterprise_id: null,
    api_app_id: 'A0APP',
    type: 'event_callback',
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: team.teamId,
        user_id: team.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/**
 * A stored value as text; a zlib stream (a deflated message chunk starts with 0x78) inflated first, so a
 * token inside a deflated history is found too.
 */
function readableValue(value: Buffer): string {
  if (value[0] === 0x78) {
    try {
      return inflateSync(value).toString('utf8');
    } catch {
      // Not a zlib stream after all: text that starts with 'x'.
    }
  }
  return value.toString('utf8');
}

/** Every value Redis holds, of every type, as one string (to look for plaintext tokens). */
async function everythingInRedis(): Promise<string> {
  const parts: string[] = [];
  for (const key of await inspect.keys('*')) {
    const type = await inspect.type(key);
    parts.push(key);
    if (type === 'string') parts.push((await inspect.get(key)) ?? '');
    else if (type === 'hash')
      for (const [field, value] of Object.entries(await inspect.hgetallBuffer(key)))
        parts.push(field, readableValue(value));
    else if (type === 'list') parts.push(...(await inspect.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(...(await inspect.smembers(key)));
    else if (type === 'zset') parts.push(...(await inspect.zrange(key, 0, -1)));
    else if (type === 'stream') parts.push(JSON.stringify(await inspect.xrange(key, '-', '+')));
  }
  return parts.join('\n');
}

async function expectNoPlaintextTokens(): Promise<void> {
  const all = await everythingInRedis();
  for (const token of [teamA.botToken, teamB.botToken]) expect(all).not.toContain(token);
  expect(all).not.toContain('xoxb-');
}

/** Installs holdpoint in `team` the way a browser does: install page, authorize, redirect back with the cookie. */
async function install(team: FakeSlackTeam): Promise<{ status: number; page: string }> {
  const start = await fetch(`${app.baseUrl}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  expect(cookie).toMatch(/^slack-app-oauth-state=/);
  const authorizeUrl = new URL(start.headers.get('location') ?? '');
  expect(authorizeUrl.origin).toBe(fake.origin);
  expect(authorizeUrl.pathname).toBe('/oauth/v2/authorize');
  expect(authorizeUrl.searchParams.get('scope')).toContain('chat:write');
  // The person picks the workspace and presses Allow (the fake's `team` parameter).
  authorizeUrl.searchParams.set('team', team.teamId);
  const allowed = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(allowed.status).toBe(302);
  const back = new URL(allowed.headers.get('location') ?? '');
  expect(back.pathname).toBe('/slack/oauth_redirect');
  const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
  return { status: done.status, page: await done.text() };
}

interface Thread {
  team: FakeSlackTeam;
  channel: string;
  threadTs: string;
  mention(): Promise<number>;
  waitForAsk(): Promise<FakeSlackCall>;
  replies(): FakeSlackCall[];
  click(ask: FakeSlackCall, label: string, as: FakeSlackTeam): Promise<number>;
}

/**
 * A thread in channel `C0OPS` of `team` (both workspaces have a channel of that id), with a new `ts` or the
 * one given (the same channel and `ts` in two workspaces are two threads).
 */
function threadIn(team: FakeSlackTeam, sameTsAs?: Thread): Thread {
  counter += 1;
  const channel = 'C0OPS';
  const threadTs = sameTsAs?.threadTs ?? `${1_790_000_000 + (process.pid % 10_000) * 100 + counter}.000100`;
  team.seedMessage({ channel, user: 'U0ALICE', text: 'payments-api deploy is failing', ts: threadTs });
  const ofThread = (call: FakeSlackCall) =>
    call.method === 'chat.postMessage' &&
    call.token === team.botToken &&
    call.args.thread_ts === threadTs &&
    call.response.ok === true;
  const isAsk = (call: FakeSlackCall) => JSON.stringify(call.args.blocks ?? []).includes('"type":"button"');
  return {
    team,
    channel,
    threadTs,
    async mention() {
      const ts = `${threadTs.split('.')[0]}.000200`;
      const text = `<@${team.botUserId}> what should we do?`;
      team.seedMessage({ channel, user: 'U0ALICE', text, ts, threadTs });
      const body = {
        ...envelopeOf(team),
        event_id: `EvOAuth${counter}${team.teamId}`,
        event: {
          type: 'app_mention',
          user: 'U0ALICE',
          ts,
          text,
          team: team.teamId,
          thread_ts: threadTs,
          channel,
          event_ts: ts,
        },
      };
      return (await postToSlackApp(`${app.baseUrl}/slack/events`, signedJson(body))).status;
    },
    waitForAsk: () => fake.waitForCall('chat.postMessage', (call) => ofThread(call) && isAsk(call), 15_000),
    replies: () => fake.calls.filter((call) => ofThread(call) && !isAsk(call)),
    async click(ask, label, as) {
      const blocks = ask.args.blocks as unknown[];
      const { blockId, button } = findButton(blocks, label);
      const payload = {
        ...blockActionPayload({
          user: { id: 'U0BOB', username: 'bob', name: 'bob', team_id: as.teamId },
          actions: [
            {
              type: 'button',
              action_id: button.action_id,
              block_id: blockId,
              text: button.text,
              value: button.value,
              action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
            },
          ],
          message: { ts: ask.response.ts, thread_ts: threadTs, blocks },
          container: { thread_ts: threadTs },
          responseUrl: fake.responseUrl(),
        }),
        team: { id: as.teamId, domain: as.teamId.toLowerCase() },
      };
      return (await postToSlackApp(`${app.baseUrl}/slack/events`, signedForm(payload))).status;
    },
  };
}

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${app.output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const port = await freePort();
  [redis, fake, replay] = await Promise.all([
    startComposeRedis(),
    startFakeSlack({
      oauthApp: {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUrl: `http://127.0.0.1:${port}/slack/oauth_redirect`,
      },
    }),
    startModelReplay(),
  ]);
  teamA = fake.team(TEAM_A);
  teamB = fake.addTeam({ teamId: TEAM_B, teamName: 'Beta Corp' });
  teamC = fake.addTeam({ teamId: TEAM_C, teamName: 'Gamma Ltd' });
  inspect = new Redis(redis.url);
  const env = productionEnv({
    fake,
    replay,
    redisUrl: redis.url,
    port,
    model: 'anthropic',
    env: {
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_STATE_SECRET: STATE_SECRET,
      TOKEN_ENCRYPTION_KEY: ENCRYPTION_KEY,
      // Team A and B may install; a third workspace (Gamma) may not.
      SLACK_ALLOWED_WORKSPACES: `${TEAM_A},${TEAM_B}`,
      HOLDPOINT_TEST_STORE_PREFIX: STORE_PREFIX,
      // Replies posted whole, so each is one chat.postMessage (streaming has its own tests).
      REPLY_STREAMING: 'off',
    },
  });
  delete env.SLACK_BOT_TOKEN;
  app = await startProductionApp(env);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await inspect?.quit();
  await Promise.all([replay?.close(), fake?.close(), redis?.stop()]);
});

describe('production OAuth install mode: two workspaces, nothing crosses', () => {
  it('refuses a redirect without the browser state, then installs both workspaces through /slack/install', async () => {
    // A code without the state cookie of /slack/install (a forged or replayed redirect) installs nothing.
    const forged = await fetch(`${app.baseUrl}/slack/oauth_redirect?code=code-x&state=made-up`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('holdpoint was not installed');
    expect(fake.callsTo('oauth.v2.access')).toHaveLength(0);

    const a = await install(teamA);
    expect(a.status).toBe(200);
    expect(a.page).toContain('holdpoint is installed in Test Workspace');
    const b = await install(teamB);
    expect(b.status).toBe(200);
    expect(b.page).toContain('holdpoint is installed in Beta Corp');
    expect(fake.callsTo('oauth.v2.access').map((call) => call.response.ok)).toEqual([true, true]);
    expect((await inspect.smembers(`${STORE_PREFIX}:{slack-installs}:installs`)).sort()).toEqual(
      [`T-${TEAM_A}`, `T-${TEAM_B}`].sort(),
    );
    await expectNoPlaintextTokens();
    // A workspace outside SLACK_ALLOWED_WORKSPACES: refused, its new token revoked, nothing stored.
    const c = await install(teamC);
    expect(c.status).toBe(403);
    expect(c.page).toContain('may not install holdpoint');
    expect(fake.callsTo('auth.revoke').map((call) => call.token)).toEqual([teamC.botToken]);
    expect((await inspect.smembers(`${STORE_PREFIX}:{slack-installs}:installs`)).sort()).toEqual(
      [`T-${TEAM_A}`, `T-${TEAM_B}`].sort(),
    );
    // No secret reaches the log: tokens, the client and state secrets, the encryption key.
    for (const secret of [teamA.botToken, teamB.botToken, CLIENT_SECRET, STATE_SECRET, ENCRYPTION_KEY])
      expect(app.output()).not.toContain(secret);
  });

  it('each workspace pauses on its own ask with its own token; a click from the other workspace is refused; each click resumes its own turn', async () => {
    replay.enqueue(
      provider,
      'a-text-and-ask_question',
      'a-text-and-ask_question',
      'd-final-text',
      'd-final-text',
    );
    const inA = threadIn(teamA);
    // Same channel id and thread ts in the other workspace: its own thread (keys scoped by workspace), so
    // its turn starts at once instead of queueing behind team A's paused turn.
    const inB = threadIn(teamB, inA);
    expect(await inA.mention()).toBe(200);
    const askA = await inA.waitForAsk();
    expect(await inB.mention()).toBe(200);
    const askB = await inB.waitForAsk();
    expect(askA.token).toBe(teamA.botToken);
    expect(askB.token).toBe(teamB.botToken);
    // Each ask is a message of its own workspace only.
    expect(teamA.message(inA.channel, String(askA.response.ts))).toBeDefined();
    expect(teamB.message(inA.channel, String(askA.response.ts))).toBeUndefined();
    expect(teamB.message(inB.channel, String(askB.response.ts))).toBeDefined();
    expect(teamA.message(inB.channel, String(askB.response.ts))).toBeUndefined();
    // Each workspace's thread history was read with its own token and holds its own messages only.
    const historyCalls = fake.callsTo('conversations.replies').filter((c) => c.args.ts === inA.threadTs);
    expect(historyCalls.map((call) => call.teamId).sort()).toEqual([TEAM_A, TEAM_B].sort());
    for (const call of historyCalls) {
      const texts = JSON.stringify(call.response.messages);
      expect(texts).toContain(call.teamId === TEAM_A ? teamA.botUserId : teamB.botUserId);
      expect(texts).not.toContain(call.teamId === TEAM_A ? `<@${teamB.botUserId}>` : `<@${teamA.botUserId}>`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));

    // A click signed for team B on team A's ask (its message, its button values): refused, nothing changes.
    const updatesBefore = fake.callsTo('chat.update').length;
    const callsWithA = teamA.callsWithToken().length;
    expect(await inA.click(askA, 'Hotfix forward', teamB)).toBe(200);
    await app.waitForLog(
      (line) => line.msg === 'click refused: it comes from another workspace than its ask',
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(fake.callsTo('chat.update').length).toBe(updatesBefore);
    expect(teamA.callsWithToken().length).toBe(callsWithA);
    expect(inA.replies()).toHaveLength(0);
    // The clicker was told, in their own workspace.
    const notice = fake
      .callsTo('chat.postEphemeral')
      .find((call) => call.token === teamB.botToken && call.args.user === 'U0BOB');
    expect(notice?.response.ok).toBe(true);

    // Team B's own click resumes team B's turn; team A's ask stays open.
    expect(await inB.click(askB, 'Hotfix forward', teamB)).toBe(200);
    await waitFor('team B reply', () => inB.replies()[0]);
    expect(inA.replies()).toHaveLength(0);
    expect(inB.replies()[0]?.token).toBe(teamB.botToken);

    // Team A's own click resumes team A's turn.
    expect(await inA.click(askA, 'Hotfix forward', teamA)).toBe(200);
    const replyA = await waitFor('team A reply', () => inA.replies()[0]);
    expect(replyA.token).toBe(teamA.botToken);
    expect(String(replyA.args.text)).toContain('Going with the hotfix');
    expect(inB.replies()).toHaveLength(1);
    await expectNoPlaintextTokens();
  });

  it('app_uninstalled for team A deletes its tokens and cancels its open ask, without calling Slack for it; team B keeps working', async () => {
    replay.enqueue(provider, 'a-text-and-ask_question');
    const inA = threadIn(teamA);
    expect(await inA.mention()).toBe(200);
    const askA = await inA.waitForAsk();
    // The turn job's last Slack call for team A: after the ask is posted it takes the working reaction off.
    // Counting team A's calls before it lands would count one too few.
    await fake.waitForCall(
      'reactions.remove',
      (call) => call.token === teamA.botToken && call.time >= askA.time,
      15_000,
    );

    // Slack revokes the workspace's tokens and tells the app.
    teamA.revokeTokens();
    const callsWithA = teamA.callsWithToken().length;
    const uninstall = {
      ...envelopeOf(teamA),
      event_id: `EvUninstall${counter}`,
      event: { type: 'app_uninstalled', event_ts: `${Math.floor(Date.now() / 1000)}.000100` },
    };
    expect((await postToSlackApp(`${app.baseUrl}/slack/events`, signedJson(uninstall))).status).toBe(200);
    const removed = await app.waitForLog(
      (line) =>
        line.msg ===
        'a Slack workspace removed holdpoint: its installation is deleted and its open asks are canceled',
    );
    expect(removed).toMatchObject({ teamId: TEAM_A, reason: 'app_uninstalled', canceledAsks: 1 });
    expect(await inspect.exists(`${STORE_PREFIX}:{slack-installs}:install:T-${TEAM_A}`)).toBe(0);
    expect(await inspect.smembers(`${STORE_PREFIX}:{slack-installs}:installs`)).toEqual([`T-${TEAM_B}`]);
    // The canceled ask's turn resumes and ends at its first Slack call, with one log line, no retries.
    await app.waitForLog(
      (line) => line.msg === 'the Slack workspace of this job is not installed; the job ends',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(teamA.callsWithToken().length).toBe(callsWithA);
    expect(
      app
        .logs()
        .filter((line) => line.msg === 'the Slack workspace of this job is not installed; the job ends'),
    ).toHaveLength(1);
    await expectNoPlaintextTokens();

    // Team B is untouched: a new mention pauses on an ask and its click gets the reply.
    replay.enqueue(provider, 'a-text-and-ask_question', 'd-final-text');
    const inB = threadIn(teamB);
    expect(await inB.mention()).toBe(200);
    const askB = await inB.waitForAsk();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await inB.click(askB, 'Hotfix forward', teamB)).toBe(200);
    const replyB = await waitFor('team B reply after the uninstall', () => inB.replies()[0]);
    expect(replyB.token).toBe(teamB.botToken);
  });

  it('tokens_revoked: a user token changes nothing, the bot token deletes the installation; installing again starts afresh', async () => {
    const revoked = (tokens: Json, id: string) => ({
      ...envelopeOf(teamB),
      event_id: id,
      event: { type: 'tokens_revoked', tokens, event_ts: `${Math.floor(Date.now() / 1000)}.000200` },
    });
    const installKey = `${STORE_PREFIX}:{slack-installs}:install:T-${TEAM_B}`;
    expect(
      (
        await postToSlackApp(
          `${app.baseUrl}/slack/events`,
          signedJson(revoked({ oauth: ['U0INSTALLER'] }, 'EvRevokeUser')),
        )
      ).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await inspect.exists(installKey)).toBe(1);

    teamB.revokeTokens();
    expect(
      (
        await postToSlackApp(
          `${app.baseUrl}/slack/events`,
          signedJson(revoked({ bot: [teamB.botUserId] }, 'EvRevokeBot')),
        )
      ).status,
    ).toBe(200);
    await app.waitForLog(
      (line) =>
        line.msg.startsWith('a Slack workspace removed holdpoint') && line.reason === 'tokens_revoked',
    );
    expect(await inspect.exists(installKey)).toBe(0);

    // Team A installs again (the fake issues its token anew): its mentions work again.
    const again = await install(teamA);
    expect(again.status).toBe(200);
    replay.enqueue(provider, 'a-text-and-ask_question');
    const inA = threadIn(teamA);
    expect(await inA.mention()).toBe(200);
    expect((await inA.waitForAsk()).token).toBe(teamA.botToken);
    await expectNoPlaintextTokens();
  });
});
