/**
 * The tools of the test MCP servers (stdio and HTTP), written with the official SDK's `McpServer`:
 * - `status` (read-only): "payments-api 2.41 is healthy";
 * - `rollback` (destructive): "rolled back <service> to <version>";
 * - `restart` (idempotent, not destructive);
 * (both wait while `held()` is true, so a test can kill the process in the middle of the call)
 * - `slow`: never answers (for call timeouts);
 * - `huge`: 50,000 characters;
 * - `crash`: the stdio server exits in the middle of the call.
 * Every call is counted by `onCall(tool, args)` before it does anything.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Options of {@link deployToolsServer}. */
export interface DeployToolsOptions {
  name?: string;
  /** While this returns true, `rollback` and `restart` wait before they answer (a call in progress). */
  held?: () => boolean;
  /** Also register `status.v2` and `status_v2`, whose model names (`<server>_status_v2`) collide. */
  collide?: boolean;
}

async function whileHeld(held: (() => boolean) | undefined): Promise<void> {
  while (held?.()) await new Promise((resolve) => setTimeout(resolve, 25));
}

export function deployToolsServer(
  onCall: (tool: string, args: Record<string, unknown>) => void,
  options: DeployToolsOptions = {},
): McpServer {
  const server = new McpServer({ name: options.name ?? 'deploy', version: '1.0.0' });
  server.registerTool(
    'status',
    {
      description: 'Health of a service.',
      inputSchema: { service: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ service }) => {
      onCall('status', { service });
      return { content: [{ type: 'text', text: `${service} 2.41 is healthy` }] };
    },
  );
  server.registerTool(
    'rollback',
    {
      description: 'Roll a service back to a version.',
      inputSchema: { service: z.string(), version: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ service, version }) => {
      onCall('rollback', { service, version });
      await whileHeld(options.held);
      return { content: [{ type: 'text', text: `rolled back ${service} to ${version}` }] };
    },
  );
  server.registerTool(
    'restart',
    {
      description: 'Restart a service.',
      inputSchema: { service: z.string() },
      annotations: { idempotentHint: true },
    },
    async ({ service }) => {
      onCall('restart', { service });
      await whileHeld(options.held);
      return { content: [{ type: 'text', text: `restarted ${service}` }] };
    },
  );
  server.registerTool('slow', { description: 'Never answers.' }, async () => {
    onCall('slow', {});
    return new Promise(() => {});
  });
  server.registerTool('huge', { description: 'A very long output.' }, async () => {
    onCall('huge', {});
    return { content: [{ type: 'text', text: 'x'.repeat(50_000) }] };
  });
  server.registerTool('fails', { description: 'Answers with an error result.' }, async () => {
    onCall('fails', {});
    return { content: [{ type: 'text', text: 'deploy API answered 503' }], isError: true };
  });
  server.registerTool('crash', { description: 'Exits mid-call.' }, async () => {
    onCall('crash', {});
    setTimeout(() => process.exit(1), 10);
    return new Promise(() => {});
  });
  if (options.collide)
    for (const name of ['status.v2', 'status_v2'])
      server.registerTool(name, { description: 'Collides.' }, async () => ({
        content: [{ type: 'text', text: name }],
      }));
  return server;
}
