// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text that holds ${VAR}
/**
 * Config-file text for tests: the `mcpServers` entry of the stdio test server (`mcp-stdio-server.ts`), run
 * with this node and tsx from the repository root.
 */
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The stdio MCP server of the tests. */
export const STDIO_SERVER = fileURLToPath(new URL('./mcp-stdio-server.ts', import.meta.url));

/**
 * The YAML lines of one stdio test server under `mcpServers:` (indented two spaces), named `name`.
 * @param env its `env` map, as YAML flow text (e.g. `{ MCP_CALLS_FILE: "${MCP_CALLS_FILE}" }`)
 * @param extra more lines of the entry (e.g. `callTimeout: 2s`), without indentation
 */
export function stdioServerYaml(name: string, env = '{}', extra: string[] = []): string {
  return [
    `  ${name}:`,
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [--import, tsx, ${JSON.stringify(STDIO_SERVER)}]`,
    `    cwd: ${JSON.stringify(REPO_ROOT)}`,
    `    env: ${env}`,
    ...extra.map((line) => `    ${line}`),
  ].join('\n');
}
