/** Groups of {@link CONFIG_VARIABLES}, in the order docs and `.env.example` list them. */
export const CONFIG_GROUPS = ['Slack', 'Redis and HTTP', 'Model', 'Asks', 'Process'] as const;
/** One of {@link CONFIG_GROUPS}. */
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];

/** One environment variable holdpoint reads: the single source for validation, docs and `.env.example`. */
export interface ConfigVariable {
  name: string;
  group: ConfigGroup;
  /** Required in every configuration. */
  required: boolean;
  /** When it is required in some configurations only (human text), else null. */
  requiredWhen: string | null;
  /** Default as environment text (parsed like a set value), or null when there is none. */
  default: string | null;
  /** One or two sentences: what it is, accepted forms, units. */
  description: string;
  /** Never echoed in messages or logs. */
  secret: boolean;
}

/**
 * Every environment variable, in documentation order. `loadConfig` reads exactly these names;
 * `.env.example` and the README table are generated from this list (`renderEnvExample`, `renderConfigMarkdown`).
 */
export const CONFIG_VARIABLES = [
  {
    name: 'SLACK_BOT_TOKEN',
    group: 'Slack',
    required: false,
    requiredWhen: 'in single-workspace mode (the default; unset it for OAuth install mode)',
    default: null,
    description:
      "Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page: holdpoint serves that one workspace. Leave it unset to serve many workspaces through OAuth installs (SLACK_CLIENT_ID …).",
    secret: true,
  },
  {
    name: 'SLACK_APP_TOKEN',
    group: 'Slack',
    required: false,
    requiredWhen: 'for Socket Mode (the manifest default)',
    default: null,
    description:
      "App-level token (xapp-…) with the connections:write scope, from your Slack app's Basic Information page. When set, holdpoint connects in Socket Mode and needs no public URL.",
    secret: true,
  },
  {
    name: 'SLACK_SIGNING_SECRET',
    group: 'Slack',
    required: false,
    requiredWhen: 'in HTTP mode (SLACK_APP_TOKEN unset)',
    default: null,
    description:
      "Signing secret from your Slack app's Basic Information page; checks the signature of requests to POST /slack/events in HTTP mode.",
    secret: true,
  },
  {
    name: 'SLACK_CLIENT_ID',
    group: 'Slack',
    required: false,
    requiredWhen: 'for OAuth install mode (many workspaces; HTTP mode only)',
    default: null,
    description:
      "Client ID from your Slack app's Basic Information page. With SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and TOKEN_ENCRYPTION_KEY set (and SLACK_BOT_TOKEN unset) holdpoint serves GET /slack/install and GET /slack/oauth_redirect and keeps one bot token per workspace in Redis.",
    secret: false,
  },
  {
    name: 'SLACK_CLIENT_SECRET',
    group: 'Slack',
    required: false,
    requiredWhen: 'for OAuth install mode',
    default: null,
    description:
      "Client Secret from your Slack app's Basic Information page (exchanges an install's code for its bot token).",
    secret: true,
  },
  {
    name: 'SLACK_ALLOWED_WORKSPACES',
    group: 'Slack',
    required: false,
    requiredWhen: 'for OAuth install mode',
    default: null,
    description:
      'The workspaces (team ids T…) and Enterprise Grid organizations (E…) that may install holdpoint and use it, comma separated. An install from anywhere else is refused and its token revoked; events and clicks from elsewhere are not served. Public distribution lets any workspace reach /slack/install, so this list is required.',
    secret: false,
  },
  {
    name: 'SLACK_STATE_SECRET',
    group: 'Slack',
    required: false,
    requiredWhen: 'for OAuth install mode',
    default: null,
    description:
      'Secret that signs the OAuth state parameter (and its browser cookie) between /slack/install and /slack/oauth_redirect, at least 32 characters (openssl rand -hex 32).',
    secret: true,
  },
  {
    name: 'TOKEN_ENCRYPTION_KEY',
    group: 'Slack',
    required: false,
    requiredWhen: 'for OAuth install mode',
    default: null,
    description:
      "Key that encrypts the workspaces' tokens in Redis (AES-256-GCM): 32 bytes as 64 hex digits or base64 (openssl rand -base64 32).",
    secret: true,
  },
  {
    name: 'TOKEN_ENCRYPTION_KEY_PREVIOUS',
    group: 'Slack',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'During a key rotation: the key TOKEN_ENCRYPTION_KEY replaced. Tokens encrypted with it are still read, and written again under the current key (when read, and for every installation at start-up); unset it once the start-up log says the installations were re-encrypted.',
    secret: true,
  },
  {
    name: 'SLACK_API_URL',
    group: 'Slack',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'Overrides the Slack Web API base URL (a proxy or a test server), e.g. http://localhost:4000/api/. "/api/" is appended when missing. Default: https://slack.com/api/. In OAuth install mode the authorize page is taken from beside it (…/oauth/v2/authorize).',
    secret: false,
  },
  {
    name: 'THREAD_FOLLOW',
    group: 'Slack',
    required: false,
    requiredWhen: null,
    default: 'mention',
    description:
      'Which replies in a channel thread the bot was mentioned in start a turn: mention (only replies that mention the bot again) or all (every reply, for 30 days after the last turn there). DMs always continue the conversation.',
    secret: false,
  },
  {
    name: 'PORT',
    group: 'Redis and HTTP',
    required: false,
    requiredWhen: null,
    default: '3000',
    description:
      'TCP port of the HTTP server: POST /slack/events (HTTP mode), /healthz, /readyz and /metrics. 0 picks a free port.',
    secret: false,
  },
  {
    name: 'METRICS_TOKEN',
    group: 'Redis and HTTP',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'Bearer token that GET /metrics requires (Authorization: Bearer <token>, compared in constant time; 401 without it), at least 32 characters (openssl rand -hex 32). Unset: /metrics answers anyone who reaches PORT.',
    secret: true,
  },
  {
    name: 'REDIS_URL',
    group: 'Redis and HTTP',
    required: false,
    requiredWhen: null,
    default: 'redis://127.0.0.1:6379',
    description:
      'Redis 6.2+ (7 recommended) as redis://[user:password@]host:port[/db] or rediss:// for TLS. It must run with maxmemory-policy noeviction.',
    secret: false,
  },
  {
    name: 'REDIS_CLUSTER',
    group: 'Redis and HTTP',
    required: false,
    requiredWhen: null,
    default: 'off',
    description:
      'on: REDIS_URL is one node of a Redis Cluster (its other nodes are discovered; the password and TLS of the URL apply to all); off: one Redis server.',
    secret: false,
  },
  {
    name: 'MODEL',
    group: 'Model',
    required: false,
    requiredWhen: null,
    default: 'anthropic:claude-sonnet-4-5',
    description:
      'Provider and model id: anthropic:<id>, openai:<id> (Responses API) or openai-compatible:<id> (Chat Completions at OPENAI_BASE_URL, e.g. Ollama or vLLM).',
    secret: false,
  },
  {
    name: 'ANTHROPIC_API_KEY',
    group: 'Model',
    required: false,
    requiredWhen: 'when MODEL is anthropic:…',
    default: null,
    description: 'Anthropic API key (sk-ant-…) from console.anthropic.com.',
    secret: true,
  },
  {
    name: 'ANTHROPIC_BASE_URL',
    group: 'Model',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'Anthropic API base URL including /v1 (a proxy or a test server). Default: https://api.anthropic.com/v1.',
    secret: false,
  },
  {
    name: 'OPENAI_API_KEY',
    group: 'Model',
    required: false,
    requiredWhen: 'when MODEL is openai:…',
    default: null,
    description:
      'OpenAI API key (sk-…). Optional for openai-compatible servers that need none (sent as a Bearer token when set).',
    secret: true,
  },
  {
    name: 'OPENAI_BASE_URL',
    group: 'Model',
    required: false,
    requiredWhen: 'when MODEL is openai-compatible:…',
    default: null,
    description:
      'OpenAI-style API base URL including /v1, e.g. http://localhost:11434/v1 for Ollama. Default for openai:…: https://api.openai.com/v1.',
    secret: false,
  },
  {
    name: 'SYSTEM_PROMPT',
    group: 'Model',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'System prompt text. Set this or SYSTEM_PROMPT_FILE, not both; a built-in prompt is used otherwise.',
    secret: false,
  },
  {
    name: 'SYSTEM_PROMPT_FILE',
    group: 'Model',
    required: false,
    requiredWhen: null,
    default: null,
    description: 'Path of a UTF-8 file holding the system prompt (read once at start-up).',
    secret: false,
  },
  {
    name: 'ASK_TIMEOUT',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: '30m',
    description:
      'How long an ask waits for an answer before the timeout policy decides: 90s, 30m, 2h, 1h30m, 1500ms, or a plain number of seconds. Between 1s and 7d.',
    secret: false,
  },
  {
    name: 'ASK_TIMEOUT_POLICY',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: 'recommended-or-first',
    description:
      'What an unanswered question resolves to at the timeout: recommended-or-first (the recommended option, else the first), recommended-only (else no answer) or no-answer.',
    secret: false,
  },
  {
    name: 'ASK_ANSWERERS',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: 'anyone',
    description:
      'Who may answer: anyone (in the conversation), requester (the person who started the turn), or a comma list of user ids (U…, W…) and user-group ids (S…).',
    secret: false,
  },
  {
    name: 'ASK_REMINDERS',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: '50%,90%',
    description:
      'When a still-open ask is posted again as a thread reply that mentions who has not answered: percentages of the time to the deadline (50%) and durations after it was shown (10m), comma separated; none turns reminders off.',
    secret: false,
  },
  {
    name: 'ASK_ESCALATE_AFTER',
    group: 'Asks',
    required: false,
    requiredWhen: 'when ASK_ESCALATE_TO is set',
    default: null,
    description:
      'How long after an ask was shown, with questions still open, the ASK_ESCALATE_TO people become answerers too and are mentioned (e.g. 20m).',
    secret: false,
  },
  {
    name: 'ASK_ESCALATE_TO',
    group: 'Asks',
    required: false,
    requiredWhen: 'when ASK_ESCALATE_AFTER is set',
    default: null,
    description:
      'Who an unanswered ask escalates to: a comma list of user ids (U…, W…) and user-group ids (S…).',
    secret: false,
  },
  {
    name: 'ASK_EXTEND_CHOICES',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: '15m,1h,4h',
    description:
      'What the ask menu offers to push the deadline back by (at most 3 durations, comma separated); none removes the snooze choices.',
    secret: false,
  },
  {
    name: 'ASK_MAX_DEADLINE',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: '24h',
    description:
      'The latest an extended deadline may be, counted from when the ask was shown (at least ASK_TIMEOUT).',
    secret: false,
  },
  {
    name: 'ASK_OVERRIDE_WINDOW',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: '24h',
    description:
      'How long after an ask resolved by assumption its message keeps a Change answer button (the waiter is told of the change); none removes it.',
    secret: false,
  },
  {
    name: 'API_TOKENS',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'Bearer tokens of the ask API (POST /v1/asks): a comma list of name:token, each token at least 32 characters (openssl rand -hex 32); the name is recorded as the requester of its asks. Unset: the API is off (404).',
    secret: true,
  },
  {
    name: 'API_RATE_LIMIT',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: '120',
    description:
      'Requests per minute each API token may make (ask API and MCP), counted in Redis across processes; over it: 429 with Retry-After.',
    secret: false,
  },
  {
    name: 'WEBHOOK_SECRET',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'Signs the ask API\'s webhooks (X-Holdpoint-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>">), at least 32 characters. Unset: asks with a callbackUrl are refused.',
    secret: true,
  },
  {
    name: 'HOLDPOINT_CONFIG',
    group: 'Model',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: it describes the file's ${VAR} syntax
      'Path of the YAML config file with the MCP tool servers the agent may use (mcpServers), the approval rules (approvals) and per-channel settings (channels, defaults); see holdpoint.example.yaml. ${VAR} in it reads the environment variable VAR. Unset: no tools but ask_question.',
    secret: false,
  },
  {
    name: 'MCP_DEFAULT_CHANNEL',
    group: 'Asks',
    required: false,
    requiredWhen: null,
    default: null,
    description:
      'Slack channel id (C…) where the MCP server (POST /mcp) posts an ask_question call that names no channel. Unset: calls must give one.',
    secret: false,
  },
  {
    name: 'ROLE',
    group: 'Process',
    required: false,
    requiredWhen: null,
    default: 'all',
    description:
      'What this process does: all, web (Slack receiver only) or worker (jobs only). Run any number of each.',
    secret: false,
  },
  {
    name: 'LOG_LEVEL',
    group: 'Process',
    required: false,
    requiredWhen: null,
    default: 'info',
    description:
      'Pino log level: fatal, error, warn, info, debug, trace or silent. Logs are JSON lines on stdout.',
    secret: false,
  },
  {
    name: 'STEP_LIMIT',
    group: 'Process',
    required: false,
    requiredWhen: null,
    default: '20',
    description: 'Most model steps in one turn (1-1000); the turn then ends with a message in the thread.',
    secret: false,
  },
  {
    name: 'REPLY_STREAMING',
    group: 'Process',
    required: false,
    requiredWhen: null,
    default: 'on',
    description:
      "on: replies stream into the thread as the model writes them (Slack's chat.startStream), with tool calls and questions as status lines; off: each reply is posted once it is complete.",
    secret: false,
  },
  {
    name: 'WORKER_CONCURRENCY',
    group: 'Process',
    required: false,
    requiredWhen: null,
    default: '8',
    description: 'Jobs (turns, resumes, timeouts) one worker process runs at once (1-1000).',
    secret: false,
  },
  {
    name: 'SHUTDOWN_TIMEOUT',
    group: 'Process',
    required: false,
    requiredWhen: null,
    default: '25s',
    description:
      "After SIGTERM, how long running jobs may take to finish before the process closes (1s-10m). Keep it below the container's stop grace period (30s in docker-compose.yml).",
    secret: false,
  },
] as const satisfies readonly ConfigVariable[];

/** Name of one of {@link CONFIG_VARIABLES}. */
export type ConfigVariableName = (typeof CONFIG_VARIABLES)[number]['name'];

/** The variables as `loadConfig` reads them: each a string or absent. */
export type RawEnv = { [Name in ConfigVariableName]?: string };
