import { CONFIG_VARIABLES } from '../config/config-variables.js';
import { InvalidConfigError, loadConfig } from '../config/load-config.js';
import { redactUrl } from '../config/redact-url.js';
import type { Config } from '../config/types.js';
import type { DoctorCheck } from './doctor-check.js';

/** Outcome of {@link checkConfig}: the check line, and the configuration when it is valid. */
export interface ConfigCheckResult {
  check: DoctorCheck;
  config: Config | null;
  /** Names of the variables with a problem (empty when valid; every name when the loading itself failed). */
  invalid: readonly string[];
}

/**
 * Loads the configuration from an environment (with {@link loadConfig}): valid -> a one-line summary
 * (Slack mode, model, Redis URL with its password masked, role); invalid -> every problem with its fix.
 */
export function checkConfig(env: Readonly<Record<string, string | undefined>>): ConfigCheckResult {
  try {
    const config = loadConfig(env);
    return {
      config,
      invalid: [],
      check: {
        name: 'Configuration',
        ok: true,
        detail: `valid (Slack ${config.slack.mode} mode, MODEL ${config.model.provider}:${config.model.modelId}, REDIS_URL ${redactUrl(config.redis.url)}, ROLE ${config.role})`,
      },
    };
  } catch (error) {
    if (error instanceof InvalidConfigError) {
      const count = error.problems.length;
      return {
        config: null,
        invalid: error.problems.map((problem) => problem.variable),
        check: {
          name: 'Configuration',
          ok: false,
          detail: `${count} problem${count === 1 ? '' : 's'}: ${error.problems.map((problem) => problem.variable).join(', ')}`,
          fix: [
            ...error.problems.map((problem) => `- ${problem.message}`),
            'Every variable is described in .env.example and the README ("Configuration").',
          ].join('\n'),
        },
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      config: null,
      invalid: CONFIG_VARIABLES.map((variable) => variable.name),
      check: {
        name: 'Configuration',
        ok: false,
        detail: `could not be loaded: ${message.replace(/\s+/g, ' ')}`,
        fix: 'Check the environment against .env.example.',
      },
    };
  }
}
