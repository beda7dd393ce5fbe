import { channelChecks } from './check-channels.js';
import { checkConfig } from './check-config.js';
import { checkMcpServers } from './check-mcp-servers.js';
import { checkModel } from './check-model.js';
import { checkRedisServer } from './check-redis.js';
import { checkSlack } from './check-slack.js';
import type { DoctorCheck } from './doctor-check.js';

/** Outcome of {@link runDoctor}. */
export interface DoctorReport {
  /** Every check, in checklist order. */
  checks: DoctorCheck[];
  /** True when no check failed (warnings allowed). */
  ok: boolean;
}

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** Per-check time limit for the network checks, in ms (Redis connect, Slack call, model call). */
  timeoutMs?: number;
}

/**
 * The checks of `holdpoint doctor`: the configuration first (invalid: stop there), then Redis, Slack, the
 * model and each MCP tool server of the config file at the same time, reported in that order.
 * @param env the environment to check (the CLI passes `process.env`)
 */
export async function runDoctor(
  env: Readonly<Record<string, string | undefined>>,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const { check, config } = checkConfig(env);
  if (config === null) return { checks: [check], ok: false };
  const timeout = options.timeoutMs;
  const [redis, slack, model, mcp] = await Promise.all([
    checkRedisServer(config.redis.url, timeout === undefined ? {} : { connectTimeoutMs: timeout }),
    checkSlack(config.slack, timeout === undefined ? {} : { timeoutMs: timeout }),
    checkModel(config.model, timeout === undefined ? {} : { timeoutMs: timeout }),
    checkMcpServers(config.file, timeout === undefined ? {} : { timeoutMs: timeout }),
  ]);
  const checks = [check, ...channelChecks(config), ...redis, ...slack, model, ...mcp];
  return { checks, ok: checks.every((entry) => entry.ok) };
}
