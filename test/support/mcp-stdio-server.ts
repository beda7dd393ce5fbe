/**
 * A stdio MCP server for tests (`node --import tsx test/support/mcp-stdio-server.ts`), with the tools of
 * `mcp-deploy-tools.ts`. Each call appends `<tool>\n` to the file `MCP_CALLS_FILE` (when set) before it
 * does anything, so a test counts calls across the server's restarts; while the file `MCP_HOLD_FILE`
 * exists, `rollback` and `restart` wait. `MCP_COLLIDE=1` adds two tools whose model names collide; with
 * `MCP_CALLS_WITH_SERVICE=1` each line is `<tool> <service argument>`. `MCP_STARTS_FILE` gets a line per start.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deployToolsServer } from './mcp-deploy-tools.js';

const calls = process.env.MCP_CALLS_FILE;
const starts = process.env.MCP_STARTS_FILE;
if (starts) appendFileSync(starts, `${process.pid}\n`);
const hold = process.env.MCP_HOLD_FILE;
const server = deployToolsServer(
  (tool, args) => {
    const service = process.env.MCP_CALLS_WITH_SERVICE === '1' ? ` ${String(args.service ?? '')}` : '';
    if (calls) appendFileSync(calls, `${tool}${service}\n`);
  },
  { held: () => (hold ? existsSync(hold) : false), collide: process.env.MCP_COLLIDE === '1' },
);
await server.connect(new StdioServerTransport());
