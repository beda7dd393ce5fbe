import type { ConfigFile } from '../config/config-file.js';
import { McpToolServers, redactSecrets } from '../mcp/mcp-tool-servers.js';
import type { DoctorCheck } from './doctor-check.js';

/** Options of {@link checkMcpServers}. */
export interface McpDoctorOptions {
  /** How long connecting to one server may take, in ms. Default 10 000. */
  timeoutMs?: number;
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * Connects to every MCP tool server of the config file once, as the worker does (start, `initialize`,
 * `tools/list`), and reports one `MCP server <name>` line each: its tool count and which of them need an
 * approval, or why it could not be reached. A server that is down does not stop holdpoint (its tools
 * are left out until it is back), so it is a warning, not a failure.
 */
export async function checkMcpServers(
  file: ConfigFile,
  options: McpDoctorOptions = {},
): Promise<DoctorCheck[]> {
  if (file.mcpServers.length === 0) return [];
  const servers = new McpToolServers({
    servers: file.mcpServers,
    approvals: file.approvals,
    log: quiet,
    connectTimeoutMs: options.timeoutMs ?? 10_000,
    reservedNames: ['ask_question'],
  });
  try {
    await servers.start();
    const collisions: DoctorCheck[] =
      servers.collisions.length > 0
        ? [
            {
              name: 'MCP tool names',
              ok: false,
              detail: `tools whose names collide for the model: ${servers.collisions.join('; ')}`,
              fix: 'holdpoint refuses to start with these: rename one of each pair in its server.',
            },
          ]
        : [];
    const lines = servers.status().map((status): DoctorCheck => {
      const where = file.mcpServers.find((server) => server.name === status.name);
      const target =
        where?.transport === 'http'
          ? redactSecrets(where.url, where)
          : where?.transport === 'stdio'
            ? where.command
            : '';
      if (status.state !== 'connected')
        return {
          name: `MCP server ${status.name}`,
          ok: true,
          warning: true,
          detail: `${status.transport} ${target}: not reachable (${status.error ?? 'no answer'}); its tools are left out until it is back`,
          fix:
            where?.transport === 'http'
              ? 'Check the url and headers in the config file, and that the server is up.'
              : 'Check command, args and cwd in the config file: run the command by hand and see that it starts.',
        };
      const gated = [...servers.tools.values()]
        .filter((tool) => tool.source?.server === status.name && tool.approval)
        .map((tool) => `${tool.source?.server}.${tool.source?.tool}`)
        .sort();
      return {
        name: `MCP server ${status.name}`,
        ok: true,
        detail: `${status.transport}, ${status.tools} tool${status.tools === 1 ? '' : 's'}${gated.length > 0 ? `; need approval: ${gated.join(', ')}` : ''}`,
      };
    });
    // Every glob of the file: the top-level rules, `defaults:` and each channel's tools and rules.
    const settings = [['defaults', file.defaults] as const, ...Object.entries(file.channels)];
    const unmatched = [
      ...servers.unmatchedGlobs(),
      ...settings.flatMap(([where, channel]) =>
        servers
          .unmatchedGlobs([...(channel.tools ?? []), ...channel.approvals.flatMap((rule) => rule.tools)])
          .map((glob) => `${glob} (${where === 'defaults' ? 'defaults' : `channels.${where}`})`),
      ),
    ];
    const rules: DoctorCheck[] =
      unmatched.length > 0
        ? [
            {
              name: 'Approval rules',
              ok: true,
              warning: true,
              detail: `globs that match no tool of the servers reached: ${unmatched.join(', ')}`,
              fix: 'Globs match <server>.<tool> (e.g. deploy.rollback); check for a typo, or that the server is up.',
            },
          ]
        : [];
    return [...lines, ...collisions, ...rules];
  } finally {
    await servers.close();
  }
}
