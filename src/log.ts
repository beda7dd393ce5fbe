import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from './config/types.js';

export type { Logger } from 'pino';

/** What replaces a secret in a log line. */
export const REDACTED = '[Redacted]';

/**
 * Paths pino redacts before anything else runs (fast, but exact paths only): the well-known places of
 * tokens and keys. {@link censorSecrets} then catches the rest at any depth.
 */
export const REDACT_PATHS: readonly string[] = [
  'token',
  '*.token',
  '*.botToken',
  '*.appToken',
  '*.signingSecret',
  '*.clientSecret',
  '*.stateSecret',
  '*.encryptionKey',
  '*.previousEncryptionKey',
  '*.apiKey',
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
  'TOKEN_ENCRYPTION_KEY',
  'TOKEN_ENCRYPTION_KEY_PREVIOUS',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
];

/**
 * Object keys whose values are secrets: anything containing secret, password, passwd, api key, authorization,
 * cookie, credential or encryption key, and keys ending in `token` (`token`, `botToken`, `SLACK_APP_TOKEN`, `x-slack-token`),
 * but not counts such as `inputTokens` or `maxTokens`.
 */
const SECRET_KEY =
  /secret|passw(or)?d|api[-_]?key|authorization|cookie|credential|private[-_]?key|encryption[-_]?key|token$/i;

/** Secret-looking substrings of any string: Slack, Anthropic and OpenAI keys, bearer tokens, URL passwords. */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/\bxox[a-z]-[A-Za-z0-9-]+/g, REDACTED],
  [/\bxapp-[A-Za-z0-9-]+/g, REDACTED],
  [/\bsk-ant-[A-Za-z0-9_-]+/g, REDACTED],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]+@/gi, `$1:${REDACTED}@`],
];

/** Replaces secret-looking substrings of `text` (see {@link SECRET_TEXT}) with {@link REDACTED}. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

const MAX_DEPTH = 8;

/**
 * Fields of provider errors (AI SDK `APICallError`) that hold whole requests: the conversation (people's
 * messages) and the tool definitions. Logged as `[omitted]`: too big for a log line, and not ours to copy.
 */
const BULKY_KEY = /^(requestBodyValues|responseHeaders|aggregateErrors)$/;
/** Longer strings are cut in logs (characters). */
const MAX_STRING = 2000;

/**
 * A copy of `value` that is safe to log: values under secret keys (see {@link SECRET_KEY}) become
 * {@link REDACTED}, strings are passed through {@link scrubSecrets}, errors become pino's serialized form
 * (type, message, stack, own fields) and are censored the same way. Cycles become `[Circular]`, and
 * anything deeper than 8 levels `[Too deep]`. Objects with `toJSON` (Date, URL) are censored as their JSON form.
 */
export function censorSecrets(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') {
    const scrubbed = scrubSecrets(value);
    return scrubbed.length > MAX_STRING
      ? `${scrubbed.slice(0, MAX_STRING)}… [${scrubbed.length} characters]`
      : scrubbed;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Too deep]';
  seen.add(value);
  try {
    if (value instanceof Error) return censorSecrets(pino.stdSerializers.err(value), depth, new WeakSet());
    if ('toJSON' in value && typeof value.toJSON === 'function') {
      return censorSecrets((value.toJSON as () => unknown).call(value), depth + 1, seen);
    }
    if (Array.isArray(value)) return value.map((item) => censorSecrets(item, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (BULKY_KEY.test(key) && item !== undefined && item !== null) {
        out[key] = '[omitted]';
        continue;
      }
      out[key] =
        SECRET_KEY.test(key) && item !== undefined && item !== null
          ? REDACTED
          : censorSecrets(item, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function censorRecord(object: Record<string, unknown>): Record<string, unknown> {
  const censored = censorSecrets(object);
  return typeof censored === 'object' && censored !== null && !Array.isArray(censored)
    ? (censored as Record<string, unknown>)
    : {};
}

/**
 * Creates the process logger: JSON lines (pino) at `config.level`, to `destination` (default stdout).
 * Secrets never reach the output: {@link REDACT_PATHS} are redacted, every logged object and every child
 * binding goes through {@link censorSecrets}, and the message text through {@link scrubSecrets}.
 */
export function createLogger(config: { level: LogLevel }, destination?: DestinationStream): Logger {
  const options = {
    level: config.level,
    base: { service: 'holdpoint' },
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    serializers: {
      // `formatters.log` has already serialized and censored errors (see censorSecrets): keep them as they are.
      err: (error: unknown) => error,
      msg: (message: unknown) => (typeof message === 'string' ? scrubSecrets(message) : message),
    },
    formatters: {
      bindings: censorRecord,
      log: censorRecord,
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** Ids that tie log lines to a turn, an ask and a job. Null and undefined ids are left out. */
export interface LogIds {
  turnId?: string | null;
  askId?: string | null;
  jobId?: string | null;
}

/**
 * A child logger whose every line carries the given ids (`turnId`, `askId`, `jobId`), e.g.
 * `withIds(logger, { turnId, askId }).info('ask shown')`.
 */
export function withIds(logger: Logger, ids: LogIds): Logger {
  const bindings: Record<string, string> = {};
  for (const [key, id] of Object.entries(ids)) if (typeof id === 'string') bindings[key] = id;
  return logger.child(bindings);
}

/** A log destination that holds lines back until told what to do with them (see {@link holdBackLog}). */
export interface HeldLog extends DestinationStream {
  /** Writes the held lines to the target, in order; every later line goes straight through. */
  release(): void;
  /** Forgets the held lines; every later line goes straight through. */
  discard(): void;
}

/** Most lines {@link holdBackLog} keeps; one more releases them all (a start that logs this much is not quiet). */
export const HELD_LOG_MAX_LINES = 1000;

/**
 * Wraps a log destination so that lines are held back until {@link HeldLog.release} or
 * {@link HeldLog.discard}. The process holds its start-up lines this way: a start that succeeds releases
 * them; a start that fails discards them and says what is wrong in one readable line, so that retries and
 * reconnect warnings of the failing step (already summed up in that line) do not bury it.
 */
export function holdBackLog(target: DestinationStream): HeldLog {
  let held: string[] | null = [];
  const release = (): void => {
    const lines = held ?? [];
    held = null;
    for (const line of lines) target.write(line);
  };
  return {
    write(line: string) {
      if (held === null) target.write(line);
      else {
        held.push(line);
        if (held.length > HELD_LOG_MAX_LINES) release();
      }
    },
    release,
    discard() {
      held = null;
    },
  };
}
