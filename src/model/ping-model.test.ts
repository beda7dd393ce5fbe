import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanguageModel } from './create-model.js';
import { pingModel } from './ping-model.js';

/** A tiny local endpoint: answers each path with a fixed status and body, records the request bodies. */
let server: Server;
let baseURL: string;
const bodies: unknown[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    request.on('end', () => {
      bodies.push(JSON.parse(raw));
      if (request.url === '/ok/v1/messages') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'msg_01ping',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5-20250929',
            content: [{ type: 'text', text: 'p' }],
            stop_reason: 'max_tokens',
            stop_sequence: null,
            usage: { input_tokens: 8, output_tokens: 1 },
          }),
        );
        return;
      }
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('pingModel', () => {
  it('returns ok with the elapsed milliseconds and asks for a single token', async () => {
    const model = createLanguageModel({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
      apiKey: 'k',
      baseURL: `${baseURL}/ok/v1`,
    });
    const result = await pingModel(model);
    expect(result).toEqual({ ok: true, ms: expect.any(Number) });
    expect(bodies.at(-1)).toMatchObject({ max_tokens: 1 });
  });

  it('asks the Responses API for 16 tokens, its minimum, and reports an HTTP error without throwing', async () => {
    const model = createLanguageModel({
      provider: 'openai',
      modelId: 'gpt-4.1',
      apiKey: 'k',
      baseURL: `${baseURL}/bad/v1`,
    });
    const result = await pingModel(model);
    expect(result).toEqual({
      ok: false,
      ms: expect.any(Number),
      error: 'HTTP 401: Incorrect API key provided',
    });
    expect(bodies.at(-1)).toMatchObject({ max_output_tokens: 16 });
  });

  it('reports an unreachable server', async () => {
    const model = createLanguageModel({
      provider: 'openai-compatible',
      modelId: 'llama3.1:8b',
      baseURL: 'http://127.0.0.1:9/v1',
    });
    const result = await pingModel(model, { timeoutMs: 5_000 });
    expect(result.ok).toBe(false);
  });
});
