/**
 * A local fake of the Slack Web API for tests: node:http on 127.0.0.1 and a free port. It records every
 * call, rejects like Slack (unknown_method, not_authed, invalid_auth, invalid_blocks with Slack-style
 * `errors`, message_not_found, cant_update_message …), can answer 429 with `Retry-After`, and keeps a
 * small workspace (messages, threads, metadata, reactions, ephemerals, views, Home tabs, user groups) so that
 * conversations.replies and chat.update behave. POSTs to `/response_url/…` are recorded too.
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
} from './types.js';

/** Methods that need no token. */
const UNAUTHENTICATED = new Set(['api.test']);

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
  const state = new FakeSlackState(botUserId, botId, teamId);
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
    if (!UNAUTHENTICATED.has(method)) {
      if (token === null) return { body: { ok: false, error: 'not_authed' } };
      if (token !== botToken) return { body: { ok: false, error: 'invalid_auth' } };
    }
    if (method === 'api.test') return { body: { ok: true, args } };
    return state.handle(method, args) ?? { body: { ok: false, error: 'unknown_method' } };
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
        calls.push({ method, args, token, time, status, response: result.body });
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.terminate();
        socketServer.close();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
