import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from 'pino';

/**
 * Adapts a pino logger to the logger interface Bolt and the Web API client expect, so Slack's own
 * lines go through the same redaction and JSON format as ours.
 */
export function slackLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack' });
  const text = (parts: unknown[]) =>
    parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ');
  let level = LogLevel.INFO;
  return {
    debug: (...parts: unknown[]) => child.debug(text(parts)),
    info: (...parts: unknown[]) => child.info(text(parts)),
    warn: (...parts: unknown[]) => child.warn(text(parts)),
    error: (...parts: unknown[]) => child.error(text(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
