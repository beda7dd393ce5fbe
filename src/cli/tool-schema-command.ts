import { parseArgs } from 'node:util';
import { askToolDefinitionFor } from '../ask/ask-schema.js';
import { TIMEOUT_POLICIES, type TimeoutPolicy } from '../ask/types.js';
import { CONFIG_VARIABLES } from '../config/config-variables.js';
import type { CliCommand } from './commands.js';

const USAGE = 'holdpoint tool-schema [--policy recommended-or-first|recommended-only|no-answer]';

/** `ASK_TIMEOUT_POLICY`'s default, from the one list of variables. */
const DEFAULT_POLICY =
  CONFIG_VARIABLES.find((variable) => variable.name === 'ASK_TIMEOUT_POLICY')?.default ??
  'recommended-or-first';

function policyOf(text: string): TimeoutPolicy | undefined {
  const wanted = text.trim().toLowerCase();
  return TIMEOUT_POLICIES.find((policy) => policy === wanted);
}

/**
 * `holdpoint tool-schema [--policy P]`: prints the model-facing tool definition `{name, description,
 * inputSchema}` as JSON, with the description the model gets under the timeout policy in force: `--policy`,
 * else `ASK_TIMEOUT_POLICY` (read as `loadConfig` reads it: blank is unset, case does not matter), else the
 * default. An unknown policy is one line on stderr and exit 2.
 * @param env where `ASK_TIMEOUT_POLICY` comes from (the process environment by default)
 */
export function toolSchemaCommand(
  env: Readonly<Record<string, string | undefined>> = process.env,
): CliCommand {
  return {
    summary: 'Print the ask_question tool definition {name, description, inputSchema} as JSON.',
    usage: `${USAGE}
    --policy P    the timeout policy the description tells the model about (default: ASK_TIMEOUT_POLICY, else ${DEFAULT_POLICY})`,
    async run(argv, io) {
      let values: { policy?: string };
      let positionals: string[];
      try {
        ({ values, positionals } = parseArgs({
          args: [...argv],
          options: { policy: { type: 'string' } },
          allowPositionals: true,
          strict: true,
        }));
      } catch (error) {
        const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        io.stderr(`holdpoint tool-schema: ${message}\nUsage: ${USAGE}\n`);
        return 2;
      }
      if (positionals.length > 0) {
        io.stderr(`holdpoint tool-schema: takes no arguments but --policy\nUsage: ${USAGE}\n`);
        return 2;
      }
      const fromEnv = env.ASK_TIMEOUT_POLICY?.trim() ? env.ASK_TIMEOUT_POLICY : undefined;
      const [source, text] =
        values.policy !== undefined
          ? ['--policy', values.policy]
          : fromEnv !== undefined
            ? ['ASK_TIMEOUT_POLICY', fromEnv]
            : ['default', DEFAULT_POLICY];
      const policy = policyOf(text);
      if (policy === undefined) {
        io.stderr(
          `holdpoint tool-schema: ${source}=${JSON.stringify(text.trim())} is not a timeout policy: use ${TIMEOUT_POLICIES.join(', ')}\n`,
        );
        return 2;
      }
      io.stdout(`${JSON.stringify(askToolDefinitionFor(policy), null, 2)}\n`);
      return 0;
    },
  };
}
