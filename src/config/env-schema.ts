import { z } from 'zod';
import { TIMEOUT_POLICIES, type TimeoutPolicy } from '../ask/types.js';
import type { AnswererPolicy, AskFollowUp, Escalation } from '../asks/types.js';
import { MODEL_PROVIDERS, type ModelProvider } from '../model/parse-model-string.js';
import { parseAnswerers } from './answerers.js';
import { API_TOKEN_MIN_LENGTH, type ApiToken, parseApiTokens } from './api-tokens.js';
import { type ChannelSettings, type ConfigFile, EMPTY_CONFIG_FILE, parseConfigFile } from './config-file.js';
import { CONFIG_VARIABLES, type ConfigVariableName, type RawEnv } from './config-variables.js';
import { DEFAULT_SYSTEM_PROMPT } from './default-system-prompt.js';
import { formatDuration, parseDuration } from './durations.js';
import {
  type Parsed,
  parseExtendChoices,
  parseOptionalDuration,
  parseReminders,
  parseRequiredDuration,
} from './follow-up.js';
import { redactUrl } from './redact-url.js';
import { decodeTokenKey, TOKEN_KEY_BYTES } from './token-key.js';
import {
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

/** Bounds of `ASK_TIMEOUT`, in ms: 1 s to 7 days. */
export const ASK_TIMEOUT_BOUNDS = { minMs: 1000, maxMs: 7 * 86_400_000 } as const;
/** Bounds of `SHUTDOWN_TIMEOUT`, in ms: 1 s to 10 min. */
export const SHUTDOWN_TIMEOUT_BOUNDS = { minMs: 1000, maxMs: 600_000 } as const;

/** What the schema needs from outside: reading `SYSTEM_PROMPT_FILE` and `HOLDPOINT_CONFIG`. */
export interface EnvSchemaOptions {
  /** Reads a UTF-8 file; throws when it cannot (the error's `code`, e.g. `ENOENT`, is shown). */
  readFile: (path: string) => string;
  /** The whole environment, which `${VAR}` in the config file reads (default: holdpoint's own variables only). */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** An empty or whitespace-only value counts as unset (a blank line in `.env`). */
const envValue = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const rawShape = Object.fromEntries(CONFIG_VARIABLES.map((variable) => [variable.name, envValue])) as {
  [Name in ConfigVariableName]: typeof envValue;
};

const SECRET_NAMES = new Set<string>(
  CONFIG_VARIABLES.filter((variable) => variable.secret).map((variable) => variable.name),
);
const URL_NAMES = new Set<string>(['REDIS_URL', 'SLACK_API_URL', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL']);

/**
 * How a set value appears in a problem message: secrets by name only, URLs with credentials masked,
 * anything else as `NAME=value` (cut to 60 characters).
 */
function shown(name: ConfigVariableName, value: string): string {
  if (SECRET_NAMES.has(name)) return name;
  if (URL_NAMES.has(name)) return `${name}=${redactUrl(value)}`;
  const cut = [...value].length > 60 ? `${[...value].slice(0, 57).join('')}...` : value;
  return `${name}=${cut}`;
}

function defaultOf(name: ConfigVariableName): string | undefined {
  const variable = CONFIG_VARIABLES.find((entry) => entry.name === name);
  return variable?.default ?? undefined;
}

/**
 * One variable as the configuration reads it: trimmed, an empty value counting as unset, then its default
 * (`''` when it has none). For a reader of one variable without a valid configuration (`doctor` checks
 * Redis even when the Slack settings are wrong).
 */
export function configValueOf(
  env: Readonly<Record<string, string | undefined>>,
  name: ConfigVariableName,
): string {
  return envValue.parse(env[name]) ?? defaultOf(name) ?? '';
}

function parseHttpUrl(value: string, protocols: readonly string[]): URL | null {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Normalises a Slack Web API base URL so that it ends with `/api/`: `http://h:4000` -> `http://h:4000/api/`,
 * `http://h/api` -> `http://h/api/`, `http://proxy/slack/` -> `http://proxy/slack/api/`. Query and hash are dropped.
 */
export function normalizeSlackApiUrl(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '');
  const withApi = path.endsWith('/api') ? path : `${path}/api`;
  return `${url.origin}${withApi}/`;
}

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return error instanceof Error ? error.message : 'unreadable';
}

/**
 * Builds the one zod schema over the environment: an object of the {@link CONFIG_VARIABLES} names
 * (unknown names ignored, blank values = unset) transformed into a {@link Config}. Every problem becomes
 * one zod issue whose `path` is `[variable name]` and whose `message` is a full sentence naming the
 * variable, what is wrong and how to fix it, without the value of any secret. All variables are checked
 * on every parse, so one failed parse lists every problem.
 */
export function createEnvSchema(options: EnvSchemaOptions) {
  return z.object(rawShape).transform((raw: RawEnv, context): Config => {
    const problem = (name: ConfigVariableName, message: string): void => {
      context.addIssue({ code: 'custom', path: [name], message, input: undefined });
    };
    const get = (name: ConfigVariableName): string | undefined => raw[name];
    const withDefault = (name: ConfigVariableName): string => raw[name] ?? defaultOf(name) ?? '';

    const parseInteger = (name: ConfigVariableName, min: number, max: number): number => {
      const text = withDefault(name);
      const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isInteger(number) && number >= min && number <= max) return number;
      problem(
        name,
        `${shown(name, text)} is not a whole number from ${min} to ${max}: set e.g. ${name}=${defaultOf(name)}`,
      );
      return Number(defaultOf(name));
    };
    const parseBoundedDuration = (
      name: ConfigVariableName,
      bounds: { minMs: number; maxMs: number },
      range: string,
    ): number => {
      const text = withDefault(name);
      const ms = parseDuration(text);
      if (ms === null) {
        problem(
          name,
          `${shown(name, text)} is not a duration: use e.g. 30m, 90s or 2h (or a plain number of seconds)`,
        );
        return parseDuration(defaultOf(name) ?? '') ?? bounds.minMs;
      }
      if (ms < bounds.minMs || ms > bounds.maxMs) {
        problem(name, `${shown(name, text)} is out of range: use a duration from ${range}`);
      }
      return ms;
    };

    // Slack
    const botToken = get('SLACK_BOT_TOKEN');
    const oauthNames = [
      'SLACK_CLIENT_ID',
      'SLACK_CLIENT_SECRET',
      'SLACK_STATE_SECRET',
      'TOKEN_ENCRYPTION_KEY',
    ] as const satisfies readonly ConfigVariableName[];
    const oauthSet = oauthNames.filter((name) => get(name) !== undefined);
    const wantsOAuth = oauthSet.length > 0;
    if (wantsOAuth && botToken !== undefined) {
      problem(
        'SLACK_BOT_TOKEN',
        `SLACK_BOT_TOKEN is set together with OAuth install mode (${oauthSet.join(', ')}): unset SLACK_BOT_TOKEN to serve many workspaces through installs, or unset ${oauthSet.join(', ')} to serve the one workspace of the token`,
      );
    } else if (botToken === undefined && !wantsOAuth) {
      problem(
        'SLACK_BOT_TOKEN',
        "SLACK_BOT_TOKEN is missing: set it to the Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page, or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and TOKEN_ENCRYPTION_KEY for OAuth install mode",
      );
    } else if (botToken !== undefined && !botToken.startsWith('xoxb-')) {
      problem(
        'SLACK_BOT_TOKEN',
        "SLACK_BOT_TOKEN does not start with xoxb-: use the Bot User OAuth Token from your Slack app's OAuth & Permissions page (not a user token xoxp- or an app token xapp-)",
      );
    }
    let oauth: SlackOAuthConfig | null = null;
    if (wantsOAuth && botToken === undefined) {
      for (const name of oauthNames)
        if (get(name) === undefined)
          problem(
            name,
            `${name} is missing: OAuth install mode needs SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and TOKEN_ENCRYPTION_KEY (set: ${oauthSet.join(', ')})`,
          );
      if (get('SLACK_APP_TOKEN') !== undefined)
        problem(
          'SLACK_APP_TOKEN',
          'SLACK_APP_TOKEN is set together with OAuth install mode: installs need HTTP mode (Slack redirects the browser to /slack/oauth_redirect and posts events to /slack/events); unset SLACK_APP_TOKEN and set SLACK_SIGNING_SECRET',
        );
      const stateSecret = get('SLACK_STATE_SECRET');
      if (stateSecret !== undefined && stateSecret.length < 32)
        problem(
          'SLACK_STATE_SECRET',
          'SLACK_STATE_SECRET is shorter than 32 characters: use a random secret, e.g. openssl rand -hex 32',
        );
      const decodeKey = (name: 'TOKEN_ENCRYPTION_KEY' | 'TOKEN_ENCRYPTION_KEY_PREVIOUS'): Buffer | null => {
        const text = get(name);
        if (text === undefined) return null;
        const key = decodeTokenKey(text);
        if (key === null)
          problem(
            name,
            `${name} is not a 32-byte key: use 64 hex digits or base64 of 32 bytes, e.g. openssl rand -base64 32`,
          );
        return key;
      };
      const encryptionKey = decodeKey('TOKEN_ENCRYPTION_KEY');
      const previousEncryptionKey = decodeKey('TOKEN_ENCRYPTION_KEY_PREVIOUS');
      if (encryptionKey && previousEncryptionKey?.equals(encryptionKey))
        problem(
          'TOKEN_ENCRYPTION_KEY_PREVIOUS',
          'TOKEN_ENCRYPTION_KEY_PREVIOUS equals TOKEN_ENCRYPTION_KEY: during a rotation it holds the old key; unset it when there is none',
        );
      const allowedText = get('SLACK_ALLOWED_WORKSPACES');
      const allowed = (allowedText ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id.length > 0);
      const badIds = allowed.filter((id) => !/^[TE][A-Z0-9]{2,}$/.test(id));
      if (allowedText === undefined || allowed.length === 0)
        problem(
          'SLACK_ALLOWED_WORKSPACES',
          'SLACK_ALLOWED_WORKSPACES is missing: OAuth install mode needs the team ids (T…) or Enterprise Grid ids (E…) that may install holdpoint, comma separated (any workspace can reach /slack/install once public distribution is on)',
        );
      else if (badIds.length > 0)
        problem(
          'SLACK_ALLOWED_WORKSPACES',
          `SLACK_ALLOWED_WORKSPACES holds ${badIds.map((id) => JSON.stringify(id.slice(0, 20))).join(', ')}: use team ids (T…) and enterprise ids (E…), comma separated`,
        );
      oauth = {
        allowedWorkspaces: new Set(allowed),
        clientId: get('SLACK_CLIENT_ID') ?? '',
        clientSecret: get('SLACK_CLIENT_SECRET') ?? '',
        stateSecret: stateSecret ?? '',
        encryptionKey: encryptionKey ?? Buffer.alloc(TOKEN_KEY_BYTES),
        previousEncryptionKey,
      };
    } else if (get('TOKEN_ENCRYPTION_KEY_PREVIOUS') !== undefined && !wantsOAuth) {
      problem(
        'TOKEN_ENCRYPTION_KEY_PREVIOUS',
        'TOKEN_ENCRYPTION_KEY_PREVIOUS is set without OAuth install mode: it is the old key of a TOKEN_ENCRYPTION_KEY rotation; unset it',
      );
    }
    const appToken = get('SLACK_APP_TOKEN');
    if (appToken !== undefined && !appToken.startsWith('xapp-')) {
      problem(
        'SLACK_APP_TOKEN',
        "SLACK_APP_TOKEN does not start with xapp-: use an app-level token with the connections:write scope from your Slack app's Basic Information page, or unset it for HTTP mode",
      );
    }
    const signingSecret = get('SLACK_SIGNING_SECRET');
    if (appToken === undefined && signingSecret === undefined) {
      problem(
        'SLACK_SIGNING_SECRET',
        "SLACK_SIGNING_SECRET is missing: HTTP mode (SLACK_APP_TOKEN unset) needs the Signing Secret from your Slack app's Basic Information page; or set SLACK_APP_TOKEN (xapp-…) to use Socket Mode",
      );
    }
    let apiUrl: string | null = null;
    const apiUrlText = get('SLACK_API_URL');
    if (apiUrlText !== undefined) {
      const url = parseHttpUrl(apiUrlText, ['http:', 'https:']);
      if (url === null) {
        problem(
          'SLACK_API_URL',
          `${shown('SLACK_API_URL', apiUrlText)} is not an http(s) URL: use e.g. https://slack.com/api/ or unset it`,
        );
      } else {
        apiUrl = normalizeSlackApiUrl(url);
      }
    }
    const slack: SlackConfig =
      appToken !== undefined
        ? {
            mode: 'socket',
            botToken: botToken ?? '',
            oauth,
            apiUrl,
            appToken,
            signingSecret: signingSecret ?? null,
          }
        : {
            mode: 'http',
            botToken: botToken ?? '',
            oauth,
            apiUrl,
            appToken: null,
            signingSecret: signingSecret ?? '',
          };

    const followText = withDefault('THREAD_FOLLOW').toLowerCase();
    let threadFollow: ThreadFollow = 'mention';
    if (isOneOf(THREAD_FOLLOW_MODES, followText)) threadFollow = followText;
    else
      problem(
        'THREAD_FOLLOW',
        `${shown('THREAD_FOLLOW', withDefault('THREAD_FOLLOW'))} is not a thread rule: use mention (follow-ups need a mention) or all (every reply in the thread)`,
      );

    // HTTP and Redis
    const port = parseInteger('PORT', 0, 65_535);
    const metricsToken = raw.METRICS_TOKEN ?? null;
    if (metricsToken !== null && metricsToken.length < API_TOKEN_MIN_LENGTH)
      problem(
        'METRICS_TOKEN',
        `METRICS_TOKEN is ${metricsToken.length} characters; use at least ${API_TOKEN_MIN_LENGTH} (e.g. openssl rand -hex 32), or unset it`,
      );
    const redisUrl = withDefault('REDIS_URL');
    const clusterText = withDefault('REDIS_CLUSTER').toLowerCase();
    if (clusterText !== 'on' && clusterText !== 'off')
      problem('REDIS_CLUSTER', `${shown('REDIS_CLUSTER', withDefault('REDIS_CLUSTER'))} is not on or off`);
    const redisCluster = clusterText === 'on';
    if (parseHttpUrl(redisUrl, ['redis:', 'rediss:']) === null) {
      problem(
        'REDIS_URL',
        `${shown('REDIS_URL', redisUrl)} is not a Redis URL: use redis://host:6379 (or rediss:// for TLS)`,
      );
    }

    // Model
    const modelText = withDefault('MODEL');
    const separator = modelText.indexOf(':');
    const providerText = separator < 0 ? '' : modelText.slice(0, separator).trim();
    const modelId = separator < 0 ? '' : modelText.slice(separator + 1).trim();
    let provider: ModelProvider = 'anthropic';
    if (!isOneOf(MODEL_PROVIDERS, providerText) || modelId === '') {
      problem(
        'MODEL',
        `${shown('MODEL', modelText)} is not <provider>:<model id>: use anthropic:<model id>, openai:<model id> or openai-compatible:<model id>, e.g. anthropic:claude-sonnet-4-5`,
      );
    } else {
      provider = providerText;
    }
    const baseUrlOf = (name: 'ANTHROPIC_BASE_URL' | 'OPENAI_BASE_URL'): string | undefined => {
      const text = get(name);
      if (text === undefined) return undefined;
      if (parseHttpUrl(text, ['http:', 'https:']) === null) {
        problem(
          name,
          `${shown(name, text)} is not an http(s) URL: use e.g. http://localhost:11434/v1 or unset it`,
        );
        return undefined;
      }
      return text.replace(/\/+$/, '');
    };
    const anthropicKey = get('ANTHROPIC_API_KEY');
    const anthropicBaseUrl = baseUrlOf('ANTHROPIC_BASE_URL');
    const openaiKey = get('OPENAI_API_KEY');
    const openaiBaseUrl = baseUrlOf('OPENAI_BASE_URL');
    let model: ModelConfig;
    if (provider === 'anthropic') {
      if (anthropicKey === undefined) {
        problem(
          'ANTHROPIC_API_KEY',
          'ANTHROPIC_API_KEY is missing: MODEL uses anthropic, so set it to an API key from console.anthropic.com, or choose another MODEL',
        );
      }
      model = {
        provider,
        modelId,
        apiKey: anthropicKey ?? '',
        ...(anthropicBaseUrl ? { baseURL: anthropicBaseUrl } : {}),
      };
    } else if (provider === 'openai') {
      if (openaiKey === undefined) {
        problem(
          'OPENAI_API_KEY',
          'OPENAI_API_KEY is missing: MODEL uses openai, so set it to an API key from platform.openai.com, or choose another MODEL',
        );
      }
      model = {
        provider,
        modelId,
        apiKey: openaiKey ?? '',
        ...(openaiBaseUrl ? { baseURL: openaiBaseUrl } : {}),
      };
    } else {
      if (get('OPENAI_BASE_URL') === undefined) {
        problem(
          'OPENAI_BASE_URL',
          'OPENAI_BASE_URL is missing: MODEL uses openai-compatible, so set it to the server base URL including /v1, e.g. http://localhost:11434/v1 for Ollama',
        );
      }
      model = {
        provider,
        modelId,
        ...(openaiKey ? { apiKey: openaiKey } : {}),
        baseURL: openaiBaseUrl ?? '',
      };
    }

    // System prompt
    const promptText = raw.SYSTEM_PROMPT;
    const promptFile = get('SYSTEM_PROMPT_FILE');
    let systemPrompt = DEFAULT_SYSTEM_PROMPT;
    let systemPromptSource: Config['systemPromptSource'] = 'default';
    if (promptText !== undefined && promptFile !== undefined) {
      problem(
        'SYSTEM_PROMPT_FILE',
        'SYSTEM_PROMPT and SYSTEM_PROMPT_FILE are both set: keep only one of them',
      );
    } else if (promptText !== undefined) {
      systemPrompt = promptText;
      systemPromptSource = 'env';
    } else if (promptFile !== undefined) {
      try {
        const text = options.readFile(promptFile).trim();
        if (text === '') {
          problem(
            'SYSTEM_PROMPT_FILE',
            `${shown('SYSTEM_PROMPT_FILE', promptFile)} is empty: write the prompt into it or unset it`,
          );
        } else {
          systemPrompt = text;
          systemPromptSource = 'file';
        }
      } catch (error) {
        problem(
          'SYSTEM_PROMPT_FILE',
          `${shown('SYSTEM_PROMPT_FILE', promptFile)} cannot be read (${errorCode(error)}): give the path of a readable UTF-8 file, or unset it`,
        );
      }
    }

    // Asks
    const timeoutMs = parseBoundedDuration('ASK_TIMEOUT', ASK_TIMEOUT_BOUNDS, '1s to 7d');
    const policyText = withDefault('ASK_TIMEOUT_POLICY').toLowerCase();
    let timeoutPolicy: TimeoutPolicy = 'recommended-or-first';
    if (isOneOf(TIMEOUT_POLICIES, policyText)) timeoutPolicy = policyText;
    else {
      problem(
        'ASK_TIMEOUT_POLICY',
        `${shown('ASK_TIMEOUT_POLICY', withDefault('ASK_TIMEOUT_POLICY'))} is not a timeout policy: use ${TIMEOUT_POLICIES.join(', ')}`,
      );
    }
    const answerersText = withDefault('ASK_ANSWERERS');
    const answerersResult = parseAnswerers(answerersText);
    let answerers: AnswererPolicy = { mode: 'anyone' };
    if (answerersResult.ok) answerers = answerersResult.policy;
    else {
      problem(
        'ASK_ANSWERERS',
        `${shown('ASK_ANSWERERS', answerersText)} is not an answerer policy (${answerersResult.invalid.join(', ')} not understood): use anyone, requester, or a comma list of Slack user ids (U…, W…) and user-group ids (S…)`,
      );
    }

    // Follow-ups: reminders, escalation, snooze, late answers.
    const parseWith = <T>(name: ConfigVariableName, parse: (text: string) => Parsed<T>, fallback: T): T => {
      const text = withDefault(name);
      const result = parse(text);
      if (result.ok) return result.value;
      problem(name, `${shown(name, text)}: ${result.problem}`);
      return fallback;
    };
    const reminders = parseWith('ASK_REMINDERS', parseReminders, []);
    const extendByMs = parseWith('ASK_EXTEND_CHOICES', parseExtendChoices, []);
    // The default (24h) gives way to a longer ASK_TIMEOUT; one set explicitly must not be shorter.
    const maxDeadlineSet = parseWith('ASK_MAX_DEADLINE', parseRequiredDuration, 0);
    const maxDeadlineMs = Math.max(maxDeadlineSet, timeoutMs);
    if (raw.ASK_MAX_DEADLINE !== undefined && maxDeadlineSet > 0 && maxDeadlineSet < timeoutMs)
      problem(
        'ASK_MAX_DEADLINE',
        `${shown('ASK_MAX_DEADLINE', withDefault('ASK_MAX_DEADLINE'))} is shorter than ASK_TIMEOUT: use at least ${formatDuration(timeoutMs)}`,
      );
    const tooLong = extendByMs.filter((ms) => ms > maxDeadlineMs - timeoutMs);
    if (tooLong.length > 0 && maxDeadlineMs > timeoutMs)
      problem(
        'ASK_EXTEND_CHOICES',
        `${shown('ASK_EXTEND_CHOICES', withDefault('ASK_EXTEND_CHOICES'))}: ${tooLong.map(formatDuration).join(', ')} can never be offered: ASK_MAX_DEADLINE (${formatDuration(maxDeadlineMs)} after an ask is shown) leaves at most ${formatDuration(maxDeadlineMs - timeoutMs)} after ASK_TIMEOUT (${formatDuration(timeoutMs)})`,
      );
    const overrideWindowMs = parseWith('ASK_OVERRIDE_WINDOW', parseOptionalDuration, 0);
    let escalation: Escalation | null = null;
    const escalateAfterText = raw.ASK_ESCALATE_AFTER;
    const escalateToText = raw.ASK_ESCALATE_TO;
    if (escalateAfterText !== undefined || escalateToText !== undefined) {
      const afterMs = escalateAfterText === undefined ? null : parseDuration(escalateAfterText);
      const targets = escalateToText === undefined ? null : parseAnswerers(escalateToText);
      if (escalateAfterText === undefined || escalateToText === undefined)
        problem(
          escalateAfterText === undefined ? 'ASK_ESCALATE_AFTER' : 'ASK_ESCALATE_TO',
          'ASK_ESCALATE_AFTER and ASK_ESCALATE_TO go together: set both (e.g. ASK_ESCALATE_AFTER=20m ASK_ESCALATE_TO=U0LEAD,S0ONCALL) or neither',
        );
      else if (afterMs === null || afterMs <= 0)
        problem(
          'ASK_ESCALATE_AFTER',
          `${shown('ASK_ESCALATE_AFTER', escalateAfterText)} is not a duration: use e.g. 20m`,
        );
      else if (targets === null || !targets.ok || targets.policy.mode !== 'list')
        problem(
          'ASK_ESCALATE_TO',
          `${shown('ASK_ESCALATE_TO', escalateToText)} is not a list of Slack user ids (U…, W…) and user-group ids (S…)`,
        );
      else escalation = { afterMs, userIds: targets.policy.userIds, groupIds: targets.policy.groupIds };
    }
    const followUp: AskFollowUp = {
      reminders,
      escalation,
      extendByMs,
      maxDeadlineMs,
      overrideWindowMs,
      quorum: 1,
    };

    const apiTokensText = raw.API_TOKENS;
    let apiTokens: ApiToken[] = [];
    if (apiTokensText !== undefined) {
      const parsed = parseApiTokens(apiTokensText);
      if (parsed.ok) apiTokens = parsed.tokens;
      else problem('API_TOKENS', `API_TOKENS: ${parsed.problems.join('; ')}`);
      if (oauth !== null)
        problem(
          'API_TOKENS',
          "API_TOKENS is set in OAuth install mode: the ask API's requests name no workspace yet, so it serves single-workspace mode (SLACK_BOT_TOKEN) only; unset API_TOKENS",
        );
    }
    const ratePerMinute = parseInteger('API_RATE_LIMIT', 1, 1_000_000);
    const mcpDefaultChannel = raw.MCP_DEFAULT_CHANNEL ?? null;
    if (mcpDefaultChannel !== null && !/^[CG][A-Z0-9]{2,}$/.test(mcpDefaultChannel))
      problem(
        'MCP_DEFAULT_CHANNEL',
        `${shown('MCP_DEFAULT_CHANNEL', mcpDefaultChannel)} is not a channel id: use C… or G…`,
      );
    const webhookSecret = raw.WEBHOOK_SECRET ?? null;
    if (webhookSecret !== null && webhookSecret.length < API_TOKEN_MIN_LENGTH)
      problem(
        'WEBHOOK_SECRET',
        `WEBHOOK_SECRET is ${webhookSecret.length} characters; use at least ${API_TOKEN_MIN_LENGTH} (e.g. openssl rand -hex 32)`,
      );

    // The config file
    let file: ConfigFile = EMPTY_CONFIG_FILE;
    const filePath = get('HOLDPOINT_CONFIG');
    if (filePath !== undefined) {
      let text: string | null = null;
      try {
        text = options.readFile(filePath);
      } catch (error) {
        problem(
          'HOLDPOINT_CONFIG',
          `${shown('HOLDPOINT_CONFIG', filePath)} cannot be read (${errorCode(error)}): give the path of the YAML config file (see holdpoint.example.yaml), or unset it`,
        );
      }
      if (text !== null) {
        const parsed = parseConfigFile(text, options.environment ?? raw, filePath);
        if (parsed.ok) {
          file = parsed.file;
          // A channel's systemPromptFile is read now, once, like SYSTEM_PROMPT_FILE.
          const readPrompt = (settings: ChannelSettings, where: string): ChannelSettings => {
            if (settings.systemPromptFile === undefined) return settings;
            try {
              const prompt = options.readFile(settings.systemPromptFile).trim();
              if (prompt === '') {
                problem(
                  'HOLDPOINT_CONFIG',
                  `${filePath}: ${where}.systemPromptFile ${settings.systemPromptFile} is empty`,
                );
                return settings;
              }
              return { ...settings, systemPrompt: prompt };
            } catch (error) {
              problem(
                'HOLDPOINT_CONFIG',
                `${filePath}: ${where}.systemPromptFile ${settings.systemPromptFile} cannot be read (${errorCode(error)}): give the path of a readable UTF-8 file`,
              );
              return settings;
            }
          };
          file = {
            ...file,
            defaults: readPrompt(file.defaults, 'defaults'),
            channels: Object.fromEntries(
              Object.entries(file.channels).map(([id, settings]) => [
                id,
                readPrompt(settings, `channels.${id}`),
              ]),
            ),
          };
        } else
          for (const found of parsed.problems)
            problem(
              'HOLDPOINT_CONFIG',
              `${filePath}${found.line === null ? '' : ` line ${found.line}`}: ${found.message}`,
            );
      }
    }

    // Process
    const roleText = withDefault('ROLE').toLowerCase();
    let role: Role = 'all';
    if (isOneOf(ROLES, roleText)) role = roleText;
    else problem('ROLE', `${shown('ROLE', withDefault('ROLE'))} is not a role: use ${ROLES.join(', ')}`);
    const levelText = withDefault('LOG_LEVEL').toLowerCase();
    let level: LogLevel = 'info';
    if (isOneOf(LOG_LEVELS, levelText)) level = levelText;
    else
      problem(
        'LOG_LEVEL',
        `${shown('LOG_LEVEL', withDefault('LOG_LEVEL'))} is not a log level: use ${LOG_LEVELS.join(', ')}`,
      );
    const stepLimit = parseInteger('STEP_LIMIT', 1, 1000);
    const streamingText = withDefault('REPLY_STREAMING').toLowerCase();
    if (streamingText !== 'on' && streamingText !== 'off')
      problem(
        'REPLY_STREAMING',
        `${shown('REPLY_STREAMING', withDefault('REPLY_STREAMING'))} is not on or off`,
      );
    const streamReplies = streamingText !== 'off';
    const concurrency = parseInteger('WORKER_CONCURRENCY', 1, 1000);
    const shutdownMs = parseBoundedDuration('SHUTDOWN_TIMEOUT', SHUTDOWN_TIMEOUT_BOUNDS, '1s to 10m');

    return {
      slack,
      threads: { follow: threadFollow },
      http: { port, metricsToken },
      redis: { url: redisUrl, cluster: redisCluster },
      model,
      systemPrompt,
      systemPromptSource,
      ask: { timeoutMs, timeoutPolicy, answerers, followUp },
      api: { tokens: apiTokens, webhookSecret, mcpDefaultChannel, ratePerMinute },
      role,
      log: { level },
      agent: { stepLimit, streamReplies },
      worker: { concurrency },
      shutdown: { timeoutMs: shutdownMs },
      file,
    };
  });
}
