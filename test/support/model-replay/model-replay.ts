import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { modelFixturePath } from './fixtures.js';
import { renderErrorBody } from './render-error.js';
import { renderStep, resolveStep } from './render-step.js';
import type {
  ErrorResponse,
  FixtureResponse,
  GeneratedStep,
  RecordedRequest,
  ReplayProvider,
  ScriptedResponse,
} from './types.js';

export type * from './types.js';

/** Decides a response from the request when the provider's script is empty; `undefined` = unscripted. */
export type ReplayRequestHandler = (
  request: RecordedRequest,
) => ScriptedResponse | undefined | Promise<ScriptedResponse | undefined>;

/**
 * A local stand-in for the Anthropic and OpenAI APIs (see {@link startModelReplay}).
 */
export interface ModelReplay {
  /** `http://127.0.0.1:<port>/v1`: pass as `createAnthropic({ baseURL })`. */
  readonly anthropicBaseUrl: string;
  /** `http://127.0.0.1:<port>/v1`: pass as `createOpenAI({ baseURL })` (Responses and Chat). */
  readonly openaiBaseUrl: string;
  /** Every request received on a known endpoint, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /**
   * Fallback when the provider's script is empty. Returning `undefined` answers the "nothing scripted"
   * 500. Default: none.
   */
  onRequest: ReplayRequestHandler | undefined;
  /** Appends responses to the provider's script; each request takes the next one. */
  enqueue(provider: ReplayProvider, ...responses: ScriptedResponse[]): void;
  /** Responses still scripted for `provider` (or for all providers). */
  pending(provider?: ReplayProvider): number;
  /**
   * Resolves with {@link requests} once at least `count` have arrived.
   * @throws Error after `timeoutMs` (default 5 000 ms) naming how many arrived.
   */
  waitForRequests(count: number, timeoutMs?: number): Promise<readonly RecordedRequest[]>;
  /** Empties the scripts and the request log, and removes {@link onRequest}. */
  reset(): void;
  /** Stops listening and drops open connections (including delayed responses). */
  close(): Promise<void>;
}

const ROUTES: Record<string, ReplayProvider> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai-chat',
  '/v1/responses': 'openai-responses',
};

function isFixture(response: Exclude<ScriptedResponse, string>): response is FixtureResponse {
  return 'fixture' in response;
}

function isError(response: Exclude<ScriptedResponse, string>): response is ErrorResponse {
  return 'status' in response;
}

function describeScripted(scripted: ScriptedResponse | undefined, stream: boolean): string {
  if (scripted === undefined) return 'unscripted';
  const item = typeof scripted === 'string' ? { fixture: scripted } : scripted;
  if (isFixture(item)) return `fixture ${item.fixture}.${stream ? 'sse' : 'json'}`;
  if (isError(item)) return `error ${item.status}`;
  return 'step';
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts a replay server on 127.0.0.1 (a free port) playing the provider side of
 * `POST /v1/messages` (Anthropic), `/v1/chat/completions` and `/v1/responses` (OpenAI) for the real AI
 * SDK clients. Each request takes the next {@link ScriptedResponse} of its provider's script, else asks
 * {@link ModelReplay.onRequest}, else gets HTTP 500 with an error envelope saying nothing was scripted.
 * A body with `"stream": true` gets `text/event-stream` (a fixture's `.sse` file byte for byte, or a
 * rendered stream); any other body gets JSON. Unknown paths get 404 and are not recorded.
 */
export async function startModelReplay(): Promise<ModelReplay> {
  const scripts: Record<ReplayProvider, ScriptedResponse[]> = {
    anthropic: [],
    'openai-chat': [],
    'openai-responses': [],
  };
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  let stepSeed = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `model-replay: handler failed: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}/v1`;

  const replay: ModelReplay = {
    anthropicBaseUrl: base,
    openaiBaseUrl: base,
    requests,
    onRequest: undefined,
    enqueue(provider, ...responses) {
      scripts[provider].push(...responses);
    },
    pending(provider) {
      return provider === undefined
        ? Object.values(scripts).reduce((sum, script) => sum + script.length, 0)
        : scripts[provider].length;
    },
    waitForRequests(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (requests.length >= count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(requests);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `model-replay: waited ${timeoutMs} ms for ${count} request(s), got ${requests.length}: ${requests
                .map((r) => `${r.provider} ${r.served}`)
                .join(', ')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    reset() {
      for (const script of Object.values(scripts)) script.length = 0;
      requests.length = 0;
      replay.onRequest = undefined;
    },
    close() {
      return new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };

  async function respond(
    record: RecordedRequest,
    scripted: ScriptedResponse | undefined,
    response: ServerResponse,
  ): Promise<void> {
    const { provider, stream } = record;
    if (scripted === undefined) {
      const message = `model-replay: no response scripted for ${record.method} ${record.path} (${provider}, stream: ${stream}); call replay.enqueue('${provider}', …) or set replay.onRequest`;
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(renderErrorBody(provider, 500, message)));
      return;
    }
    const item = typeof scripted === 'string' ? { fixture: scripted } : scripted;
    if (item.delayMs !== undefined) await sleep(item.delayMs);
    if (isFixture(item)) {
      const path = modelFixturePath(provider, item.fixture, stream);
      let bytes: Buffer;
      try {
        bytes = await readFile(path);
      } catch {
        const message = `model-replay: fixture file not found: ${path}`;
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify(renderErrorBody(provider, 500, message)));
        return;
      }
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      response.end(bytes);
      return;
    }
    if (isError(item)) {
      const body =
        item.body ?? renderErrorBody(provider, item.status, `model-replay: scripted HTTP ${item.status}`);
      response.writeHead(item.status, { 'content-type': 'application/json', ...item.headers });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
      return;
    }
    const step: GeneratedStep = item;
    stepSeed += 1;
    const resolved = resolveStep(provider, step, stepSeed, record.body, Math.floor(Date.now() / 1000));
    const rendered = renderStep(provider, resolved, stream);
    response.writeHead(200, { 'content-type': rendered.contentType });
    if (!stream || step.eventDelayMs === undefined) {
      response.end(rendered.body);
      return;
    }
    // One event at a time, as a model that is still writing sends them.
    const events = rendered.body.split('\n\n').filter((event) => event.length > 0);
    for (const event of events) {
      if (response.destroyed) return;
      response.write(`${event}\n\n`);
      await sleep(step.eventDelayMs);
    }
    response.end();
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const provider = request.method === 'POST' ? ROUTES[path] : undefined;
    const raw = await readBody(request);
    if (provider === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `model-replay: no route for ${request.method} ${path}` } }),
      );
      return;
    }
    const body = parseJson(raw);
    const record: RecordedRequest = {
      provider,
      method: request.method ?? 'POST',
      path,
      body,
      stream: typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true,
      headers: request.headers,
      time: Date.now(),
      served: 'pending',
    };
    requests.push(record);
    const scripted = scripts[provider].shift() ?? (await replay.onRequest?.(record));
    record.served = describeScripted(scripted, record.stream);
    for (const waiter of [...waiters]) waiter();
    await respond(record, scripted, response);
  }

  return replay;
}
