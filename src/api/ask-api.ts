import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AskService } from '../asks/ask-service.js';
import type { AskStore } from '../asks/ask-store.js';
import type { EngineLogger } from '../asks/logger.js';
import { ASK_RECORD_VERSION, type AskDefinition, type AskRecord, standaloneScope } from '../asks/types.js';
import type { ApiToken } from '../config/api-tokens.js';
import { slackErrorCode } from '../slack/slack-error-code.js';
import type { ApiMarks } from './api-marks.js';
import { type AskChanges, watchAsk } from './ask-changes.js';
import { type ApiProblem, type AskRequestDefaults, decodeAskRequest } from './ask-request.js';
import { askView } from './ask-view.js';
import { authenticate } from './bearer-auth.js';

/** Largest request body of the ask API, in bytes. */
export const API_BODY_LIMIT = 64 * 1024;
/** Longest `?wait=` of a long-poll, in seconds. */
export const MAX_WAIT_SEC = 60;
/**
 * How often a long-poll looks at the ask when no announcement came, in ms: an announcement (Redis pub/sub)
 * wakes it at once; this bounds the wait when one was lost (a subscriber reconnecting, a crash before the
 * announcement, resolved later by the sweep).
 */
export const POLL_INTERVAL_MS = 1000;
/** How long an `Idempotency-Key` keeps returning the same ask, in ms (24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Requests per token per minute before 429 (over every process: counted in Redis). */
export const DEFAULT_RATE_PER_MINUTE = 120;

/** What the ask API needs. */
export interface AskApiDeps {
  asks: Pick<AskService, 'open' | 'cancel'>;
  store: Pick<AskStore, 'getAsk'>;
  marks: ApiMarks;
  tokens: readonly ApiToken[];
  /** What a request leaves out (`ASK_TIMEOUT`, `ASK_TIMEOUT_POLICY`, `ASK_ANSWERERS`). */
  defaults: AskRequestDefaults;
  /** Opens (or finds) the DM with a user; returns its channel id. @throws Slack's error (its `data.error` is shown). */
  openDm: (userId: string) => Promise<string>;
  /**
   * Whether a user group exists in the workspace (an answerer list naming an unknown group is refused, since
   * nobody could answer through it). Absent: not checked.
   */
  groupExists?: (groupId: string) => Promise<boolean>;
  newId: () => string;
  /** Epoch ms. */
  now: () => number;
  log: EngineLogger;
  /** Whether webhooks are on (`WEBHOOK_SECRET` set): otherwise an ask with a `callbackUrl` is refused. */
  webhooks: boolean;
  /** Requests per token per minute (default {@link DEFAULT_RATE_PER_MINUTE}). */
  ratePerMinute?: number;
  /** Announcements of resolved asks, which wake long-polls; without it they look every {@link POLL_INTERVAL_MS}. */
  changes?: AskChanges;
  /** How often a waiting reader looks at the ask without an announcement, in ms (default {@link POLL_INTERVAL_MS}). */
  pollIntervalMs?: number;
}

/** A refusal with its HTTP status (and headers). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: ApiProblem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.message);
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * The ask API, for scripts and other agents (mounted at `/v1/asks` on the process's HTTP server):
 * - `POST /v1/asks` opens an ask and posts it in Slack: 201 `{ id, status, channel, ts, deadline, … }`
 *   (200 with the same ask for a repeated `Idempotency-Key`);
 * - `GET /v1/asks/{id}[?wait=N]` returns it, after waiting up to N s (at most {@link MAX_WAIT_SEC}) for it
 *   to resolve;
 * - `DELETE /v1/asks/{id}` cancels it (409 when it already resolved).
 * Every call needs `Authorization: Bearer <token>` from `API_TOKENS` (401 otherwise, nothing stored); an
 * ask is seen only by the token that created it (404 for others). Refusals are
 * `{ error: { code, message, path } }`. The returned listener never rejects.
 */
export function createAskApi(deps: AskApiDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      await handle(deps, req, res);
    } catch (error) {
      if (error instanceof HttpProblem) {
        if (!res.headersSent) send(res, error.status, { error: error.problem }, error.headers);
        return;
      }
      deps.log.error({ err: error, path: req.url }, 'ask API request failed');
      if (!res.headersSent)
        send(res, 500, { error: { code: 'internal', message: 'internal error', path: '' } });
    }
  };
}

async function handle(deps: AskApiDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const client = authenticate(req.headers.authorization, deps.tokens);
  if (!client) {
    req.resume();
    throw new HttpProblem(
      401,
      { code: 'unauthorized', message: 'missing or unknown bearer token', path: '' },
      {
        'www-authenticate': 'Bearer',
      },
    );
  }
  const perMinute = deps.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE;
  if ((await deps.marks.countRequest(client, 60_000, deps.now())) > perMinute) {
    req.resume();
    const retryAfter = String(60 - Math.floor((deps.now() % 60_000) / 1000));
    throw new HttpProblem(
      429,
      { code: 'rate_limited', message: `more than ${perMinute} requests in a minute`, path: '' },
      { 'retry-after': retryAfter },
    );
  }
  const id = /^\/v1\/asks\/([A-Za-z0-9_-]{1,100})$/.exec(url.pathname)?.[1];
  if (url.pathname === '/v1/asks' && req.method === 'POST') return create(deps, client, req, res);
  if (id && req.method === 'GET') return read(deps, client, id, url.searchParams.get('wait'), res);
  if (id && req.method === 'DELETE') return cancel(deps, client, id, res);
  req.resume();
  if (url.pathname === '/v1/asks' || id)
    throw new HttpProblem(
      405,
      {
        code: 'method_not_allowed',
        message: `${req.method} is not allowed here: use ${id ? 'GET or DELETE' : 'POST'}`,
        path: '',
      },
      { allow: id ? 'GET, DELETE' : 'POST' },
    );
  throw new HttpProblem(404, { code: 'not_found', message: 'no such route', path: '' });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type)) {
    req.resume();
    throw new HttpProblem(415, {
      code: 'unsupported_media_type',
      message: 'send application/json',
      path: '',
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > API_BODY_LIMIT) {
      req.resume();
      throw new HttpProblem(
        413,
        { code: 'too_large', message: `the body is over ${API_BODY_LIMIT} bytes`, path: '' },
        { connection: 'close' },
      );
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpProblem(400, { code: 'invalid_json', message: 'the body is not JSON', path: '' });
  }
}

async function create(
  deps: AskApiDeps,
  client: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readJson(req);
  const key = req.headers['idempotency-key'];
  const opened = await openProgramAsk(deps, client, body, typeof key === 'string' ? key : undefined);
  send(res, opened.repeated ? 200 : 201, askView(opened.ask));
}

/**
 * Opens and posts a program's ask from a request body (the `POST /v1/asks` body; the MCP server's
 * `ask_question` arguments), once per `idempotencyKey` of `client`.
 * @returns the ask as shown, and whether an earlier request with the same key had opened it.
 * @throws HttpProblem 400 for an invalid request or ask, 502 when Slack refused the message.
 */
export async function openProgramAsk(
  deps: AskApiDeps,
  client: string,
  body: unknown,
  idempotencyKey?: string,
): Promise<{ ask: AskRecord; repeated: boolean }> {
  const decoded = decodeAskRequest(body, {
    ...deps.defaults,
    // `requester` means the person who started a turn; a program's ask has none, so anyone answers.
    answerers: deps.defaults.answerers.mode === 'requester' ? { mode: 'anyone' } : deps.defaults.answerers,
  });
  if (!decoded.ok) throw new HttpProblem(400, decoded.problem);
  const request = decoded.request;
  if (request.callbackUrl && !deps.webhooks)
    throw new HttpProblem(400, {
      code: 'invalid_request',
      message: 'callbackUrl: webhooks are off on this server (set WEBHOOK_SECRET)',
      path: 'callbackUrl',
    });
  let askId = deps.newId();
  let repeated = false;
  if (idempotencyKey !== undefined && idempotencyKey.length > 0) {
    if (idempotencyKey.length > 255)
      throw new HttpProblem(400, {
        code: 'invalid_request',
        message: 'Idempotency-Key: at most 255 characters',
        path: '',
      });
    const digest = createHash('sha256').update(canonicalJson(body)).digest('hex').slice(0, 32);
    const holder = await deps.marks.claimIdempotencyKey(
      client,
      idempotencyKey,
      askId,
      digest,
      IDEMPOTENCY_TTL_MS,
    );
    if (!holder.sameBody)
      throw new HttpProblem(422, {
        code: 'idempotency_key_reused',
        message: `Idempotency-Key: it was used with a different body (ask ${holder.askId}); use a new key for a new ask`,
        path: '',
      });
    repeated = holder.askId !== askId;
    askId = holder.askId;
  }
  const scope = standaloneScope(askId);
  if (repeated) {
    const earlier = await deps.store.getAsk(scope, askId);
    if (earlier?.shownAt != null) return { ask: earlier, repeated };
  }
  if (request.answerers.mode === 'list' && deps.groupExists) {
    for (const groupId of request.answerers.groupIds)
      if (!(await deps.groupExists(groupId)))
        throw new HttpProblem(400, {
          code: 'invalid_request',
          message: `answerers: ${groupId} is not a user group of this workspace (Slack: no_such_subteam), so nobody could answer through it`,
          path: 'answerers',
        });
  }
  let channel: string;
  if ('channel' in request.target) channel = request.target.channel;
  else {
    try {
      channel = await deps.openDm(request.target.user);
    } catch (error) {
      const code = slackErrorCode(error);
      if (code === null) throw error;
      throw new HttpProblem(400, {
        code: 'invalid_request',
        message: `user: Slack could not open a DM with ${request.target.user} (${code})`,
        path: 'user',
      });
    }
  }
  const conversation = { surface: 'slack', channel, threadTs: request.threadTs ?? '' };
  const definition: AskDefinition = {
    version: ASK_RECORD_VERSION,
    askId,
    scope,
    waiter: {
      kind: 'api',
      clientName: client,
      ...(request.callbackUrl ? { callbackUrl: request.callbackUrl } : {}),
    },
    ordinal: 0,
    questions: request.questions,
    conversation,
    requestedBy: client,
    answerers: request.answerers,
    timeoutMs: request.timeoutMs,
    policy: request.policy,
    createdAt: new Date(deps.now()).toISOString(),
    metadata: request.metadata,
    intro: request.intro,
    followUp: request.followUp,
  };
  let refusal: string | null = null;
  const opened = await deps.asks.open(conversation, definition, (error) => {
    refusal = slackErrorCode(error) ?? (error instanceof Error ? error.message : null);
  });
  if (!opened || opened.shownAt === null) {
    // The failed ask stays (resolved as not shown); a retry with the same key opens a new one.
    if (idempotencyKey) await deps.marks.releaseIdempotencyKey(client, idempotencyKey, askId);
    throw new HttpProblem(502, {
      code: 'not_shown',
      message: `Slack refused the message${refusal ? ` (${refusal})` : ''}; the ask ${askId} is kept, resolved as not shown. Fix the cause and ask again (the same Idempotency-Key opens a new ask).`,
      path: '',
    });
  }
  deps.log.info({ askId, client, channel }, 'ask opened through the API');
  return { ask: opened, repeated };
}

/** The ask `id` if `client` created it, else a 404 (an ask of another token does not exist for this one). */
export async function owned(deps: Pick<AskApiDeps, 'store'>, client: string, id: string): Promise<AskRecord> {
  const ask = await deps.store.getAsk(standaloneScope(id), id);
  if (ask?.waiter.kind !== 'api' || ask.waiter.clientName !== client)
    throw new HttpProblem(404, { code: 'not_found', message: `no ask ${id}`, path: '' });
  return ask;
}

async function read(
  deps: AskApiDeps,
  client: string,
  id: string,
  waitParam: string | null,
  res: ServerResponse,
): Promise<void> {
  let ask = await owned(deps, client, id);
  const waitSec = waitParam === null ? 0 : Number(waitParam);
  if (!Number.isFinite(waitSec) || waitSec < 0 || waitSec > MAX_WAIT_SEC)
    throw new HttpProblem(400, {
      code: 'invalid_request',
      message: `wait: 0 to ${MAX_WAIT_SEC} seconds`,
      path: 'wait',
    });
  const until = deps.now() + waitSec * 1000;
  if (ask.status !== 'open' || waitSec === 0) return send(res, 200, askView(ask));
  // The ask never depends on this connection: it resolves, times out and stays on its own; a client that
  // lost its connection asks again.
  const watch = watchAsk(deps.changes, id);
  let gone = false;
  res.once('close', () => {
    gone = true;
    watch.stop();
  });
  try {
    // Read again after the watch started: an announcement between the first read and now is not lost.
    ask = (await deps.store.getAsk(ask.scope, id)) ?? ask;
    while (ask.status === 'open' && deps.now() < until && !gone) {
      await watch.next(Math.min(deps.pollIntervalMs ?? POLL_INTERVAL_MS, until - deps.now()));
      if (gone) break;
      ask = (await deps.store.getAsk(ask.scope, id)) ?? ask;
    }
  } finally {
    watch.stop();
  }
  if (!gone) send(res, 200, askView(ask));
}

async function cancel(deps: AskApiDeps, client: string, id: string, res: ServerResponse): Promise<void> {
  const ask = await owned(deps, client, id);
  const result = await deps.asks.cancel({ turnId: ask.scope, askId: id, userId: client });
  if (result.status === 'completed' && result.ask) return send(res, 200, askView(result.ask));
  const now = (await deps.store.getAsk(ask.scope, id)) ?? ask;
  if (askView(now).status === 'canceled')
    throw new HttpProblem(409, {
      code: 'already_canceled',
      message: `ask ${id} was already canceled`,
      path: '',
    });
  throw new HttpProblem(409, {
    code: 'already_resolved',
    message: `ask ${id} already resolved; GET it for the answers`,
    path: '',
  });
}

/** JSON with object keys sorted, so two bodies that differ only in key order have one digest. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : item,
  );
}
