export { type ParseAnswerersResult, parseAnswerers } from './answerers.js';
export {
  CONFIG_GROUPS,
  CONFIG_VARIABLES,
  type ConfigGroup,
  type ConfigVariable,
  type ConfigVariableName,
  type RawEnv,
} from './config-variables.js';
export { DEFAULT_SYSTEM_PROMPT } from './default-system-prompt.js';
export { formatDuration, parseDuration } from './durations.js';
export { renderConfigMarkdown, renderEnvExample } from './env-example.js';
export {
  ASK_TIMEOUT_BOUNDS,
  createEnvSchema,
  type EnvSchemaOptions,
  normalizeSlackApiUrl,
  SHUTDOWN_TIMEOUT_BOUNDS,
} from './env-schema.js';
export {
  type ConfigProblem,
  formatConfigError,
  InvalidConfigError,
  type LoadConfigOptions,
  loadConfig,
} from './load-config.js';
export { redactUrl } from './redact-url.js';
export {
  missingBotScopes,
  REQUIRED_BOT_EVENTS,
  REQUIRED_BOT_SCOPES,
  SLACK_BOT_SCOPES,
  type SlackScope,
} from './slack-scopes.js';
export {
  type AskConfig,
  type Config,
  LOG_LEVELS,
  type LogLevel,
  type ModelConfig,
  ROLES,
  type Role,
  type SlackConfig,
  type SlackOAuthConfig,
  THREAD_FOLLOW_MODES,
  type ThreadFollow,
} from './types.js';
