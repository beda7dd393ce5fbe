import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** Default queue name and BullMQ key prefix. The prefix's `{hp}` hash tag keeps every queue key in one cluster slot. */
export const QUEUE_DEFAULTS = { name: 'holdpoint', prefix: '{hp}' } as const;

/** The timer lane's queue name for a work queue `name` (`holdpoint` -> `holdpoint-timers`). */
export function timerQueueName(name: string): string {
  return `${name}-timers`;
}

/**
 * Jobs one process runs at once on the timer lane (`timeout` and `nudge`: a few short Lua calls and a
 * Slack post each), so a burst of deadlines is not serialized behind `WORKER_CONCURRENCY` turns.
 */
export const TIMER_CONCURRENCY = 50;

/**
 * The holdpoint queue (`turn`, `resume` and delayed `timeout` jobs).
 * @param connection an ioredis client with `maxRetriesPerRequest: null`.
 */
export function createHoldpointQueue(
  connection: Redis,
  options: { name?: string; prefix?: string } = {},
): Queue {
  return new Queue(options.name ?? QUEUE_DEFAULTS.name, {
    connection,
    prefix: options.prefix ?? QUEUE_DEFAULTS.prefix,
  });
}
