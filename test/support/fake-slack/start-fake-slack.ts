/**
 * A local fake of the Slack Web API for tests: node:http on 127.0.0.1 and a free port. It records every
 * call, rejects like Slack (unknown_method, not_authed, invalid_auth, invalid_blocks with Slack-style
 * `errors`, message_not_found, cant_update_message …), can answer 429 with `Retry-After`, and keeps a
 * small workspace (messages, threads, metadata, reactions, ephemerals, views, Home tabs, user groups) so that
 * conversations.replies and chat.update behave. POSTs to `/response_url/…` are recorded too.
 *
 * Several workspaces: `addTeam` adds one with its own bot token; a call sees the workspace of its token only
 * (`auth.test` names it), and `oauth.v2.access` exchanges a code of the fake authorize page
 * (`GET /oauth/v2/authorize`, see {@link FakeSlackOptions.oauthApp}) for that workspace's bot token.
 *
 * Use: `const fake = await startFakeSlack(); new WebClient(fake.botToken, { slackApiUrl: fake.url })`,
 * or Bolt `clientOptions: { slackApiUrl: fake.url }`; `await fake.close()` in `afterEach`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { FakeSlackState, type MethodResult } from './fake-slack-state.js';
import { parseApiArgs, requestToken } from './parse-request.js';
import type {
  FakeResponseUrlPost,
  FakeSlack,
  FakeSlackCall,
  FakeSlackFailure,
  FakeSlackMessage,
  FakeSlackOptions,
  FakeSlackTeam,
} from './types.js';

/** How long an authorization code may be exchanged, in ms (Slack: 10 minutes). */
const OAUTH_CODE_TTL_MS = 10 * 60 * 1000;

/** One workspace of the fake: its bot identity and token, and its own messages, views and users. */
interface TeamEntry {
  teamId: string;
  botToken: string;
  botUserId: string;
  botId: string;
  state: FakeSlackState;
  /** The app was uninstalled: its token answers `token_revoked`. */
  revoked: boolean;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(text);
}

/** Starts a fake Slack Web API on 127.0.0.1 (free port). See {@link FakeSlack} for what it offers. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botToken = options.botToken ?? 'xoxb-fake-token';
  let appToken = options.appToken ?? 'xapp-fake-token';
  let tickets = 0;
  const sockets = new Set<WebSocket>();
  // Socket Mode: the URL apps.connections.open hands out; Slack's first frame on it is `hello`.
  const socketServer = new WebSocketServer({ noServer: true });
  socketServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (options.socketHello !== false)
      socket.send(
        JSON.stringify({
          type: 'hello',
          num_connections: sockets.size,
          debug_info: { host: 'fake-slack' },
          connection_info: { app_id: 'A0FAKE' },
        }),
      );
  });
  const socketPort = (): number => (server.address() as AddressInfo).port;
  const botUserId = options.botUserId ?? 'U0BOT';
  const botId = options.botId ?? 'B0BOT';
  const teamId = options.teamId ?? 'T0TEST';
  const clock = { ts: 0 };
  const state = new FakeSlackState(botUserId, botId, teamId, clock);
  const teams = new Map<string, TeamEntry>([
    [teamId, { teamId, botToken, botUserId, botId, state, revoked: false }],
  ]);
  const teamOfToken = (token: string): TeamEntry | undefined =>
    [...teams.values()].find((team) => team.botToken === token);
  /** Authorization codes handed out by the fake authorize page, single use. */
  const codes = new Map<
    string,
    { teamId: string; redirectUri: string | null; expires: number; used: boolean }
  >();
  let codeCounter = 0;
  const calls: FakeSlackCall[] = [];
  const failures = new Map<string, FakeSlackFailure[]>();
  const responseUrlPosts: FakeResponseUrlPost[] = [];

  function answer(
    method: string,
    args: Record<string, unknown>,
    token: string | null,
  ): MethodResult & { headers?: Record<string, string> } {
    const queued = failures.get(method);
    const failure = queued?.shift();
    if (failure !== undefined) {
      if ('retryAfterSec' in failure) {
        return {
          status: 429,
          headers: { 'retry-after': String(failure.retryAfterSec) },
          body: { ok: false, error: 'ratelimited' },
        };
      }
      if ('httpStatus' in failure)
        return { status: failure.httpStatus, body: { ok: false, error: 'fake_http_error' } };
      return { status: failure.status ?? 200, body: { ok: false, error: failure.error } };
    }
    if (method === 'apps.connections.open') {
      // App-level tokens only (Slack: a bot token gets not_allowed_token_type).
      if (token === null) return { body: { ok: false, error: 'not_authed' } };
      if (token.startsWith('xoxb-')) return { body: { ok: false, error: 'not_allowed_token_type' } };
      if (token !== appToken) return { body: { ok: false, error: 'invalid_auth' } };
      return { body: { ok: true, url: `ws://127.0.0.1:${socketPort()}/socket?ticket=${++tickets}` } };
    }
    // Methods that need no token (`oauth.v2.access` authenticates the app by its client id and secret).
    if (method === 'oauth.v2.access') return exchangeCode(args);
    if (method === 'api.test') return { body: { ok: true, args } };
    if (token === null) return { body: { ok: false, error: 'not_authed' } };
    const team = teamOfToken(token);
    if (team === undefined) return { body: { ok: false, error: 'invalid_auth' } };
    if (team.revoked) return { body: { ok: false, error: 'token_revoked' } };
    // `auth.revoke`: the token stops working (as after an uninstall); `test=true` only checks it.
    if (method === 'auth.revoke') {
      const test = args.test === true || args.test === 'true' || args.test === '1';
      if (!test) team.revoked = true;
      return { body: { ok: true, revoked: !test } };
    }
    // A token sees its own workspace only.
    return team.state.handle(method, args) ?? { body: { ok: false, error: 'unknown_method' } };
  }

  /** `oauth.v2.access`: a code of the authorize page, exchanged once by the app that asked for it. */
  function exchangeCode(args: Record<string, unknown>): MethodResult {
    const app = options.oauthApp;
    const clientId = typeof args.client_id === 'string' ? args.client_id : undefined;
    const secret = typeof args.client_secret === 'string' ? args.client_secret : undefined;
    if (app === undefined || clientId === undefined)
      return { body: { ok: false, error: 'invalid_client_id' } };
    if (clientId !== app.clientId) return { body: { ok: false, error: 'invalid_client_id' } };
    if (secret !== app.clientSecret) return { body: { ok: false, error: 'bad_client_secret' } };
    const code = typeof args.code === 'string' ? codes.get(args.code) : undefined;
    if (code === undefined || code.used || code.expires < Date.now())
      return { body: { ok: false, error: 'invalid_code' } };
    const redirectUri = typeof args.redirect_uri === 'string' ? args.redirect_uri : null;
    if (code.redirectUri !== null && redirectUri !== code.redirectUri)
      return { body: { ok: false, error: 'bad_redirect_uri' } };
    code.used = true;
    const team = teams.get(code.teamId);
    if (team === undefined) return { body: { ok: false, error: 'invalid_code' } };
    team.revoked = false;
    return {
      body: {
        ok: true,
        app_id: 'A0APP',
        authed_user: { id: 'U0INSTALLER' },
        scope: app.scopes ?? 'chat:write',
        token_type: 'bot',
        access_token: team.botToken,
        bot_user_id: team.botUserId,
        team: { id: team.teamId, name: team.state.teamName },
        enterprise: null,
        is_enterprise_install: false,
      },
    };
  }

  /**
   * The authorize page a browser is sent to (`GET /oauth/v2/authorize`): as if the person had picked the
   * workspace `team` (a query parameter of the fake; default the first team) and pressed Allow, it redirects
   * to the app's redirect URL with a fresh code and the state it was given.
   */
  function authorizePage(url: URL): { status: number; headers: Record<string, string>; body: string } {
    const app = options.oauthApp;
    if (app === undefined || url.searchParams.get('client_id') !== app.clientId)
      return { status: 400, headers: {}, body: 'invalid_client_id' };
    if (!url.searchParams.get('scope')) return { status: 400, headers: {}, body: 'invalid_scope' };
    const wanted = url.searchParams.get('team') ?? teamId;
    if (!teams.has(wanted)) return { status: 400, headers: {}, body: 'unknown_team' };
    const redirectUri = url.searchParams.get('redirect_uri');
    const target = redirectUri ?? app.redirectUrl;
    if (target === undefined || (redirectUri !== null && app.redirectUrl && redirectUri !== app.redirectUrl))
      return { status: 400, headers: {}, body: 'bad_redirect_uri' };
    codeCounter += 1;
    const code = `code-${wanted}-${codeCounter}`;
    codes.set(code, { teamId: wanted, redirectUri, expires: Date.now() + OAUTH_CODE_TTL_MS, used: false });
    const back = new URL(target);
    back.searchParams.set('code', code);
    const stateParam = url.searchParams.get('state');
    if (stateParam !== null) back.searchParams.set('state', stateParam);
    return { status: 302, headers: { location: back.toString() }, body: '' };
  }

  let pending = 0;
  const server = createServer((request, response) => {
    const time = Date.now();
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    pending++;
    response.on('close', () => pending--);
    readBody(request)
      .then(async (raw) => {
        if (url.pathname.startsWith('/response_url/')) {
          let body: unknown = raw;
          try {
            body = JSON.parse(raw);
          } catch {
            // keep the raw text
          }
          responseUrlPosts.push({ path: url.pathname, body, time });
          send(response, 200, { ok: true });
          return;
        }
        if (url.pathname === '/oauth/v2/authorize') {
          const page = authorizePage(url);
          response.writeHead(page.status, { 'content-type': 'text/plain', ...page.headers });
          response.end(page.body);
          return;
        }
        if (!url.pathname.startsWith('/api/')) {
          send(response, 404, { ok: false, error: 'not_found' });
          return;
        }
        const method = url.pathname.slice('/api/'.length);
        const args = {
          ...Object.fromEntries(url.searchParams),
          ...parseApiArgs(request.headers['content-type'], raw),
        };
        const token = requestToken(request.headers.authorization, args);
        const latency = options.latencyMs?.(method) ?? 0;
        if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
        const result = answer(method, args, token);
        const status = result.status ?? 200;
        const callTeam = token === null ? undefined : teamOfToken(token)?.teamId;
        calls.push({
          method,
          args,
          token,
          time,
          status,
          response: result.body,
          ...(callTeam ? { teamId: callTeam } : {}),
        });
        send(response, status, result.body, result.headers);
      })
      .catch((error: unknown) => {
        send(response, 500, { ok: false, error: 'fake_server_error', detail: String(error) });
      });
  });

  server.on('upgrade', (request, socket, head) => {
    if (!(request.url ?? '').startsWith('/socket')) {
      socket.destroy();
      return;
    }
    socketServer.handleUpgrade(request, socket, head, (ws) => socketServer.emit('connection', ws, request));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const teamView = (entry: TeamEntry): FakeSlackTeam => ({
    teamId: entry.teamId,
    botToken: entry.botToken,
    botUserId: entry.botUserId,
    botId: entry.botId,
    messagesIn: (channel, threadTs) => entry.state.thread(channel, threadTs),
    message: (channel, ts) => entry.state.find(channel, ts),
    seedMessage: (input) =>
      entry.state.addMessage({
        channel: input.channel,
        ts: input.ts ?? entry.state.nextTs(),
        ...(input.threadTs !== undefined ? { thread_ts: input.threadTs } : {}),
        user: input.user,
        text: input.text,
        ...(input.blocks !== undefined ? { blocks: input.blocks } : {}),
        reactions: [],
      }),
    homeView: (userId) => entry.state.homeViews.get(userId),
    revokeTokens: () => {
      entry.revoked = true;
    },
    callsWithToken: () => calls.filter((call) => call.token === entry.botToken),
  });
  const origin = `http://127.0.0.1:${port}`;
  let responseUrlCounter = 0;

  return {
    url: `${origin}/api/`,
    origin,
    botToken,
    botUserId,
    botId,
    teamId,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    inFlight: () => pending,
    expireStreams: () => state.expireStreams(),
    failNext: (method, failure) => {
      const queue = failures.get(method) ?? [];
      queue.push(failure);
      failures.set(method, queue);
    },
    waitForCall: (method, predicate = () => true, timeoutMs = 5000) =>
      new Promise<FakeSlackCall>((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const poll = (): void => {
          const found = calls.find((call) => call.method === method && predicate(call));
          if (found !== undefined) {
            resolve(found);
            return;
          }
          if (Date.now() >= deadline) {
            const seen = calls.map((call) => `${call.method}:${String(call.response.ok)}`).join(', ');
            reject(
              new Error(
                `fake Slack: no matching ${method} call within ${timeoutMs} ms (calls: ${seen || 'none'})`,
              ),
            );
            return;
          }
          setTimeout(poll, 10);
        };
        poll();
      }),
    messagesIn: (channel, threadTs) => state.thread(channel, threadTs),
    message: (channel, ts) => state.find(channel, ts),
    seedMessage: (input) => {
      const message: FakeSlackMessage = {
        channel: input.channel,
        ts: input.ts ?? state.nextTs(),
        ...(input.threadTs !== undefined ? { thread_ts: input.threadTs } : {}),
        user: input.user,
        text: input.text,
        ...(input.blocks !== undefined ? { blocks: input.blocks } : {}),
        reactions: [],
      };
      return state.addMessage(message);
    },
    seedUserGroup: (groupId, userIds) => {
      state.userGroups.set(groupId, [...userIds]);
    },
    seedUser: (user) => {
      state.users.set(user.id, user);
    },
    homeView: (userId) => state.homeViews.get(userId),
    ephemerals: state.ephemerals,
    responseUrl: (id) => {
      responseUrlCounter += 1;
      return `${origin}/response_url/${id ?? `r${responseUrlCounter}`}`;
    },
    responseUrlPosts,
    get appToken() {
      return appToken;
    },
    socketConnections: () => sockets.size,
    revokeAppToken: () => {
      appToken = `revoked-${appToken}`;
    },
    dropSockets: () => {
      for (const socket of sockets) socket.terminate();
    },
    addTeam: (input) => {
      const entry: TeamEntry = {
        teamId: input.teamId,
        botToken: input.botToken ?? `xoxb-fake-${input.teamId.toLowerCase()}`,
        botUserId: input.botUserId ?? `U0BOT${input.teamId}`,
        botId: input.botId ?? `B0BOT${input.teamId}`,
        state: new FakeSlackState(
          input.botUserId ?? `U0BOT${input.teamId}`,
          input.botId ?? `B0BOT${input.teamId}`,
          input.teamId,
          clock,
          input.teamName ?? `Workspace ${input.teamId}`,
        ),
        revoked: false,
      };
      teams.set(input.teamId, entry);
      return teamView(entry);
    },
    team: (id) => {
      const entry = teams.get(id);
      if (entry === undefined) throw new Error(`fake Slack: no team ${id}`);
      return teamView(entry);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.terminate();
        socketServer.close();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
