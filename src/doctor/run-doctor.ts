import { configValueOf } from '../config/env-schema.js';
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
 * The checks of `holdpoint doctor`: the configuration first, then Redis, Slack, the model and each MCP tool
 * server of the config file at the same time, reported in that order. With an invalid configuration it
 * still checks Redis (at REDIS_URL, or its default) unless REDIS_URL is itself wrong, and says in one ⚠ line
 * that Slack, the model and the tool servers wait for a valid configuration.
 * @param env the environment to check (the CLI passes `process.env`)
 */
export async function runDoctor(
  env: Readonly<Record<string, string | undefined>>,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const { check, config, invalid } = checkConfig(env);
  const timeout = options.timeoutMs;
  const redisOptions = timeout === undefined ? {} : { connectTimeoutMs: timeout };
  if (config === null) {
    const redisUrl = invalid.includes('REDIS_URL') ? null : configValueOf(env, 'REDIS_URL');
    const redis = redisUrl === null ? [] : await checkRedisServer(redisUrl, redisOptions);
    const checks = [check, ...redis, notCheckedYet()];
    return { checks, ok: false };
  }
  const [redis, slack, model, mcp] = await Promise.all([
    checkRedisServer(config.redis.url, redisOptions),
    checkSlack(config.slack, timeout === undefined ? {} : { timeoutMs: timeout }),
    checkModel(config.model, timeout === undefined ? {} : { timeoutMs: timeout }),
    checkMcpServers(config.file, timeout === undefined ? {} : { timeoutMs: timeout }),
  ]);
  const checks = [check, ...channelChecks(config), ...redis, ...slack, model, ...mcp];
  return { checks, ok: checks.every((entry) => entry.ok) };
}

/** The line for what an invalid configuration keeps doctor from checking. */
function notCheckedYet(): DoctorCheck {
  return {
    name: 'Slack, model and MCP tool servers',
    ok: true,
    warning: true,
    detail: 'not checked until the configuration is valid',
    fix: 'Fix the configuration problems above, then run holdpoint doctor again.',
  };
}
