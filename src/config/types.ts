import type { TimeoutPolicy } from '../ask/types.js';
import type { AnswererPolicy, AskFollowUp } from '../asks/types.js';
import type { ModelProvider } from '../model/parse-model-string.js';
import type { ApiToken } from './api-tokens.js';
import type { ConfigFile } from './config-file.js';

/** Pino log levels accepted by `LOG_LEVEL` (`silent` turns logging off). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Process roles (`ROLE`): `web` receives Slack requests, `worker` runs jobs, `all` does both. */
export const ROLES = ['all', 'web', 'worker'] as const;
/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/**
 * Which channel-thread replies start a turn (`THREAD_FOLLOW`): `mention` only replies that mention the
 * bot, `all` every reply in a thread the bot takes part in.
 */
export const THREAD_FOLLOW_MODES = ['mention', 'all'] as const;
/** One of {@link THREAD_FOLLOW_MODES}. */
export type ThreadFollow = (typeof THREAD_FOLLOW_MODES)[number];

/** Fields of the Slack configuration shared by both connection modes. */
interface SlackCommon {
  /** Bot User OAuth Token, `xoxb-…` (single-workspace mode); empty in OAuth install mode. Secret. */
  botToken: string;
  /** OAuth install mode (many workspaces, HTTP only), or null for single-workspace mode (`SLACK_BOT_TOKEN`). */
  oauth: SlackOAuthConfig | null;
  /** Web API base URL ending in `/api/` (from `SLACK_API_URL`), or null for Slack's own `https://slack.com/api/`. */
  apiUrl: string | null;
}

/**
 * OAuth install mode: each workspace installs the app through `GET /slack/install`, and its bot token is
 * kept in Redis, encrypted with {@link SlackOAuthConfig.encryptionKey}.
 */
export interface SlackOAuthConfig {
  /** `SLACK_CLIENT_ID`. */
  clientId: string;
  /** `SLACK_CLIENT_SECRET`. Secret. */
  clientSecret: string;
  /** `SLACK_STATE_SECRET`: signs the OAuth state. Secret. */
  stateSecret: string;
  /** `SLACK_ALLOWED_WORKSPACES`: the team ids (T…) and enterprise ids (E…) that may install and use holdpoint. */
  allowedWorkspaces: ReadonlySet<string>;
  /** `TOKEN_ENCRYPTION_KEY`, decoded: 32 bytes. Secret. */
  encryptionKey: Buffer;
  /** `TOKEN_ENCRYPTION_KEY_PREVIOUS`, decoded (a rotation in progress), or null. Secret. */
  previousEncryptionKey: Buffer | null;
}

/**
 * How holdpoint talks to Slack.
 * - `socket`: Socket Mode over a WebSocket opened with the app-level token (`SLACK_APP_TOKEN` set); no public URL.
 * - `http`: Slack posts events and interactions to `POST /slack/events`, checked with the signing secret.
 */
export type SlackConfig =
  | (SlackCommon & { mode: 'socket'; appToken: string; signingSecret: string | null })
  | (SlackCommon & { mode: 'http'; appToken: null; signingSecret: string });

/**
 * The model to call; structurally a `ModelSpec` of `src/model/create-model.ts`.
 * `apiKey` is always set for `anthropic` and `openai`; `baseURL` always for `openai-compatible`.
 */
export interface ModelConfig {
  provider: ModelProvider;
  /** The provider's model id, e.g. `claude-sonnet-4-5`, `gpt-4.1`, `llama3.1:8b`. */
  modelId: string;
  /** Secret. Undefined only for `openai-compatible` without `OPENAI_API_KEY`. */
  apiKey?: string;
  /** API base URL including the version segment (e.g. `http://localhost:11434/v1`), or undefined for the public endpoint. */
  baseURL?: string;
}

/** Defaults for new asks. */
export interface AskConfig {
  /** How long an ask waits for people before the timeout policy resolves it, in ms (1 s to 7 d). */
  timeoutMs: number;
  timeoutPolicy: TimeoutPolicy;
  answerers: AnswererPolicy;
  /** Reminders, escalation, snooze and late answers of new asks (`ASK_REMINDERS`, `ASK_ESCALATE_*`, …). */
  followUp: AskFollowUp;
}

/** The validated configuration of one holdpoint process. Built only by `loadConfig`. */
export interface Config {
  slack: SlackConfig;
  /** Thread rules in channels. */
  threads: {
    /** Which replies in a thread the bot takes part in start a turn (`THREAD_FOLLOW`). */
    follow: ThreadFollow;
  };
  http: {
    /** TCP port of the HTTP server (Slack HTTP mode, /healthz, /readyz, /metrics); 0 picks a free port. */
    port: number;
    /** The bearer token `GET /metrics` requires (`METRICS_TOKEN`), or null: /metrics is open. Secret. */
    metricsToken: string | null;
  };
  redis: {
    /** `redis://` or `rediss://` URL; may hold a password (log it only through `redactUrl`). */
    url: string;
    /** Whether `url` is one node of a Redis Cluster (`REDIS_CLUSTER`). */
    cluster: boolean;
  };
  model: ModelConfig;
  /** The system prompt text (from `SYSTEM_PROMPT`, `SYSTEM_PROMPT_FILE`, or the default). */
  systemPrompt: string;
  /** Where {@link Config.systemPrompt} came from. */
  systemPromptSource: 'env' | 'file' | 'default';
  /** The config file (`HOLDPOINT_CONFIG`): MCP tool servers and approval rules; empty when unset. */
  file: ConfigFile;
  ask: AskConfig;
  /** The ask API's clients (`API_TOKENS`; empty: the API is off) and its webhook secret (`WEBHOOK_SECRET`). */
  api: {
    tokens: ApiToken[];
    webhookSecret: string | null;
    mcpDefaultChannel: string | null;
    /** Requests per token per minute (`API_RATE_LIMIT`). */
    ratePerMinute: number;
  };
  role: Role;
  log: { level: LogLevel };
  agent: {
    /** Most model steps in one turn (counted across pauses) before it ends with a message. */
    stepLimit: number;
    /** Whether replies stream into the conversation as the model writes them (`REPLY_STREAMING`). */
    streamReplies: boolean;
  };
  worker: {
    /** Jobs one worker process runs at once. */
    concurrency: number;
  };
  shutdown: {
    /** After SIGTERM, how long running jobs may take to finish before connections are closed, in ms. */
    timeoutMs: number;
  };
}
