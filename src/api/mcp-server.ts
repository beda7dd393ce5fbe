import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { askToolDefinitionFor } from '../ask/ask-schema.js';
import { formatAskResult } from '../ask/format-ask-result.js';
import type { QuestionResolution } from '../ask/types.js';
import type { AskRecord } from '../asks/types.js';
import {
  type AskApiDeps,
  DEFAULT_RATE_PER_MINUTE,
  HttpProblem,
  openProgramAsk,
  owned,
  POLL_INTERVAL_MS,
} from './ask-api.js';
import { watchAsk } from './ask-changes.js';
import { authenticate } from './bearer-auth.js';

/** How often a waiting `ask_question` call tells the client it is still waiting, in ms (MCP progress). */
export const MCP_PROGRESS_INTERVAL_MS = 15_000;

/** What the MCP server needs: the ask API's dependencies, and the channel used when a call names none. */
export interface McpServerDeps extends AskApiDeps {
  /** `MCP_DEFAULT_CHANNEL`, or null: then every call must give `channel`. */
  defaultChannel: string | null;
  /** The ask's timeout policy, for the tool description (the same text the agent's model gets). */
  policy: Parameters<typeof askToolDefinitionFor>[0];
  /** How often progress is sent while waiting, in ms (default {@link MCP_PROGRESS_INTERVAL_MS}). */
  progressIntervalMs?: number;
}

type Notify = (notification: ServerNotification) => Promise<void>;

/** The text a resolved ask gives its caller: the very text the agent's tool result carries, and the ask id. */
function resultText(ask: AskRecord): string {
  const resolutions = ask.resolutions.filter((r): r is QuestionResolution => r !== null);
  return `${formatAskResult(ask.questions, resolutions, { timeoutMs: ask.timeoutMs })}\n(ask id: ${ask.askId})`;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The MCP server of the ask API (`POST /mcp`, Streamable HTTP through the official SDK, stateless: each
 * request brings its bearer token). Tools:
 * - `ask_question`: the agent's own tool (the same schema and description, plus an optional `channel`):
 *   posts the ask in Slack and returns once it resolves, with the same result text the agent gets. While it
 *   waits it sends a progress notification at once (carrying the ask id) and every 15 s, when the client gave
 *   a progress token. The ask never depends on the connection: it stays, times out and resolves on its own.
 * - `get_ask_result` (`id`): the result of an ask, for a client that lost its connection.
 */
export function createMcpHandler(
  deps: McpServerDeps,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const tool = askToolDefinitionFor(deps.policy);
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const askTool = {
    name: tool.name,
    description: `${tool.description}\n\nThe question is posted in Slack${deps.defaultChannel ? ` (in ${deps.defaultChannel} unless you give "channel")` : ' in "channel"'}; the call returns when people answered or the timeout resolved it.`,
    inputSchema: {
      ...schema,
      properties: {
        ...schema.properties,
        channel: { type: 'string', description: 'Slack channel id (C…) to ask in.' },
      },
    },
  };
  const resultTool = {
    name: 'get_ask_result',
    description:
      'The result of an ask_question call by its ask id (from its progress notifications or result), e.g. after a lost connection. Says so when it is still open.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
  };

  const serverFor = (client: string) => {
    const server = new Server({ name: 'holdpoint', version: '0.1.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [askTool, resultTool] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      try {
        if (request.params.name === resultTool.name) {
          const ask = await owned(deps, client, String(args.id ?? ''));
          if (ask.status === 'open')
            return {
              content: [{ type: 'text', text: `Ask ${ask.askId} is still open; nobody has answered yet.` }],
            };
          return { content: [{ type: 'text', text: resultText(ask) }] };
        }
        if (request.params.name !== askTool.name) return errorResult(`Unknown tool ${request.params.name}.`);
        const { channel, ...questions } = args;
        const unknown = Object.keys(args).filter((key) => key !== 'channel' && key !== 'questions');
        if (unknown.length > 0)
          return errorResult(
            `Unknown argument ${unknown.map((key) => `"${key}"`).join(', ')}: ask_question takes "questions" and an optional "channel". Nothing was asked.`,
          );
        const target = typeof channel === 'string' ? channel : deps.defaultChannel;
        if (!target)
          return errorResult('Give "channel" (a Slack channel id): this server has no MCP_DEFAULT_CHANNEL.');
        const { ask } = await openProgramAsk(deps, client, {
          channel: target,
          questions: questions.questions ?? questions,
        });
        const token = extra._meta?.progressToken;
        const notify: Notify = (notification) => extra.sendNotification(notification);
        const resolved = await waitForResolution(deps, ask, extra.signal, token, notify);
        return {
          content: [
            { type: 'text', text: resolved ? resultText(resolved) : `Ask ${ask.askId} is still open.` },
          ],
        };
      } catch (error) {
        if (error instanceof HttpProblem) return errorResult(error.problem.message);
        throw error;
      }
    });
    return server;
  };

  return async (req, res) => {
    const client = authenticate(req.headers.authorization, deps.tokens);
    if (!client) {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(
        JSON.stringify({
          error: { code: 'unauthorized', message: 'missing or unknown bearer token', path: '' },
        }),
      );
      return;
    }
    const perMinute = deps.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE;
    if ((await deps.marks.countRequest(client, 60_000, deps.now())) > perMinute) {
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' });
      res.end(
        JSON.stringify({
          error: { code: 'rate_limited', message: `more than ${perMinute} requests in a minute`, path: '' },
        }),
      );
      return;
    }
    const server = serverFor(client);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}

/**
 * Waits until `ask` resolves, sending progress (the ask id at once, then every interval) when the client
 * asked for it. Returns the resolved ask, or null when the client went away first (the ask goes on).
 */
async function waitForResolution(
  deps: McpServerDeps,
  ask: AskRecord,
  signal: AbortSignal,
  token: string | number | undefined,
  notify: Notify,
): Promise<AskRecord | null> {
  const interval = deps.progressIntervalMs ?? MCP_PROGRESS_INTERVAL_MS;
  let progress = 0;
  const report = async () => {
    if (token === undefined) return;
    progress++;
    await notify({
      method: 'notifications/progress',
      params: { progressToken: token, progress, message: `Waiting for people in Slack: ask ${ask.askId}` },
    }).catch(() => undefined);
  };
  await report();
  let nextReport = deps.now() + interval;
  const watch = watchAsk(deps.changes, ask.askId);
  const stop = () => watch.stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    let current = (await deps.store.getAsk(ask.scope, ask.askId)) ?? ask;
    while (current.status === 'open') {
      if (signal.aborted) return null;
      await watch.next(
        Math.min(deps.pollIntervalMs ?? POLL_INTERVAL_MS, Math.max(0, nextReport - deps.now())),
      );
      if (signal.aborted) return null;
      current = (await deps.store.getAsk(ask.scope, ask.askId)) ?? current;
      if (deps.now() >= nextReport) {
        await report();
        nextReport = deps.now() + interval;
      }
    }
    return current;
  } finally {
    signal.removeEventListener('abort', stop);
    watch.stop();
  }
}
