/** The logging the engine needs; a pino logger satisfies it. */
export interface EngineLogger {
  debug(object: Record<string, unknown>, message: string): void;
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything (tests). */
export const silentLogger: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
