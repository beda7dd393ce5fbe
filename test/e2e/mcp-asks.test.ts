/**
 * The MCP server end to end with the SDK's own client (Streamable HTTP transport): it lists the tools,
 * calls ask_question, a signed click answers it, and the call returns the agent's result text; a client
 * that disconnects gets the result with get_ask_result.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAskResultJson } from '../../src/ask/format-ask-result.js';
import { waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';
import {
  clickMessageRequest,
  firstAskTs,
  type SlackHarness,
  startSlackHarness,
} from '../support/slack-harness.js';

const TOKEN = 'm'.repeat(40);
const QUESTIONS = [
  {
    header: 'Deploy',
    question: 'Ship payments-api 2.41?',
    options: [{ label: 'Ship it', recommended: true }, { label: 'Hold' }],
  },
];

let harness: SlackHarness | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await harness?.close();
  harness = undefined;
});

async function start(tuning: { mcpProgressIntervalMs?: number } = {}): Promise<SlackHarness> {
  harness = await startSlackHarness({
    redisUrl: testRedisUrl(),
    model: scriptedModel(() => ({ text: 'unused' })),
    env: { API_TOKENS: `claude-code:${TOKEN}`, MCP_DEFAULT_CHANNEL: 'C0OPS' },
    // Only the resolution's announcement can return a waiting call within the test.
    tuning: { askPollIntervalMs: 600_000, ...tuning },
  });
  return harness;
}

async function connect(h: SlackHarness, token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function clickFirstAsk(h: SlackHarness, label: string): Promise<void> {
  const actionId = label === 'Hold' ? 'hp.option.0.1' : 'hp.option.0.0';
  expect((await h.send(clickMessageRequest(h, 'C0OPS', await firstAskTs(h), 'U0BOB', actionId))).status).toBe(
    200,
  );
}

describe('the MCP server', () => {
  it('lists ask_question (the agent schema plus channel) and get_ask_result', async () => {
    const h = await start();
    const client = await connect(h);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_question', 'get_ask_result']);
    const ask = tools[0];
    expect(Object.keys(ask?.inputSchema.properties ?? {})).toEqual(['questions', 'channel']);
    expect(ask?.description).toContain('recommended');
  });

  it('ask_question waits for the click and returns the same result text the agent gets, with progress carrying the id', async () => {
    const h = await start();
    const client = await connect(h);
    const progress: string[] = [];
    const call = client.callTool({ name: 'ask_question', arguments: { questions: QUESTIONS } }, undefined, {
      onprogress: (event) => progress.push(String(event.message)),
      timeout: 30_000,
    });
    await clickFirstAsk(h, 'Hold');
    const result = await call;
    const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
    expect(result.isError).toBeFalsy();
    expect(parseAskResultJson(text)?.answers).toMatchObject([
      { status: 'answered', selected: ['Hold'], answeredBy: 'U0BOB' },
    ]);
    const id = /ask id: (\S+)\)/.exec(text)?.[1];
    expect(id).toBeDefined();
    expect(progress[0]).toContain(String(id));
  }, 10_000);

  it('ask_question refuses arguments it does not take (as the API does) and asks nothing', async () => {
    const h = await start();
    const client = await connect(h);
    const result = await client.callTool({
      name: 'ask_question',
      arguments: { questions: QUESTIONS, user: 'U0BOB' },
    });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain('Unknown argument "user"');
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('a client that disconnected gets the result with get_ask_result', async () => {
    const h = await start();
    const first = await connect(h);
    const progress: string[] = [];
    const abort = new AbortController();
    const call = first
      .callTool({ name: 'ask_question', arguments: { questions: QUESTIONS } }, undefined, {
        onprogress: (event) => progress.push(String(event.message)),
        signal: abort.signal,
        timeout: 30_000,
      })
      .catch((error: unknown) => error);
    const id = await waitFor(
      async () => /ask (\S+)$/.exec(progress[0] ?? '')?.[1],
      10_000,
      'the ask id in progress',
    );
    abort.abort();
    await call;
    await first.close();
    await clickFirstAsk(h, 'Ship it');
    const second = await connect(h);
    const result = await waitFor(
      async () => {
        const r = await second.callTool({ name: 'get_ask_result', arguments: { id } });
        const text = (r.content as Array<{ text: string }>)[0]?.text ?? '';
        return text.includes('still open') ? undefined : text;
      },
      10_000,
      'the result',
    );
    expect(parseAskResultJson(result)?.answers).toMatchObject([
      { status: 'answered', selected: ['Ship it'] },
    ]);
    // Another token does not see it.
    const other = await connect(h, 'x'.repeat(40)).catch((error: unknown) => error);
    expect(other).toBeInstanceOf(Error);
  });

  it('a waiting call keeps sending progress at its interval, each with the ask id, until the answer', async () => {
    const h = await start({ mcpProgressIntervalMs: 200 });
    const client = await connect(h);
    const progress: Array<{ progress: number; message: string }> = [];
    const call = client.callTool({ name: 'ask_question', arguments: { questions: QUESTIONS } }, undefined, {
      onprogress: (event) => progress.push({ progress: event.progress, message: String(event.message) }),
      timeout: 30_000,
    });
    await waitFor(async () => progress.length >= 4, 10_000, 'four progress notifications');
    await clickFirstAsk(h, 'Hold');
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(progress.map((p) => p.progress).slice(0, 4)).toEqual([1, 2, 3, 4]);
    const id = /ask id: (\S+)\)/.exec(String((result.content as Array<{ text: string }>)[0]?.text))?.[1];
    expect(progress.every((p) => p.message.includes(String(id)))).toBe(true);
  });

  it('GET /mcp opens the SSE stream for a known token (401 without one)', async () => {
    const h = await start();
    const refused = await fetch(`${h.baseUrl}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
    const controller = new AbortController();
    const stream = await fetch(`${h.baseUrl}/mcp`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${TOKEN}` },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
    await stream.body?.cancel().catch(() => undefined);
  });

  it("MCP requests count against the token's rate like the API's: 429 past API_RATE_LIMIT", async () => {
    harness = await startSlackHarness({
      redisUrl: testRedisUrl(),
      model: scriptedModel(() => ({ text: 'unused' })),
      env: { API_TOKENS: `claude-code:${TOKEN}`, API_RATE_LIMIT: '3' },
    });
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) {
      const response = await fetch(`${harness.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/list' }),
      });
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
