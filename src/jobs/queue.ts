import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** Default queue name and BullMQ key prefix. The prefix's `{hp}` hash tag keeps every queue key in one cluster slot. */
export const QUEUE_DEFAULTS = { name: 'holdpoint', prefix: '{hp}' } as const;

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
