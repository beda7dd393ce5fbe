import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { createEnvSchema, type EnvSchemaOptions } from './env-schema.js';
import type { Config } from './types.js';

/** One missing or wrong variable. */
export interface ConfigProblem {
  /** The environment variable, e.g. `ASK_TIMEOUT`. */
  variable: string;
  /** A full sentence: the variable, what is wrong, and how to fix it. Never contains a secret value. */
  message: string;
}

/**
 * Thrown by {@link loadConfig} when the environment is incomplete or wrong. A {@link ConfigError} with code
 * `config_invalid`; `message` is {@link formatConfigError} of every problem, `problems` lists them
 * (also in `fields.problems`).
 */
export class InvalidConfigError extends ConfigError {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super('config_invalid', formatConfigError(problems), {
      fields: { problems: problems.map((problem) => ({ ...problem })) },
    });
    this.problems = problems;
  }
}

/**
 * The start-up message for configuration problems, one line per problem:
 * ```
 * holdpoint cannot start: 2 configuration problems
 *   - SLACK_BOT_TOKEN is missing: set it to ...
 *   - ASK_TIMEOUT=abc is not a duration: use e.g. 30m, 90s or 2h ...
 * Every variable is described in .env.example and the README ("Configuration").
 * ```
 * Accepts an {@link InvalidConfigError} or its `problems`.
 */
export function formatConfigError(error: InvalidConfigError | readonly ConfigProblem[]): string {
  const problems = error instanceof InvalidConfigError ? error.problems : error;
  const count =
    problems.length === 1 ? '1 configuration problem' : `${problems.length} configuration problems`;
  return [
    `holdpoint cannot start: ${count}`,
    ...problems.map((problem) => `  - ${problem.message}`),
    'Every variable is described in .env.example and the README ("Configuration").',
  ].join('\n');
}

/** Optional hooks of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Reads `SYSTEM_PROMPT_FILE`; default `readFileSync(path, 'utf8')`. */
  readFile?: EnvSchemaOptions['readFile'];
}

/**
 * Validates the environment into a {@link Config}. The only place holdpoint reads `process.env`.
 * Blank values count as unset; names holdpoint does not know are ignored.
 *
 * @param env the environment (default `process.env`); tests pass a plain object.
 * @throws {InvalidConfigError} listing every missing or wrong variable at once, with how to fix each.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: LoadConfigOptions = {},
): Config {
  const schema = createEnvSchema({
    readFile: options.readFile ?? ((path) => readFileSync(path, 'utf8')),
    environment: env,
  });
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({
    variable: String(issue.path[0] ?? '(environment)'),
    message: issue.message,
  }));
  throw new InvalidConfigError(problems);
}
