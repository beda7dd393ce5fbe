// A child process for the CoalescingRedis tests: sends HP_SETS `SET <prefix>:<i> 1` commands in one tick,
// optionally calls flushWrites(), then kills itself with SIGKILL before the tick ends. What reached Redis
// shows what the client had written to its socket by then.
import { CoalescingRedis } from '../../src/ops/coalescing-redis.js';

const url = process.env.HP_REDIS_URL ?? '';
const prefix = process.env.HP_PREFIX ?? '';
const sets = Number(process.env.HP_SETS ?? '0');
const redis = new CoalescingRedis(url, { maxBatch: Number(process.env.HP_MAX_BATCH ?? '16') });
await redis.ping();
for (let i = 0; i < sets; i++) void redis.set(`${prefix}:${i}`, '1');
if (process.env.HP_FLUSH === '1') redis.flushWrites();
process.kill(process.pid, 'SIGKILL');
