// A child process for the CoalescingRedis tests: sends HP_SETS `SET <prefix>:<i> 1` commands in one tick,
// optionally reconnects first (HP_RECONNECT_FIRST=1) and calls flushWrites() (HP_FLUSH=1), then kills itself with SIGKILL before the tick ends. What reached Redis
// shows what the client had written to its socket by then.
import { Redis } from 'ioredis';
import { CoalescingRedis } from '../../src/ops/coalescing-redis.js';

const url = process.env.HP_REDIS_URL ?? '';
const prefix = process.env.HP_PREFIX ?? '';
const sets = Number(process.env.HP_SETS ?? '0');
const redis = new CoalescingRedis(url, { maxBatch: Number(process.env.HP_MAX_BATCH ?? '16') });
await redis.ping();
if (process.env.HP_RECONNECT_FIRST === '1') {
  // Redis drops this client's connection; ioredis reconnects on a new socket before the SETs below.
  const id = await redis.client('ID');
  const ready = new Promise((resolve) => redis.once('ready', resolve));
  const admin = new Redis(url);
  await admin.client('KILL', 'ID', String(id));
  await admin.quit();
  await ready;
}
for (let i = 0; i < sets; i++) void redis.set(`${prefix}:${i}`, '1');
if (process.env.HP_FLUSH === '1') redis.flushWrites();
process.kill(process.pid, 'SIGKILL');
