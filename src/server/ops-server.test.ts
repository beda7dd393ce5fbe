import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RequestListener, startHttpServer } from './ops-server.js';

const servers: Array<{ close(callback: () => void): void }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function serve(slack: RequestListener) {
  const errors: Array<{ error: unknown; path: string }> = [];
  const server = await startHttpServer({
    port: 0,
    host: '127.0.0.1',
    readiness: [],
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
    slack,
    slackPath: '/slack/events',
    onRequestError: (error, request) => errors.push({ error, path: request.path }),
  });
  servers.push(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, errors };
}

const post = (url: string) => fetch(url, { method: 'POST', body: '{}' });

describe('startHttpServer: a failing request handler', () => {
  const handlers: Array<[string, RequestListener]> = [
    [
      'throws synchronously',
      () => {
        throw new Error('boom (sync)');
      },
    ],
    ['returns a rejected promise', async () => Promise.reject(new Error('boom (async)'))],
    [
      'rejects later, after a tick',
      () => new Promise<void>((_, reject) => setTimeout(() => reject(new Error('boom (later)')), 5)),
    ],
    ['rejects with a non-Error value', () => Promise.reject(null)],
  ];

  for (const [name, handler] of handlers) {
    it(`that ${name} gives that request a 500; the server keeps serving`, async () => {
      const { base, errors } = await serve(handler);
      const failed = await post(`${base}/slack/events`);
      expect(failed.status).toBe(500);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.path).toBe('/slack/events');
      // The same failure again, and a good request after it.
      expect((await post(`${base}/slack/events`)).status).toBe(500);
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
    });
  }

  it('a handler that answered and then rejects keeps its answer; the server keeps serving', async () => {
    const { base, errors } = await serve(async (_req, res) => {
      res.writeHead(200);
      res.end('ok');
      throw new Error('after the answer');
    });
    const response = await post(`${base}/slack/events`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    await expect.poll(() => errors.length).toBe(1);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe('startHttpServer: slow clients', () => {
  /** Opens a raw connection, writes `data`, and resolves with what the server answered and when it closed. */
  async function slowClient(port: number, data: string): Promise<{ reply: string; closedAfterMs: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      let reply = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(data));
      socket.on('data', (chunk) => {
        reply += chunk.toString();
      });
      socket.on('close', () => resolve({ reply, closedAfterMs: Date.now() - started }));
      socket.on('error', () => undefined);
    });
  }

  it('a client that never finishes its headers, or its body, is cut off after the timeouts', async () => {
    const server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      readiness: [],
      metrics: async () => ({ contentType: 'text/plain', body: '' }),
      slack: async (req, res) => {
        for await (const _chunk of req) {
          // read the body
        }
        res.end('ok');
      },
      slackPath: '/slack/events',
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
    });
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const [headers, body] = await Promise.all([
      slowClient(port, 'POST /slack/events HTTP/1.1\r\nHost: x\r\n'),
      slowClient(port, 'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc'),
    ]);
    expect(headers.reply).toMatch(/^HTTP\/1\.1 408/);
    expect(body.reply).toMatch(/^HTTP\/1\.1 408/);
    // Cut off within a few checks (Node looks every second), not after Node's 60 s and 300 s defaults.
    expect(headers.closedAfterMs).toBeLessThan(5000);
    expect(body.closedAfterMs).toBeLessThan(5000);
  });
});

describe('startHttpServer: METRICS_TOKEN', () => {
  const TOKEN = 'metrics-token-0123456789abcdefghijklmnop';
  const PROMETHEUS = '# HELP holdpoint_asks_open Open asks.\nholdpoint_asks_open 0\n';

  async function serveMetrics(metricsToken: string | null | undefined) {
    const server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      readiness: [{ name: 'redis', check: async () => ({ ok: true }) }],
      metrics: async () => ({ contentType: 'text/plain; version=0.0.4', body: PROMETHEUS }),
      metricsToken,
      slack: null,
      slackPath: '/slack/events',
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const get = (url: string, authorization?: string) =>
    fetch(url, authorization === undefined ? {} : { headers: { authorization } });

  it.for([
    ['no Authorization header', undefined],
    ['a wrong token', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['the token with a suffix', `Bearer ${TOKEN}x`],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, 10)}`],
    ['the token as Basic', `Basic ${TOKEN}`],
    ['the token without a scheme', TOKEN],
    ['an empty bearer', 'Bearer '],
  ] as const)('refuses /metrics with 401 for %s', async ([, authorization]) => {
    const base = await serveMetrics(TOKEN);
    const response = await get(`${base}/metrics`, authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    const text = await response.text();
    expect(text).not.toContain('holdpoint_asks_open');
    expect(text).not.toContain(TOKEN);
  });

  it.for([`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `Bearer  ${TOKEN} `])(
    'serves /metrics for the right token (%j)',
    async (authorization) => {
      const base = await serveMetrics(TOKEN);
      const response = await get(`${base}/metrics`, authorization);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(PROMETHEUS);
    },
  );

  it('leaves /healthz and /readyz open (the health checks send no token)', async () => {
    const base = await serveMetrics(TOKEN);
    expect((await get(`${base}/healthz`)).status).toBe(200);
    const ready = await get(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: [{ name: 'redis', ok: true }] });
  });

  it.for([null, undefined, ''])('without a token (%j) /metrics is open', async (metricsToken) => {
    const base = await serveMetrics(metricsToken);
    const response = await get(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PROMETHEUS);
  });
});
