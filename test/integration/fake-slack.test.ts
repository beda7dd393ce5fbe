import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { ErrorCode, type WebAPIPlatformError, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION_ID_PATTERN } from '../../src/slack/blocks/action-ids.js';
import { renderAnswerModal } from '../../src/slack/blocks/render-answer-modal.js';
import { renderAskMessage } from '../../src/slack/blocks/render-ask-message.js';
import { renderHomeView } from '../../src/slack/blocks/render-inbox.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack/index.js';
import { blockActionRequest, buttonActionFromBlocks, postToSlackApp } from '../support/slack-payloads.js';
import { answered, askRecord, SHOWN_AT } from '../unit/slack/ask-records.js';

const THREAD = '1780000000.000100';

async function platformError(promise: Promise<unknown>): Promise<WebAPIPlatformError> {
  try {
    await promise;
  } catch (error) {
    return error as WebAPIPlatformError;
  }
  throw new Error('expected the call to fail');
}

describe('fake Slack Web API with a real @slack/web-api WebClient', () => {
  let fake: FakeSlack;
  let client: WebClient;

  beforeEach(async () => {
    fake = await startFakeSlack();
    client = new WebClient(fake.botToken, {
      slackApiUrl: fake.url,
      retryConfig: { retries: 1 },
      logLevel: undefined,
    });
  });

  afterEach(async () => {
    await fake.close();
  });

  it('posts an ask into a thread, updates it, and returns it with metadata from conversations.replies', async () => {
    fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'deploy?', ts: THREAD });
    const ask = askRecord();
    const first = renderAskMessage(ask);
    const posted = await client.chat.postMessage({
      channel: 'C0OPS',
      thread_ts: THREAD,
      text: first.text,
      blocks: first.blocks,
      metadata: { event_type: 'holdpoint_ask', event_payload: { askId: ask.askId } },
    });
    expect(posted.ok).toBe(true);
    expect(posted.ts).toMatch(/^\d+\.\d{6}$/);
    const call = fake.callsTo('chat.postMessage')[0];
    expect(call?.token).toBe(fake.botToken);
    expect(call?.args.blocks).toEqual(JSON.parse(JSON.stringify(first.blocks)));
    expect(call?.args.link_names).toBeUndefined();

    const second = renderAskMessage({ ...ask, status: 'resolved', resolutions: [answered(['Roll back'])] });
    const updated = await client.chat.update({
      channel: 'C0OPS',
      ts: posted.ts ?? '',
      text: second.text,
      blocks: second.blocks,
    });
    expect(updated.ok).toBe(true);

    const replies = await client.conversations.replies({
      channel: 'C0OPS',
      ts: THREAD,
      include_all_metadata: true,
    });
    expect(replies.messages?.map((message) => [message.user, message.ts])).toEqual([
      ['U0ALICE', THREAD],
      ['U0BOT', posted.ts],
    ]);
    expect(replies.messages?.[1]?.metadata).toEqual({
      event_type: 'holdpoint_ask',
      event_payload: { askId: ask.askId },
    });
    expect(JSON.stringify(replies.messages?.[1]?.blocks)).toContain('chosen by <@U0BOB>');
    const withoutMetadata = await client.conversations.replies({ channel: 'C0OPS', ts: THREAD });
    expect(withoutMetadata.messages?.[1]?.metadata).toBeUndefined();
    expect(fake.messagesIn('C0OPS', THREAD)).toHaveLength(2);
  });

  it('rejects duplicate action_ids in a block with invalid_blocks and Slack-style errors (C01)', async () => {
    const button = (text: string) => ({
      type: 'button' as const,
      action_id: 'approve',
      text: { type: 'plain_text' as const, text },
    });
    const error = await platformError(
      client.chat.postMessage({
        channel: 'C0OPS',
        text: 'Which region?',
        blocks: [{ type: 'actions', block_id: 'b', elements: [button('us-east-1'), button('eu-west-1')] }],
      }),
    );
    expect(error.code).toBe(ErrorCode.PlatformError);
    expect(error.data.error).toBe('invalid_blocks');
    expect((error.data as unknown as { errors: string[] }).errors).toEqual([
      'action_id must be unique within a block: approve [json-pointer:/blocks/0/elements/1/action_id]',
    ]);
    expect(fake.messagesIn('C0OPS', THREAD)).toEqual([]);
  });

  it('answers 429 with Retry-After; the client waits and the second call succeeds (C09)', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfterSec: 1 });
    const posted = await client.chat.postMessage({ channel: 'C0OPS', thread_ts: THREAD, text: 'hello' });
    expect(posted.ok).toBe(true);
    const calls = fake.callsTo('chat.postMessage');
    expect(calls.map((call) => [call.status, call.response.ok])).toEqual([
      [429, false],
      [200, true],
    ]);
    expect(calls[0]?.response).toEqual({ ok: false, error: 'ratelimited' });
    expect((calls[1]?.time ?? 0) - (calls[0]?.time ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(fake.messagesIn('C0OPS', THREAD)).toHaveLength(1);
  });

  it('rejects missing and wrong tokens and unknown methods like Slack', async () => {
    const anonymous = new WebClient(undefined, { slackApiUrl: fake.url, retryConfig: { retries: 0 } });
    expect((await platformError(anonymous.auth.test())).data.error).toBe('not_authed');
    const wrong = new WebClient('xoxb-wrong', { slackApiUrl: fake.url, retryConfig: { retries: 0 } });
    expect((await platformError(wrong.auth.test())).data.error).toBe('invalid_auth');
    expect((await platformError(client.apiCall('chat.frobnicate', {}))).data.error).toBe('unknown_method');
    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, user_id: 'U0BOT', bot_id: 'B0BOT', team_id: 'T0TEST' });
  });

  it('chat.update: message_not_found for an unknown ts, cant_update_message for a human message', async () => {
    const human = fake.seedMessage({ channel: 'C0OPS', user: 'U0ALICE', text: 'hi', threadTs: THREAD });
    expect(
      (await platformError(client.chat.update({ channel: 'C0OPS', ts: '1.000001', text: 'x' }))).data.error,
    ).toBe('message_not_found');
    expect(
      (await platformError(client.chat.update({ channel: 'C0OPS', ts: human.ts, text: 'x' }))).data.error,
    ).toBe('cant_update_message');
  });

  it('truncates top-level text over 40000 characters with a message_truncated warning', async () => {
    const posted = await client.chat.postMessage({ channel: 'C0OPS', text: 'x'.repeat(40_001) });
    expect(posted.ok).toBe(true);
    expect(posted.warning).toBe('message_truncated');
    expect(fake.message('C0OPS', posted.ts ?? '')?.text).toHaveLength(40_000);
  });

  it('views.open validates the modal and needs a trigger_id', async () => {
    const modal = renderAnswerModal(askRecord(), 0, { channel: 'C0OPS', messageTs: '1780001001.000101' });
    expect((await platformError(client.views.open({ trigger_id: '', view: modal }))).data.error).toBe(
      'invalid_arguments',
    );
    const opened = await client.views.open({ trigger_id: '1.2.fakeTrigger', view: modal });
    expect(opened.view?.id).toMatch(/^V0FAKE/);
    const bad = { ...modal, title: { type: 'plain_text' as const, text: 'A title longer than 24 chars' } };
    const error = await platformError(client.views.open({ trigger_id: '1.2.fakeTrigger', view: bad }));
    expect(error.data.error).toBe('invalid_arguments');
    expect(error.data.response_metadata?.messages).toEqual([
      '[ERROR] must be less than 25 characters [json-pointer:/view/title/text]',
    ]);
  });

  it('views.publish keeps a valid Home view per user and refuses what Slack refuses', async () => {
    const view = renderHomeView({ toAnswer: [askRecord()], started: [], now: SHOWN_AT, workspaceUrl: null });
    const published = await client.views.publish({ user_id: 'U0ALICE', view });
    expect(published.view?.id).toMatch(/^VHOME/);
    expect(fake.homeView('U0ALICE')?.blocks).toEqual(view.blocks);
    const again = await client.views.publish({
      user_id: 'U0ALICE',
      view,
      hash: String(published.view?.hash),
    });
    expect(again.view?.id).toBe(published.view?.id);
    const stale = client.views.publish({ user_id: 'U0ALICE', view, hash: String(published.view?.hash) });
    expect((await platformError(stale)).data.error).toBe('hash_conflict');
    const unknown = client.views.publish({ user_id: 'nobody', view });
    expect((await platformError(unknown)).data.error).toBe('user_not_found');
    const blocks = Array.from({ length: 101 }, (_, index) => ({
      type: 'section' as const,
      block_id: `b${index}`,
      text: { type: 'mrkdwn' as const, text: 'x' },
    }));
    const tooMany = await platformError(
      client.views.publish({ user_id: 'U0BOB', view: { type: 'home', blocks } }),
    );
    expect(tooMany.data.error).toBe('invalid_arguments');
    expect(tooMany.data.response_metadata?.messages?.[0]).toContain('/view/blocks');
    const modal = renderAnswerModal(askRecord(), 0, { channel: 'C0OPS', messageTs: '1780001001.000101' });
    const notHome = await platformError(client.views.publish({ user_id: 'U0BOB', view: modal as never }));
    expect(notHome.data.response_metadata?.messages).toContain(
      '[ERROR] must be one of: home [json-pointer:/view/type]',
    );
    expect(fake.homeView('U0BOB')).toBeUndefined();
  });

  it('supports ephemerals, reactions, status, user groups, users and permalinks', async () => {
    const posted = await client.chat.postMessage({ channel: 'C0OPS', thread_ts: THREAD, text: 'q' });
    const ts = posted.ts ?? '';
    await client.chat.postEphemeral({
      channel: 'C0OPS',
      user: 'U0BOB',
      thread_ts: THREAD,
      text: 'Already answered',
    });
    expect(fake.ephemerals).toMatchObject([
      { channel: 'C0OPS', user: 'U0BOB', text: 'Already answered', thread_ts: THREAD },
    ]);
    await client.reactions.add({ channel: 'C0OPS', timestamp: ts, name: 'hourglass_flowing_sand' });
    expect(
      (
        await platformError(
          client.reactions.add({ channel: 'C0OPS', timestamp: ts, name: 'hourglass_flowing_sand' }),
        )
      ).data.error,
    ).toBe('already_reacted');
    await client.reactions.remove({ channel: 'C0OPS', timestamp: ts, name: 'hourglass_flowing_sand' });
    expect(fake.message('C0OPS', ts)?.reactions).toEqual([]);
    await client.assistant.threads.setStatus({
      channel_id: 'D0ALICE',
      thread_ts: THREAD,
      status: 'is thinking…',
    });
    expect(fake.callsTo('assistant.threads.setStatus')[0]?.args.status).toBe('is thinking…');
    fake.seedUserGroup('S0OPS', ['U0ALICE', 'U0BOB']);
    expect((await client.usergroups.users.list({ usergroup: 'S0OPS' })).users).toEqual(['U0ALICE', 'U0BOB']);
    expect((await platformError(client.usergroups.users.list({ usergroup: 'S0NONE' }))).data.error).toBe(
      'no_such_subteam',
    );
    expect((await client.users.info({ user: 'U0ALICE' })).user).toMatchObject({
      id: 'U0ALICE',
      is_bot: false,
    });
    expect((await client.chat.getPermalink({ channel: 'C0OPS', message_ts: ts })).permalink).toContain(
      '/archives/C0OPS/p',
    );
    await client.chat.delete({ channel: 'C0OPS', ts });
    expect(fake.message('C0OPS', ts)).toBeUndefined();
  });

  it('waitForCall resolves on a later call and times out with the calls it saw', async () => {
    const waiting = fake.waitForCall('chat.postMessage', (call) => call.args.text === 'later', 2000);
    await client.chat.postMessage({ channel: 'C0OPS', text: 'earlier' });
    await client.chat.postMessage({ channel: 'C0OPS', text: 'later' });
    expect((await waiting).args.text).toBe('later');
    await expect(fake.waitForCall('chat.update', undefined, 50)).rejects.toThrow(/no matching chat.update/);
  });
});

describe('signed interaction payloads against a real Bolt HTTPReceiver', () => {
  const signingSecret = 'fake_signing_secret_for_tests_only';
  let fake: FakeSlack;
  let server: Server;

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fake.close();
  });

  it('Bolt verifies a signed click on a rendered button; its client and respond() reach the fake', async () => {
    fake = await startFakeSlack();
    const receiver = new HTTPReceiver({ signingSecret });
    const app = new App({
      token: fake.botToken,
      botId: fake.botId,
      botUserId: fake.botUserId,
      receiver,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: fake.url, retryConfig: { retries: 0 } },
    });
    const seen: string[] = [];
    app.action({ action_id: ACTION_ID_PATTERN }, async ({ ack, action, body, client, respond }) => {
      await ack();
      seen.push((action as { action_id: string }).action_id);
      await client.chat.postEphemeral({ channel: 'C0OPS', user: body.user.id, text: 'noted' });
      await respond({ replace_original: false, text: 'via response_url' });
    });
    server = createServer(receiver.requestListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;

    const { blocks, text } = renderAskMessage(askRecord());
    const request = blockActionRequest(
      {
        user: 'U0BOB',
        actions: [buttonActionFromBlocks(blocks, 'hp.option.0.1')],
        message: { ts: '1780001001.000101', thread_ts: THREAD, blocks, text },
        responseUrl: fake.responseUrl('click1'),
      },
      { secret: signingSecret },
    );
    const response = await postToSlackApp(url, request);
    expect(response.status).toBe(200);
    await fake.waitForCall('chat.postEphemeral');
    expect(seen).toEqual(['hp.option.0.1']);
    expect(fake.ephemerals[0]).toMatchObject({ user: 'U0BOB', text: 'noted' });
    await expect.poll(() => fake.responseUrlPosts.length).toBe(1);
    expect(fake.responseUrlPosts[0]).toMatchObject({
      path: '/response_url/click1',
      body: { text: 'via response_url' },
    });

    const stale = blockActionRequest(
      { user: 'U0BOB', actions: [buttonActionFromBlocks(blocks, 'hp.option.0.1')] },
      { secret: signingSecret, timestampSec: Math.floor(Date.now() / 1000) - 301 },
    );
    expect((await postToSlackApp(url, stale)).status).toBe(401);
    const forged = {
      ...request,
      headers: { ...request.headers, 'x-slack-signature': `v0=${'0'.repeat(64)}` },
    };
    expect((await postToSlackApp(url, forged)).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});

describe('fake Slack with two workspaces and OAuth installs', () => {
  let fake: FakeSlack;
  const redirectUrl = 'http://127.0.0.1:9/slack/oauth_redirect';

  beforeEach(async () => {
    fake = await startFakeSlack({ oauthApp: { clientId: '1.2', clientSecret: 'sec', redirectUrl } });
  });

  afterEach(async () => {
    await fake.close();
  });

  const clientOf = (token: string) =>
    new WebClient(token, { slackApiUrl: fake.url, retryConfig: { retries: 0 }, logLevel: undefined });

  it('each token sees its own workspace: auth.test names it, messages stay apart', async () => {
    const beta = fake.addTeam({ teamId: 'T0BETA', teamName: 'Beta' });
    const alpha = fake.team(fake.teamId);
    expect((await clientOf(beta.botToken).auth.test()).team_id).toBe('T0BETA');
    expect((await clientOf(alpha.botToken).auth.test()).team_id).toBe(fake.teamId);
    alpha.seedMessage({ channel: 'C0OPS', user: 'U1', text: 'alpha parent', ts: THREAD });
    beta.seedMessage({ channel: 'C0OPS', user: 'U2', text: 'beta parent', ts: THREAD });
    const posted = await clientOf(beta.botToken).chat.postMessage({
      channel: 'C0OPS',
      thread_ts: THREAD,
      text: 'hi',
    });
    expect(beta.message('C0OPS', String(posted.ts))).toBeDefined();
    expect(alpha.message('C0OPS', String(posted.ts))).toBeUndefined();
    const seen = await clientOf(alpha.botToken).conversations.replies({ channel: 'C0OPS', ts: THREAD });
    expect(seen.messages?.map((message) => message.text)).toEqual(['alpha parent']);
    // Alpha's token cannot edit Beta's message: it does not exist in Alpha's workspace.
    const refused = await platformError(
      clientOf(alpha.botToken).chat.update({ channel: 'C0OPS', ts: String(posted.ts), text: 'x' }),
    );
    expect(refused.data.error).toBe('message_not_found');
    expect(fake.calls.find((call) => call.method === 'chat.postMessage')?.teamId).toBe('T0BETA');
    beta.revokeTokens();
    expect((await platformError(clientOf(beta.botToken).auth.test())).data.error).toBe('token_revoked');
  });

  it('the authorize page hands out a single-use code that oauth.v2.access exchanges for the picked workspace', async () => {
    const beta = fake.addTeam({ teamId: 'T0BETA', teamName: 'Beta' });
    const authorize = new URL(`${fake.origin}/oauth/v2/authorize`);
    authorize.search = new URLSearchParams({
      client_id: '1.2',
      scope: 'chat:write',
      state: 's1',
      team: 'T0BETA',
    }).toString();
    const page = await fetch(authorize, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(redirectUrl);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code') ?? '';
    const noToken = new WebClient(undefined, {
      slackApiUrl: fake.url,
      retryConfig: { retries: 0 },
      logLevel: undefined,
    });
    const wrongSecret = await platformError(
      noToken.oauth.v2.access({ client_id: '1.2', client_secret: 'nope', code }),
    );
    expect(wrongSecret.data.error).toBe('bad_client_secret');
    const granted = await noToken.oauth.v2.access({ client_id: '1.2', client_secret: 'sec', code });
    expect(granted).toMatchObject({
      access_token: beta.botToken,
      team: { id: 'T0BETA' },
      bot_user_id: beta.botUserId,
    });
    const again = await platformError(
      noToken.oauth.v2.access({ client_id: '1.2', client_secret: 'sec', code }),
    );
    expect(again.data.error).toBe('invalid_code');
    const unknownApp = new URL(authorize);
    unknownApp.searchParams.set('client_id', '9.9');
    expect((await fetch(unknownApp, { redirect: 'manual' })).status).toBe(400);
  });
});
