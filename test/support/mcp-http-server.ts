/**
 * A Streamable HTTP MCP server for tests, in this process (stateless, the SDK's transport), with the tools
 * of `mcp-deploy-tools.ts`, counting calls; requests without `Authorization: Bearer <token>` get 401.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { deployToolsServer } from './mcp-deploy-tools.js';

export interface TestMcpHttpServer {
  url: string;
  /** Calls per tool. */
  calls: Map<string, number>;
  /** Every call with its arguments, in arrival order. */
  log: Array<{ tool: string; args: Record<string, unknown> }>;
  /** Requests refused for a missing or wrong token. */
  refused: number;
  close(): Promise<void>;
}

/** Starts it on `port` (default: a free one). */
export async function startMcpHttpServer(token: string, port = 0): Promise<TestMcpHttpServer> {
  const calls = new Map<string, number>();
  const log: Array<{ tool: string; args: Record<string, unknown> }> = [];
  const state = { refused: 0 };
  const http: Server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      state.refused++;
      res.writeHead(401).end();
      return;
    }
    const server = deployToolsServer((tool, args) => {
      calls.set(tool, (calls.get(tool) ?? 0) + 1);
      log.push({ tool, args });
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    calls,
    log,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
