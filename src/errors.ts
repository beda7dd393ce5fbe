/**
 * One error base for holdpoint. Every error carries a stable `code` (for logs, metrics and tests),
 * an optional `cause`, and structured `fields` that are safe to log (never secrets).
 *
 * Kinds follow who must act:
 * - {@link ConfigError}: the operator misconfigured something (fix the environment).
 * - {@link SystemError}: a dependency failed (Redis, Slack, the model provider); usually retried.
 * - {@link ModelBehaviorError}: the model did something we cannot use (too many invalid calls, step limit).
 * - {@link StateError}: stored state is unreadable (unknown schema version, corrupt record).
 */
export class HoldpointError extends Error {
  /** Stable machine-readable code, e.g. `config_invalid`, `state_unknown_version`. */
  readonly code: string;
  /** Structured context that is safe to log. */
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(
    code: string,
    message: string,
    options: { cause?: unknown; fields?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.fields = options.fields ?? {};
  }
}

/** The operator's configuration is missing or wrong. */
export class ConfigError extends HoldpointError {}

/** A dependency (Redis, Slack, model provider) failed; callers usually retry. */
export class SystemError extends HoldpointError {}

/** The model behaved in a way the turn cannot continue from. */
export class ModelBehaviorError extends HoldpointError {}

/** Persisted state cannot be read (unknown version, failed schema check). */
export class StateError extends HoldpointError {}
