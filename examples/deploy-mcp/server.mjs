#!/usr/bin/env node
/**
 * A small deploy tool server for holdpoint, written with the official MCP SDK (stdio). It pretends to
 * manage the services of a deploy system, in memory:
 * - `status` (read-only): the version and health of a service; runs without an approval.
 * - `rollback` (destructive): rolls a service back to a version; holdpoint asks for an approval first.
 * Wire it in holdpoint.yaml:
 *   mcpServers:
 *     deploy: { command: node, args: [examples/deploy-mcp/server.mjs] }
 * Try it by hand: `npx @modelcontextprotocol/inspector node examples/deploy-mcp/server.mjs`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const services = new Map([
  ['payments-api', { version: '2.41.0', healthy: false, previous: '2.40.3' }],
  ['checkout-web', { version: '1.18.2', healthy: true, previous: '1.18.1' }],
]);

const server = new McpServer({ name: 'deploy', version: '1.0.0' });

server.registerTool(
  'status',
  {
    description: 'Version and health of a deployed service.',
    inputSchema: { service: z.string().describe('Service name, e.g. payments-api') },
    annotations: { readOnlyHint: true },
  },
  async ({ service }) => {
    const found = services.get(service);
    if (!found) return { content: [{ type: 'text', text: `No service ${service}.` }], isError: true };
    return {
      content: [
        {
          type: 'text',
          text: `${service} ${found.version}: ${found.healthy ? 'healthy' : '3 of 5 pods failing health checks'}; previous release ${found.previous}.`,
        },
      ],
    };
  },
);

server.registerTool(
  'rollback',
  {
    description: 'Roll a service back to an earlier version. Changes production.',
    inputSchema: {
      service: z.string().describe('Service name'),
      version: z.string().describe('The version to go back to'),
    },
    annotations: { destructiveHint: true },
  },
  async ({ service, version }) => {
    const found = services.get(service);
    if (!found) return { content: [{ type: 'text', text: `No service ${service}.` }], isError: true };
    services.set(service, { version, healthy: true, previous: found.version });
    return {
      content: [
        {
          type: 'text',
          text: `Rolled ${service} back from ${found.version} to ${version}; all pods healthy.`,
        },
      ],
    };
  },
);

await server.connect(new StdioServerTransport());
