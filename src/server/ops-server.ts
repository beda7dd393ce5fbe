import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { authenticate } from '../api/bearer-auth.js';

/** One readiness check: a name and whether it passes (with a short reason when it does not). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<{ ok: boolean; detail?: string }>;
  /** Shown in `/readyz` but not counted: the process serves without it (an MCP tool server). */
  optional?: boolean;
}

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
  port: number;
  host?: string;
  readiness: ReadinessCheck[];
  /** Prometheus text and its content type. */
  metrics(): Promise<{ contentType: string; body: string }>;
  /**
   * The bearer token `GET /metrics` requires (`METRICS_TOKEN`): without `Authorization: Bearer <it>` the
   * answer is 401. Null or absent: /metrics is open.
   */
  metricsToken?: string | null;
  /** Slack's request listener in HTTP mode (verifies signatures itself); null in Socket Mode. */
  slack: RequestListener | null;
  slackPath: string;
  /**
   * More `GET` routes by exact path (OAuth install mode: `/slack/install`, `/slack/oauth_redirect`), each
   * answering the whole request itself.
   */
  getRoutes?: ReadonlyMap<string, RequestListener>;
  /** The ask API (`/v1/…`), or null when it is off (those paths are 404). */
  api?: RequestListener | null;
  /** The MCP server (`/mcp`), or null when it is off. */
  mcp?: RequestListener | null;
  /** How long a client may take to send a request's headers, in ms (default {@link HEADERS_TIMEOUT_MS}). */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request, in ms (default {@link REQUEST_TIMEOUT_MS}). */
  requestTimeoutMs?: number;
  /** Told about a request whose handler threw or rejected (that request got a 500). Must not throw. */
  onRequestError?: (error: unknown, request: { method: string; path: string }) => void;
}

/** How long a client may take to send a request's headers, in ms. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How long a client may take to send a whole request, in ms (long-polls wait after the request is read). */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A request handler; it may answer synchronously or return a promise. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * Runs `handler` for one request so that whatever it throws or rejects with stays with that request: it
 * gets a 500 (when nothing was sent yet) and `onError` hears of it; the server goes on serving others.
 */
function runGuarded(
  handler: RequestListener,
  req: IncomingMessage,
  res: ServerResponse,
  onError: (error: unknown) => void,
): void {
  const fail = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // a reporter must not take the server down either
    }
    if (!res.headersSent) json(res, 500, { error: 'internal error' });
    else if (!res.writableEnded) res.end();
  };
  try {
    const result = handler(req, res);
    if (result instanceof Promise) result.catch(fail);
  } catch (error) {
    fail(error);
  }
}

/**
 * The process's one HTTP server: `GET /healthz` (the process is alive), `GET /readyz` (every readiness
 * check passes: Redis reachable, workers running, Slack connected; 503 with the failing ones otherwise),
 * `GET /metrics` (Prometheus; with `metricsToken`, only for `Authorization: Bearer <token>`, compared in
 * constant time, else 401), and in HTTP mode Slack's `POST /slack/events`.
 * @returns the listening server (`address().port` is the bound port when `port` was 0).
 */
export async function startHttpServer(options: HttpServerOptions): Promise<Server> {
  const metricsTokens = options.metricsToken ? [{ name: 'metrics', token: options.metricsToken }] : [];
  const route: RequestListener = (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/healthz') {
      json(res, 200, { status: 'ok' });
      return;
    }
    if (req.method === 'GET' && path === '/readyz') {
      void Promise.all(
        options.readiness.map(async (item) => {
          try {
            return { name: item.name, ...(await item.check()), ...(item.optional ? { optional: true } : {}) };
          } catch (error) {
            return {
              name: item.name,
              ok: false,
              detail: error instanceof Error ? error.message : String(error),
              ...(item.optional ? { optional: true } : {}),
            };
          }
        }),
      ).then((checks) => {
        const ready = checks.every((c) => c.ok || c.optional === true);
        json(res, ready ? 200 : 503, { ready, checks });
      });
      return;
    }
    if (req.method === 'GET' && path === '/metrics') {
      if (metricsTokens.length > 0 && authenticate(req.headers.authorization, metricsTokens) === null) {
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer realm="metrics"',
        });
        res.end(
          JSON.stringify({ error: 'unauthorized: /metrics needs Authorization: Bearer <METRICS_TOKEN>' }),
        );
        return;
      }
      void options
        .metrics()
        .then(({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType });
          res.end(body);
        })
        .catch(() => json(res, 500, { error: 'metrics unavailable' }));
      return;
    }
    if (options.slack && path === options.slackPath) return options.slack(req, res);
    const getRoute = req.method === 'GET' && path !== undefined ? options.getRoutes?.get(path) : undefined;
    if (getRoute) return getRoute(req, res);
    if (options.api && path?.startsWith('/v1/')) return options.api(req, res);
    if (options.mcp && path === '/mcp') return options.mcp(req, res);
    json(res, 404, { error: 'not found' });
  };
  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      // Node looks for timed-out requests this often (default 30 s).
      connectionsCheckingInterval: 1000,
    },
    (req, res) =>
      runGuarded(route, req, res, (error) =>
        options.onRequestError?.(error, {
          method: req.method ?? '',
          path: (req.url ?? '/').split('?')[0] ?? '/',
        }),
      ),
  );
  // Slack's requests and the probes are small and quick: a client that takes longer to send its headers or
  // its body is cut off instead of holding a connection (and a buffer) for Node's defaults of 60 s and 300 s.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return server;
}
