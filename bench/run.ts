/**
 * `npm run bench`: holdpoint's speed, measured against a private local redis-server (started with the
 * docker-compose flags, plus `--save ''`: no RDB snapshots) and real BullMQ. Prints numbers; asserts nothing.
 * Runs in about a minute and a half (section 9 adds about 25 s). README.md "Benchmark" says what each line means.
 *
 * Sections (targets of the durable pause-and-resume and Slack issues in brackets, for a 2-core machine):
 * 1. pause cost: store the paused turn and its ask, set its timeout timer (no surface).
 * 2. answer-record latency, 1 and 50 concurrent clients of one process [p50 < 1 ms, p99 < 5 ms at 50, for
 *    the line with a warm definition cache: a click handler reads the ask before it answers, so production
 *    answers are warm; the cold line shows a process that never read the ask].
 * 3. answer-to-resume-start latency: answer stored -> resume job picked up by a worker [p50 < 1.5 ms, p99 < 10 ms].
 * 4. timeout lateness over 1,000 timers due in 1-5 s, through the timer lane's due set and sweeps [never
 *    early; p99 <= 250 ms].
 * 5. Redis bytes per paused turn with a 20 KB history [< 1.1 x history + 4 KB]; 5b bytes sent per step; 5c Redis
 *    memory per open ask with a 2 KB history [history + 2 KB].
 * 6. ack latency of signed button clicks through the real Bolt HTTP receiver, 50 concurrent [p99 < 100 ms], and
 *    its floors: Bolt with a listener that only acks, and Node's HTTP server answering at once.
 * 7. job locks under load: a worker with production's lock and stall check (`JOB_TIMINGS`), 8 jobs at once
 *    that keep the event loop busy in 25 ms slices for about 5 s each [no job stalled, no lock renewal lost].
 * 8. the ask API: POST /v1/asks, and answer-to-long-poll-return (built app, fake Slack) [p50 < 10 ms and < 5 ms].
 * 9. timers at scale: 10,000 asks due within 10 s, fired by the product's turn and timer workers (one process)
 *    while the resumed turns run on the same Redis [never early; p99 <= 250 ms]; `npm run bench --
 *    --timers-100k` adds 100,000 due within 10 s [p99 <= 2 s] (about 2 minutes more, so not by default).
 *
 * Environment: BENCH_ONLY=pause,answer,resume,timeout,bytes,ack,locks,api,timers runs only those sections;
 * BENCH_ACK_CONCURRENCY (default 50) sets the burst size of section 6; BENCH_ACK_BURSTS=1 prints each burst's
 * min/p50/max; BENCH_CPU_PROF=<dir> writes a CPU profile of the section-6 app process there, and of section 9's timed window;
 * BENCH_HEAP_PROF=<dir> writes a sampled allocation profile of section 9's timed window there;
 * BENCH_REDIS_COMMANDS=1 prints the Redis commands that took the most server time in section 9's window;
 * BENCH_MAX_BATCH sets the request client's write grouping in section 2 (default 16; 1 writes each command
 * on its own, see src/ops/coalescing-redis.ts); BENCH_AOF_REWRITE=1 keeps Redis's automatic AOF rewrites
 * (switched off for the run otherwise, see main()). REDIS_URL runs against that Redis instead of a private
 * one: the bench then leaves keys there (turns and asks under `bench-*`) and does not change its settings.
 * `npm run bench` runs node with --expose-gc so that the bench process collects garbage before each section
 * and each timed run of section 2 (section 6's app is a process of its own).
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import {
  monitorEventLoopDelay,
  PerformanceObserver,
  constants as perfConstants,
  performance,
} from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { WebClient } from '@slack/web-api';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { NODE_FLAGS } from '../scripts/node-flags.mjs';
import { readRedisFlags } from '../scripts/redis-flags.mjs';
import { newTurnRecord } from '../src/agent/new-turn-record.js';
import type { TurnRecord } from '../src/agent/turn-record.js';
import { TurnWaiter } from '../src/agent/turn-waiter.js';
import { decodeAskArguments } from '../src/ask/decode-ask-arguments.js';
import type { NormalizedAsk, QuestionResolution } from '../src/ask/types.js';
import { AskService } from '../src/asks/ask-service.js';
import { ProgramWaiter } from '../src/asks/program-waiter.js';
import { ASK_RECORD_VERSION, type AskDefinition, standaloneScope } from '../src/asks/types.js';
import { BullmqScheduler } from '../src/jobs/bullmq-scheduler.js';
import { DueTimerLane } from '../src/jobs/due-timer-lane.js';
import { JOB_NAMES } from '../src/jobs/payloads.js';
import { TIMER_CONCURRENCY, timerQueueName } from '../src/jobs/queue.js';
import { createHoldpointWorker, JOB_TIMINGS } from '../src/jobs/worker.js';
import { readListpackSetting } from '../src/ops/redis-checks.js';
import { createRedisConnections } from '../src/ops/redis-connections.js';
import { encodeMessageRef } from '../src/slack/message-ref.js';
import { DefinitionCache } from '../src/store/definition-cache.js';
import { StoreKeys } from '../src/store/keys.js';
import { RedisAskChanges } from '../src/store/redis-ask-changes.js';
import { RedisDueTimers } from '../src/store/redis-due-timers.js';
import { RedisTurnStore } from '../src/store/redis-turn-store.js';
import { prose } from '../test/support/prose.js';
import { freePort, startRedisServer } from '../test/support/redis-server.js';
import {
  blockActionRequest,
  postToSlackApp,
  type SignedSlackRequest,
} from '../test/support/slack-payloads.js';
import { clickClient } from './click-client.js';
import { createBenchEngine, instantAskingModel, quietSurface } from './holdpoint-engine.js';

/**
 * A whole number of at least 1 from the environment variable `name`, or undefined when it is unset.
 * @throws Error naming the variable and its value when it is anything else (`abc`, `0`, `2.5`).
 */
function positiveIntegerEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

/** Section 6's burst size (BENCH_ACK_CONCURRENCY, default 50); read at start-up, so a typo stops the run at once. */
const ACK_CONCURRENCY = positiveIntegerEnv('BENCH_ACK_CONCURRENCY') ?? 50;
/** Section 2's write grouping of the request client (BENCH_MAX_BATCH), or undefined for the client's default. */
const MAX_BATCH = positiveIntegerEnv('BENCH_MAX_BATCH');

const ASK_ARGS = {
  questions: [
    {
      header: 'Deploy',
      question: 'What now?',
      options: [{ label: 'Hotfix forward' }, { label: 'Roll back', recommended: true }],
    },
  ],
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function summary(label: string, samples: number[], unit = 'ms'): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(3);
  return `${label.padEnd(58)} n=${String(sorted.length).padStart(5)}  p50 ${f(percentile(sorted, 50))} ${unit}  p99 ${f(percentile(sorted, 99))} ${unit}  min ${f(sorted[0] ?? Number.NaN)}  max ${f(sorted.at(-1) ?? Number.NaN)}`;
}

/** A numeric field (`used_memory`, `total_forks`, …) of `INFO` output; 0 when it is not there. */
function infoNumber(info: string, field: string): number {
  return Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
}

/**
 * How many times Redis forked so far (`INFO stats` total_forks). With the compose flags (`appendonly yes`) it
 * forks to rewrite the AOF each time the file doubled, which the bench's own setup writes make happen every
 * few seconds unless `main()` turned automatic rewrites off; a fork slows Redis for a while, so each timed
 * line of section 2 says when one overlapped it, and `main()` prints a line after any section one overlapped.
 */
async function redisForks(redis: Redis): Promise<number> {
  return infoNumber(await redis.info('stats'), 'total_forks');
}

/** The note a timed line gets when Redis forked `forks` times during it. */
function forkNote(forks: number): string {
  return forks > 0 ? `  (Redis forked ${forks}x for an AOF rewrite meanwhile)` : '';
}

/**
 * Collects the garbage earlier sections left (when node runs with `--expose-gc`, as `npm run bench` does), so
 * that a major GC of their heap does not land in the next timed part.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function normalizedAsk(): NormalizedAsk {
  const decoded = decodeAskArguments(ASK_ARGS);
  if (!decoded.ok) throw new Error('bench ask must decode');
  return decoded.ask;
}

/** A turn record with `historyBytes` of user/assistant history, as the engine writes it before pausing. */
function turnRecord(turnId: string, historyBytes: number): TurnRecord {
  const at = new Date().toISOString();
  const messages: TurnRecord['messages'] = [];
  let size = 0;
  for (let n = 0; size < historyBytes; n++) {
    const text = `message ${n}: ${prose(268, n)}`;
    messages.push(n % 2 === 0 ? { role: 'user', content: text } : { role: 'assistant', content: text });
    size += text.length;
  }
  return newTurnRecord({
    turnId,
    conversation: { surface: 'slack', channel: 'C0OPS', threadTs: '1780000000.000100' },
    requestedBy: 'U0ALICE',
    messages,
    at,
  });
}

function definition(turnId: string, askId: string, ask: NormalizedAsk, timeoutMs: number): AskDefinition {
  return {
    version: ASK_RECORD_VERSION,
    askId,
    scope: turnId,
    waiter: { kind: 'turn', turnId: turnId, toolCallId: `call-${askId}` },
    ordinal: 0,
    questions: ask.questions,
    conversation: { surface: 'slack', channel: 'C0OPS', threadTs: '1780000000.000100' },
    requestedBy: 'U0ALICE',
    answerers: { mode: 'anyone' },
    timeoutMs,
    policy: 'recommended-or-first',
    createdAt: new Date().toISOString(),
  };
}

/** Writes a paused turn with a shown ask (as the engine would) and returns its ids. */
async function pausedTurn(store: RedisTurnStore, ask: NormalizedAsk, historyBytes = 500, timeoutMs = 60_000) {
  const turnId = randomUUID();
  const askId = randomUUID();
  const turn = turnRecord(turnId, historyBytes);
  await store.createTurn(turn);
  const paused: TurnRecord = {
    ...turn,
    status: 'paused',
    pendingAskId: askId,
    messages: [
      ...turn.messages,
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: `call-${askId}`, toolName: 'ask_question', input: ASK_ARGS },
        ],
      },
    ],
  };
  const committed = await store.pauseTurn(paused, 1, definition(turnId, askId, ask, timeoutMs));
  if (!committed.ok) throw new Error('pause failed');
  return { turnId, askId, paused };
}

function answer(userId: string): QuestionResolution {
  return {
    status: 'answered',
    selected: ['Roll back'],
    other: null,
    answeredBy: userId,
    answeredAt: new Date().toISOString(),
    source: 'button',
    assumption: null,
  };
}

const quiet = { log: { debug() {}, info() {}, warn() {}, error() {} } };

async function benchPause(redisUrl: string, ask: NormalizedAsk): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisTurnStore(redis, { prefix: 'bench-pause' });
  const queue = new Queue('bench-pause', { connection: redis, prefix: '{bench-pause}' });
  const scheduler = new BullmqScheduler(queue, benchLane(queue, redis, 'bench-pause'));
  const samples: number[] = [];
  for (let n = 0; n < 500; n++) {
    const turnId = randomUUID();
    const askId = randomUUID();
    const turn = turnRecord(turnId, 2000);
    await store.createTurn(turn);
    const paused: TurnRecord = { ...turn, status: 'paused', pendingAskId: askId };
    const started = performance.now();
    await store.pauseTurn(paused, 1, definition(turnId, askId, ask, 60_000));
    await store.markAskShown(turnId, askId, Date.now(), encodeMessageRef({ channel: 'C0OPS', ts: '1.1' }));
    await scheduler.timeout(turnId, askId, Date.now() + 60_000);
    samples.push(performance.now() - started);
  }
  console.log(summary('1. pause: store turn+ask, mark shown, set timeout timer', samples));
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.quit();
}

/**
 * Runs `op(0)` .. `op(count - 1)` with `concurrency` of them in flight (each runner takes the next index
 * when its previous op finished), times each op, and prints one summary line of the ops after the first
 * `warmup`, noting a Redis fork that overlapped them. Garbage is collected first.
 */
async function timedLine(
  label: string,
  redis: Redis,
  timing: { concurrency: number; count: number; warmup: number },
  op: (n: number) => Promise<unknown>,
): Promise<void> {
  const samples: number[] = [];
  let next = 0;
  const runner = async () => {
    for (let n = next++; n < timing.count; n = next++) {
      const started = performance.now();
      await op(n);
      if (n >= timing.warmup) samples.push(performance.now() - started);
    }
  };
  collectGarbage();
  const forks = await redisForks(redis);
  await Promise.all(Array.from({ length: timing.concurrency }, runner));
  console.log(summary(label, samples) + forkNote((await redisForks(redis)) - forks));
}

/**
 * Section 2, as production answers a click: one process, one request-path connection shared by every
 * listener (`createRedisConnections().request`), `concurrency` answers in flight. The asks' definitions are
 * cached (in production the click handler reads the ask before answering it); the `cold` line answers with
 * an empty definition cache, as a process that never saw the asks. Steady state is measured: the first
 * 5,000 answers of each line warm the JIT and are not counted.
 */
async function benchAnswerRecord(redisUrl: string, ask: NormalizedAsk): Promise<void> {
  const runs = [
    { concurrency: 1, total: 1000, cold: false },
    { concurrency: 50, total: 10_000, cold: false },
    { concurrency: 50, total: 10_000, cold: true },
  ];
  for (const { concurrency, total, cold } of runs) {
    const connections = createRedisConnections(
      redisUrl,
      MAX_BATCH !== undefined ? { request: { maxBatch: MAX_BATCH } } : {},
    );
    const client = connections.request;
    const warmup = 5_000;
    // Room for every ask of the run, as the click handler's read keeps the definition cached in production.
    const store = new RedisTurnStore(client, {
      prefix: 'bench-answer',
      definitions: new DefinitionCache(cold ? undefined : warmup + total),
    });
    const ids: Array<{ turnId: string; askId: string }> = [];
    for (let n = 0; n < warmup + total; n++) ids.push(await pausedTurn(store, ask));
    // The click handler's read of the ask, done before the timed answers (not for the cold line).
    if (!cold) for (const id of ids) await store.getAsk(id.turnId, id.askId);
    const label = `${concurrency} concurrent${cold ? ', cold definition cache' : ''}`;
    const timing = { concurrency, count: warmup + total, warmup };
    await timedLine(`2. answer-record (atomic answer-once), ${label}`, client, timing, async (n) => {
      const id = ids[n];
      if (!id) throw new Error(`no paused turn ${n}`);
      const result = await store.answerQuestion(id.turnId, id.askId, 0, answer('U0BOB'));
      if (result.status !== 'completed') throw new Error(`unexpected ${result.status}`);
    });
    if (!cold) {
      // For comparison, in the same harness: a bare answer-once Lua script (HSETNX on one field, no checks,
      // no reply to decode): the floor that Redis and one Node process set.
      await timedLine(`   floor: bare answer-once Lua, ${concurrency} concurrent`, client, timing, (n) =>
        client.eval("return redis.call('HSETNX', KEYS[1], 'r0', ARGV[1])", 1, `bench-bare:{t:${n}}:ask`, 'x'),
      );
    }
    await connections.close();
  }
}

async function benchAnswerToResume(redisUrl: string, ask: NormalizedAsk): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisTurnStore(redis, { prefix: 'bench-resume' });
  const queue = new Queue('bench-resume', { connection: redis, prefix: '{bench-resume}' });
  const scheduler = new BullmqScheduler(queue, benchLane(queue, redis, 'bench-resume'));
  const started = new Map<string, number>();
  const samples: number[] = [];
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  let resolveDone: (() => void) | undefined;
  const worker = new Worker(
    'bench-resume',
    async (job: Job) => {
      if (job.name !== JOB_NAMES.resume) return;
      const begin = started.get((job.data as { askId: string }).askId);
      if (begin !== undefined) samples.push(performance.now() - begin);
      resolveDone?.();
    },
    {
      connection: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      prefix: '{bench-resume}',
      concurrency: 8,
    },
  );
  await worker.waitUntilReady();
  collectGarbage();
  const now = () => Date.now();
  const deps = {
    asks: new AskService({
      store,
      timers: scheduler,
      // The answer path never shows or redraws a message.
      surface: {
        showAsk: () => Promise.reject(new Error('not shown in the bench')),
        syncAsk: async () => {},
        postNotice: async () => {},
      },
      waiters: {
        turn: new TurnWaiter({ store, scheduler, now }),
        api: new ProgramWaiter({ store, show: async () => undefined, notifier: scheduler }),
      },
      now,
      ...quiet,
    }),
  };
  for (let n = 0; n < 300; n++) {
    const { turnId, askId } = await pausedTurn(store, ask);
    const done = new Promise<void>((resolve) => {
      resolveDone = resolve;
    });
    started.set(askId, performance.now());
    await deps.asks.answer({ turnId, askId, questionIndex: 0, resolution: answer('U0BOB') });
    await done;
  }
  console.log(summary('3. answer-to-resume-start (answer stored -> worker starts resume)', samples));
  await worker.close();
  await workerConnection.quit();
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.quit();
}

/**
 * Section 4: the timer lane alone. 1,000 timers due within 1-5 s go into the due set through the real
 * scheduler; a BullMQ worker on the lane's queue runs the `sweep-due` jobs as the product's timer worker does,
 * with a handler that only records when each timer fired.
 */
async function benchTimeoutLateness(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('bench-timeout', { connection: redis, prefix: '{bench-timeout}' });
  const lane = benchLane(queue, redis, 'bench-timeout');
  const scheduler = new BullmqScheduler(queue, lane);
  const dueAt = new Map<string, number>();
  const lateness: number[] = [];
  const total = 1000;
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  let resolveAll: (() => void) | undefined;
  const all = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  const worker = new Worker(
    'bench-timeout',
    async () =>
      lane.sweep(
        async (timer) => {
          lateness.push(Date.now() - (dueAt.get(timer.askId) ?? Number.NaN));
          if (lateness.length === total) resolveAll?.();
          return 'done';
        },
        () => undefined,
      ),
    { connection: workerConnection, prefix: '{bench-timeout}', concurrency: TIMER_CONCURRENCY },
  );
  await worker.waitUntilReady();
  const base = Date.now();
  for (let n = 0; n < total; n++) {
    const at = base + 1000 + Math.floor(Math.random() * 4000);
    const askId = randomUUID();
    dueAt.set(askId, at);
    await scheduler.timeout('bench-turn', askId, at);
  }
  await all;
  const early = lateness.filter((ms) => ms < 0).length;
  console.log(
    `${summary('4. timeout lateness (fired - due), 1,000 asks, 1-5 s', lateness)}  early: ${early}`,
  );
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.del(new StoreKeys('bench-timeout').dueTimers());
  await workerConnection.quit();
  await redis.quit();
}

/** CPU seconds the Redis server has used (`INFO cpu`: used_cpu_user + used_cpu_sys, all its threads). */
async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return infoNumber(info, 'used_cpu_user') + infoNumber(info, 'used_cpu_sys');
}

/**
 * The 20 Redis commands that took the most server time since the last `CONFIG RESETSTAT` (`INFO
 * commandstats`), one line each: calls, total µs, µs per call. A script's own commands are counted both
 * inside its `evalsha` and on their own lines.
 */
async function redisCommandTimes(redis: Redis): Promise<string> {
  const rows: Array<{ name: string; calls: number; usec: number }> = [];
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([\w|]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (match) rows.push({ name: match[1] ?? '', calls: Number(match[2]), usec: Number(match[3]) });
  }
  return rows
    .sort((a, b) => b.usec - a.usec)
    .slice(0, 20)
    .map(
      (row) =>
        `   redis ${row.name.padEnd(18)} calls ${String(row.calls).padStart(8)}  ${String(row.usec).padStart(9)} µs  ${(row.usec / row.calls).toFixed(1).padStart(6)} µs/call`,
    )
    .join('\n');
}

/**
 * Counts this process's garbage-collection pauses from now (or the last `reset()`) until `stop()`: young
 * generation (scavenges) and full (mark-sweep-compact) collections, each as a count and ms in all.
 */
function gcPauses(): {
  reset(): void;
  stop(): { minor: number; minorMs: number; major: number; majorMs: number };
} {
  let totals = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
        totals.minor++;
        totals.minorMs += entry.duration;
      } else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        totals.major++;
        totals.majorMs += entry.duration;
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    reset() {
      totals = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
    },
    stop() {
      observer.disconnect();
      return totals;
    },
  };
}

/** `seconds` of CPU over `wallSeconds` as a percentage of one core, e.g. `87%`. */
function percentOf(seconds: number, wallSeconds: number): string {
  return `${Math.round((seconds / Math.max(0.001, wallSeconds)) * 100)}%`;
}

/**
 * With BENCH_CPU_PROF=<dir>, profiles this process from now until `stop()` (the timed window of section 9)
 * and writes `<dir>/<label>.cpuprofile`; with BENCH_HEAP_PROF=<dir>, samples its allocations over the same
 * window (every 32 KiB allocated, objects the GC has freed included, so the profile shows what is allocated,
 * not what is live) and writes `<dir>/<label>.heapprofile` (open either in Chrome DevTools). Neither: null.
 */
async function startProfile(label: string): Promise<{ stop(): Promise<void> } | null> {
  // Each profiler: where it writes, the inspector calls that start it, the one that stops it and returns it.
  const profilers = [
    {
      dir: process.env.BENCH_CPU_PROF,
      start: [['Profiler.enable'], ['Profiler.start']] as const,
      stop: 'Profiler.stop',
      extension: 'cpuprofile',
    },
    {
      dir: process.env.BENCH_HEAP_PROF,
      start: [
        ['HeapProfiler.enable'],
        [
          'HeapProfiler.startSampling',
          {
            samplingInterval: 32_768,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          },
        ],
      ] as const,
      stop: 'HeapProfiler.stopSampling',
      extension: 'heapprofile',
    },
  ].filter((profiler) => profiler.dir);
  if (profilers.length === 0) return null;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  for (const profiler of profilers) for (const [method, params] of profiler.start) await post(method, params);
  return {
    async stop() {
      for (const { dir = '', stop, extension } of profilers) {
        const { profile } = (await post(stop)) as { profile: unknown };
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, `${label}.${extension}`), JSON.stringify(profile));
      }
      session.disconnect();
    },
  };
}

/**
 * Section 5c: Redis memory per open ask with a 2 KB history, everything counted: `used_memory` grows by this
 * much per paused turn with a shown ask, its timeout and its nudge timer and its index entry (2,000 of them,
 * so the zsets are past their small encoding and the average is over many entries).
 */
async function memoryPerOpenAsk(
  redis: Redis,
  store: RedisTurnStore,
  scheduler: BullmqScheduler,
  ask: NormalizedAsk,
): Promise<void> {
  const count = 2000;
  const usedMemory = async () => infoNumber(await redis.info('memory'), 'used_memory');
  // Warm the sets up so that their first growth is not counted.
  const open = async (): Promise<{ history: number; stored: number; askEncoding: unknown }> => {
    const { turnId, askId, paused } = await pausedTurn(store, ask, 2000);
    await store.markAskShown(turnId, askId, Date.now(), encodeMessageRef({ channel: 'C0OPS', ts: '1.1' }));
    await scheduler.timeout(turnId, askId, Date.now() + 3_600_000);
    await scheduler.nudge(turnId, askId, Date.now() + 1_800_000);
    // What the history takes in Redis: its chunk fields' values (deflated from 1 KB on).
    const turnKey = store.keys.turn(turnId);
    const chunks = Number(await redis.hget(turnKey, 'ccount'));
    let stored = 0;
    for (let chunk = 0; chunk < chunks; chunk += 1) stored += await redis.hstrlen(turnKey, `c${chunk}`);
    return {
      history: Buffer.byteLength(JSON.stringify(paused.messages)),
      stored,
      askEncoding: await redis.object('ENCODING', store.keys.ask(turnId, askId)),
    };
  };
  for (let i = 0; i < 200; i++) await open();
  const before = await usedMemory();
  let last = { history: 0, stored: 0, askEncoding: null as unknown };
  for (let i = 0; i < count; i++) last = await open();
  const perAsk = Math.round(((await usedMemory()) - before) / count);
  const listpack = await readListpackSetting(redis);
  console.log(
    `5c. Redis memory per open ask (used_memory growth over ${count.toLocaleString('en-US')} paused turns, shown asks with their timeout and nudge timers): ${perAsk} B with a history of ${last.history} B = history + ${perAsk - last.history} B [target: history + 2,048 B]; the history is stored in ${last.stored} B (deflated), so everything else is ${perAsk - last.stored} B; ask hash ${String(last.askEncoding)} (${listpack ? `${listpack.name} ${listpack.value}` : 'hash-max-listpack-value unknown'})`,
  );
}

/**
 * Bytes one timer adds to a large due set (a zset beyond its listpack size keeps a skiplist node and a dict
 * entry per member): measured as the growth of a scratch zset of 10,000 members like `member`.
 */
async function dueEntryBytes(redis: Redis, member: string): Promise<number> {
  const key = `bench-bytes-due-${randomUUID()}`;
  const count = 10_000;
  for (let i = 0; i < count; i += 1000)
    await redis.zadd(
      key,
      ...Array.from({ length: 1000 }, (_, j) => [Date.now() + i + j, `${member}${i + j}`]).flat(),
    );
  const bytes = Number(await redis.memory('USAGE', key, 'SAMPLES', '0'));
  await redis.del(key);
  return Math.round(bytes / count);
}

/** The timer lane of a bench section: its due set under the section's store prefix, swept on `queue`. */
function benchLane(queue: Queue, redis: Redis, prefix: string): DueTimerLane {
  return new DueTimerLane(queue, new RedisDueTimers(redis, { prefix }));
}

async function benchBytes(redisUrl: string, ask: NormalizedAsk): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisTurnStore(redis, { prefix: 'bench-bytes' });
  const queue = new Queue('bench-bytes', { connection: redis, prefix: '{bench-bytes}' });
  const scheduler = new BullmqScheduler(queue, benchLane(queue, redis, 'bench-bytes'));
  const { turnId, askId, paused } = await pausedTurn(store, ask, 20_000);
  await store.markAskShown(
    turnId,
    askId,
    Date.now(),
    encodeMessageRef({ channel: 'C0OPS', ts: '1780000000.000200' }),
  );
  await scheduler.timeout(turnId, askId, Date.now() + 60_000);
  const history = Buffer.byteLength(JSON.stringify(paused.messages));
  const turnBytes = Number(await redis.memory('USAGE', store.keys.turn(turnId), 'SAMPLES', '0'));
  const askBytes = Number(await redis.memory('USAGE', store.keys.ask(turnId, askId), 'SAMPLES', '0'));
  const timerBytes = await dueEntryBytes(redis, `t:${turnId}|${askId}`);
  const indexBytes = Buffer.byteLength(`${turnId}|${askId}`) + 16;
  const total = turnBytes + askBytes + timerBytes + indexBytes;
  const budget = 1.1 * history + 4096;
  console.log(
    `5. bytes per paused turn: history ${history} B (JSON); turn key ${turnBytes} + ask key ${askBytes} + timeout timer ~${timerBytes} + index ~${indexBytes} = ${total} B; budget 1.1 x history + 4 KB = ${Math.round(budget)} B (${((total / budget) * 100).toFixed(0)}% of it)`,
  );
  await memoryPerOpenAsk(redis, store, scheduler, ask);
  // Bytes sent to Redis per step of a turn with that history: each commit adds one ~200 B message. The
  // store writes the head and the new messages only, so this stays flat as the history grows.
  const stepTurn = turnRecord(randomUUID(), 20_000);
  await store.createTurn(stepTurn);
  let current = (await store.getTurn(stepTurn.turnId)) as TurnRecord;
  const stepMessage = (n: number) => ({
    role: 'assistant' as const,
    content: `step ${n} ${'z'.repeat(200)}`,
  });
  await store.commitTurn({ ...current, messages: [...current.messages, stepMessage(0)] }, current.rev);
  const netIn = async () => infoNumber(await redis.info('stats'), 'total_net_input_bytes');
  const steps = 50;
  let sent = 0;
  for (let n = 1; n <= steps; n++) {
    current = (await store.getTurn(stepTurn.turnId)) as TurnRecord;
    const before = await netIn();
    await store.commitTurn({ ...current, messages: [...current.messages, stepMessage(n)] }, current.rev);
    sent += (await netIn()) - before;
  }
  console.log(
    `5b. bytes sent to Redis per step (commit of one ~215 B message): ${Math.round(sent / steps)} B with a ${history} B history (the history is not written again)`,
  );
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.quit();
}

/**
 * Section 6 runs the built app as production does (`node dist/src/main.js`, `ROLE=web`) in its own process,
 * so that the load generator and the fake Slack Web API in this process do not share its CPU. Each ask has a
 * real (fake-Slack) message, so the `chat.update` after the ack succeeds as it would in Slack.
 */
/** Starts bench/fake-slack-process.ts and reads the line it prints. */
async function startFakeSlackProcess(): Promise<{
  url: string;
  botToken: string;
  responseUrl: string;
  stop: () => Promise<void>;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fake-slack-process.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await firstLine(child, 'the fake Slack process');
  const info = JSON.parse(line) as { url: string; botToken: string; responseUrl: string };
  return {
    ...info,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** The built app (`dist/src/main.js`, ROLE=web) against the fake Slack process, under private prefixes. */
async function startBuiltApp(
  redisUrl: string,
  fake: { url: string; botToken: string },
  label: string,
  env: Record<string, string> = {},
): Promise<{ base: string; storePrefix: string; secret: string; child: ReturnType<typeof spawn> }> {
  const secret = 'bench-signing-secret';
  const id = randomUUID().slice(0, 8);
  const port = await freePort();
  const storePrefix = `bench-${label}-${id}`;
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...NODE_FLAGS, ...profile, 'dist/src/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: secret,
      SLACK_API_URL: fake.url,
      REDIS_URL: redisUrl,
      PORT: String(port),
      MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'bench',
      LOG_LEVEL: 'warn',
      ROLE: 'web',
      HOLDPOINT_TEST_STORE_PREFIX: storePrefix,
      HOLDPOINT_TEST_QUEUE: `bench-${label}-${id}`,
      HOLDPOINT_TEST_QUEUE_PREFIX: `{bench-${label}-${id}}`,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    const ready = await fetch(`${base}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (waited > 30_000) throw new Error('the app did not become ready within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, storePrefix, secret, child };
}

/**
 * How section 6 sends its clicks: a keep-alive `node:http` client with one socket per concurrent click
 * (default), or `fetch` with BENCH_ACK_CLIENT=fetch (how this bench sent them before: the client's own CPU
 * then shows in the p99).
 */
function clickSender(
  url: string,
  sockets: number,
): { send: (r: SignedSlackRequest) => Promise<number>; close: () => void } {
  if (process.env.BENCH_ACK_CLIENT === 'fetch')
    return { send: async (r) => (await postToSlackApp(url, r)).status, close: () => {} };
  const client = clickClient(url, sockets);
  return { send: (r) => client.post(r), close: () => client.close() };
}

async function benchAck(redisUrl: string, ask: NormalizedAsk): Promise<void> {
  const fake = await startFakeSlackProcess();
  const { base, storePrefix, secret, child } = await startBuiltApp(redisUrl, fake, 'ack');
  const url = `${base}/slack/events`;
  const slack = new WebClient(fake.botToken, { slackApiUrl: fake.url });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisTurnStore(redis, { prefix: storePrefix });
  const results: Array<{ concurrency: number; samples: number[] }> = [];
  for (const level of [1, ACK_CONCURRENCY]) {
    const samples: number[] = [];
    const sender = clickSender(url, level);
    // One warm-up round first (the load generator opens its connections, the JIT warms up), not counted;
    // then 1,000 clicks: 1,000 one at a time, or 20 bursts of 50 sent at once.
    const rounds = Math.ceil(1000 / level);
    for (let round = -1; round < rounds; round++) {
      const paused = await Promise.all(Array.from({ length: level }, () => pausedTurn(store, ask)));
      const ids: Array<{ turnId: string; askId: string; ts: string }> = [];
      for (const { turnId, askId } of paused) {
        const posted = await slack.chat.postMessage({
          channel: 'C0OPS',
          thread_ts: '1780000000.000100',
          text: 'ask',
        });
        const ts = posted.ts ?? '';
        await store.markAskShown(turnId, askId, Date.now(), encodeMessageRef({ channel: 'C0OPS', ts }));
        ids.push({ turnId, askId, ts });
      }
      // Each click comes from its ask's own message (clicks from another message are refused).
      const requests = ids.map(({ turnId, askId, ts }) =>
        optionClick(turnId, askId, ts, fake.responseUrl, secret),
      );
      await Promise.all(
        requests.map(async (request) => {
          const started = performance.now();
          const status = await sender.send(request);
          if (round >= 0) samples.push(performance.now() - started);
          if (status !== 200) throw new Error(`click answered ${status}`);
        }),
      );
      // Every click must have been stored as the answer (a refused click is acked too, faster).
      for (const { turnId, askId } of ids) {
        if ((await store.getAsk(turnId, askId))?.status !== 'resolved')
          throw new Error(`click on ask ${askId} was not stored as its answer`);
      }
    }
    if (process.env.BENCH_ACK_BURSTS) {
      for (let b = 0; b * level < samples.length; b++) {
        const burst = samples.slice(b * level, (b + 1) * level).sort((x, y) => x - y);
        console.log(
          `burst ${b}: min ${burst[0]?.toFixed(1)} p50 ${burst[Math.floor(burst.length / 2)]?.toFixed(1)} max ${burst.at(-1)?.toFixed(1)}`,
        );
      }
    }
    sender.close();
    results.push({ concurrency: level, samples });
  }
  for (const { concurrency: level, samples } of results) {
    console.log(summary(`6. ack latency of signed button clicks, ${level} concurrent`, samples));
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await redis.quit();
  await fake.stop();
  for (const kind of ['bolt', 'http'] as const) {
    const samples = await ackFloor(kind, secret, ACK_CONCURRENCY, fake.responseUrl);
    console.log(
      summary(
        `6. floor, ${kind === 'bolt' ? "Bolt with a listener that only acks (our transport, Bolt's checks)" : 'Node HTTP server answering 200 at once'}, ${ACK_CONCURRENCY} concurrent`,
        samples,
      ),
    );
  }
}

/** The first line a child process prints on stdout (its ready line); rejects if it exits first. */
function firstLine(child: ChildProcessByStdio<null, Readable, null>, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end !== -1) resolve(buffered.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
  });
}

/** A signed click on the first option of ask `askId`, from its message `ts` in the bench thread. */
function optionClick(turnId: string, askId: string, ts: string, responseUrl: string, secret: string) {
  return blockActionRequest(
    {
      user: 'U0BOB',
      actions: [
        {
          type: 'button',
          action_id: 'hp.option.0.0',
          block_id: 'hp.bench.r0.0.act',
          value: `v1|${turnId}|${askId}|0|0`,
          text: { type: 'plain_text', text: 'Roll back' },
          action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
        },
      ],
      message: { ts, thread_ts: '1780000000.000100' },
      responseUrl,
    },
    { secret },
  );
}

/**
 * The floor of section 6: the same bursts of signed clicks (five warm-up bursts, then 20 of `concurrency`) from this
 * process against `bench/ack-floor-app.ts` in a process of its own: what the load generator, Node's HTTP
 * stack and (for `bolt`) Bolt's verification, parsing and dispatch cost before holdpoint does anything.
 */
async function ackFloor(
  kind: 'bolt' | 'http',
  secret: string,
  concurrency: number,
  responseUrl: string,
): Promise<number[]> {
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, ...profile, '--import', 'tsx', 'bench/ack-floor-app.ts', kind, secret],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = (JSON.parse(await firstLine(child, 'the floor app')) as { url: string }).url;
  const samples: number[] = [];
  const sender = clickSender(url, concurrency);
  const rounds = Math.ceil(1000 / concurrency);
  // Five warm-up bursts (the app of section 6 is warm from its 1,000 single clicks).
  for (let round = -5; round < rounds; round++) {
    const requests = Array.from({ length: concurrency }, () =>
      optionClick(randomUUID(), randomUUID(), '1780000000.000200', responseUrl, secret),
    );
    await Promise.all(
      requests.map(async (request) => {
        const started = performance.now();
        const status = await sender.send(request);
        if (round >= 0) samples.push(performance.now() - started);
        if (status !== 200) throw new Error(`the floor app answered ${status}`);
      }),
    );
  }
  sender.close();
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  return samples;
}

/**
 * Section 8: the ask API on the built app (ROLE=web, fake Slack in its own process): `POST /v1/asks` one at a
 * time (decode, store, post to Slack, mark shown, set the timeout timer), and answer-to-long-poll-return: a
 * `GET ?wait=30` is waiting when the answer is stored and announced (as the click path's program waiter does);
 * the time from the stored answer to the response.
 */
async function benchApi(redisUrl: string): Promise<void> {
  const fake = await startFakeSlackProcess();
  const token = 'b'.repeat(40);
  const { base, storePrefix, child } = await startBuiltApp(redisUrl, fake, 'api', {
    API_TOKENS: `bench:${token}`,
    API_RATE_LIMIT: '1000000',
  });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const store = new RedisTurnStore(redis, { prefix: storePrefix });
  const changes = new RedisAskChanges(redis, null, { prefix: storePrefix });
  try {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ channel: 'C0OPS', questions: ASK_ARGS.questions, timeout: '1h' });
    const create = async () => {
      const response = await fetch(`${base}/v1/asks`, { method: 'POST', headers, body });
      if (response.status !== 201) throw new Error(`POST /v1/asks answered ${response.status}`);
      return ((await response.json()) as { id: string }).id;
    };
    for (let n = 0; n < 20; n++) await create(); // warm-up
    const createSamples: number[] = [];
    const ids: string[] = [];
    for (let n = 0; n < 300; n++) {
      const started = performance.now();
      ids.push(await create());
      createSamples.push(performance.now() - started);
    }
    console.log(summary('8. ask API: POST /v1/asks (decode, store, post, show), 1 at a time', createSamples));
    const pollSamples: number[] = [];
    for (const id of ids.slice(0, 200)) {
      const polled = fetch(`${base}/v1/asks/${id}?wait=30`, { headers }).then(async (response) => {
        await response.text();
        return performance.now();
      });
      // Let the long-poll reach the server and read the ask once before the answer lands.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const result = await store.answerQuestion(standaloneScope(id), id, 0, answer('U0BOB'));
      const stored = performance.now();
      if (result.status !== 'completed') throw new Error(`answer ${result.status}`);
      // What the program waiter does next on the click path: announce the resolution to every web process.
      await changes.announce(id);
      pollSamples.push((await polled) - stored);
    }
    console.log(
      summary('8. ask API: answer stored + announced -> long-poll returns (GET ?wait)', pollSamples),
    );
  } finally {
    // A failed section must not leave the app or the fake running (they would keep the bench alive).
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    await redis.quit();
    await fake.stop();
  }
}

/**
 * Section 7: with production's job lock (2.5 s, renewed every 1.25 s) and stall check (1 s), a busy worker
 * must keep every lock: 16 jobs, 8 at a time, each burning 625 ms of CPU in 25 ms slices (so each runs about
 * 5 s and renews its lock several times while the event loop is never idle). Prints stalled jobs, failed
 * renewals and the event-loop delay the renewals had to live with.
 */
async function benchLocks(redisUrl: string): Promise<void> {
  const id = randomUUID().slice(0, 8);
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(`bench-locks-${id}`, { connection, prefix: `{bench-locks-${id}}` });
  const jobs = 16;
  const sliceMs = 25;
  const slices = 25;
  let stalled = 0;
  let renewalsLost = 0;
  let done = 0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const worker = new Worker(
    queue.name,
    async () => {
      for (let slice = 0; slice < slices; slice++) {
        const until = performance.now() + sliceMs;
        while (performance.now() < until) {
          // busy: stands for parsing and validating a large record
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    {
      connection: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      prefix: `{bench-locks-${id}}`,
      concurrency: 8,
      lockDuration: JOB_TIMINGS.lockDurationMs,
      stalledInterval: JOB_TIMINGS.stalledIntervalMs,
      maxStalledCount: 10,
    },
  );
  worker.on('stalled', () => stalled++);
  worker.on('lockRenewalFailed', (ids) => {
    renewalsLost += ids.length;
  });
  const finished = new Promise<void>((resolve) =>
    worker.on('completed', () => {
      if (++done === jobs) resolve();
    }),
  );
  const began = performance.now();
  delay.enable();
  await queue.addBulk(Array.from({ length: jobs }, (_, i) => ({ name: 'work', data: { i } })));
  await finished;
  delay.disable();
  const seconds = (performance.now() - began) / 1000;
  console.log(
    `7. job locks under load (lock ${JOB_TIMINGS.lockDurationMs} ms, stall check ${JOB_TIMINGS.stalledIntervalMs} ms): ${jobs} jobs of ${slices * sliceMs} ms CPU, 8 at once, in ${seconds.toFixed(1)} s; stalled ${stalled}, lock renewals lost ${renewalsLost}; event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`,
  );
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await connection.quit();
}

/**
 * Section 9, timers at scale: `count` asks whose timeouts are due within one 10 s window, fired by the
 * product's own workers as src/runtime.ts wires a ROLE=all process: the turn lane (`WORKER_CONCURRENCY`
 * default 8) and the timer lane (`<queue>-timers`, `TIMER_CONCURRENCY`), one process, one Redis. Each
 * timeout resolves its ask by policy and adds a `resume` job, so from the first due timer on the turn lane
 * runs a stream of resumed turns (mock model answering after 50-200 ms) on the same Redis and event loop.
 * Lateness = resolved (right after the resolving Lua script) - deadline. "early" counts resolutions before
 * the deadline (the engine refuses them, so it must be 0); "early job runs" counts timer jobs BullMQ
 * started before their deadline (they move back to delayed).
 */
async function benchTimerScale(redisUrl: string, ask: NormalizedAsk, count: number): Promise<void> {
  const windowMs = 10_000;
  const timeoutMs = 60_000;
  let turnsEnded = 0;
  const engine = createBenchEngine({
    redisUrl,
    model: instantAskingModel({ delayMs: () => 50 + Math.random() * 150 }),
    surface: quietSurface([]),
    label: `timers-${count}`,
  });
  const setupStore = new RedisTurnStore(engine.connections.request, { prefix: engine.prefix });
  const scheduler = engine.deps.scheduler;
  const dueAt = new Map<string, number>();
  const lateness: number[] = [];
  let firstFired = Number.POSITIVE_INFINITY;
  let lastFired = 0;
  let earlyRuns = 0;
  let resolveAll: (() => void) | undefined;
  const all = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  engine.deps.onCheckpoint = (name, ids) => {
    if (name !== 'after-timeout-resolved' || !ids.askId) return;
    const now = Date.now();
    const due = dueAt.get(ids.askId);
    if (due === undefined) return;
    lateness.push(now - due);
    firstFired = Math.min(firstFired, now);
    lastFired = Math.max(lastFired, now);
    if (lateness.length === count) resolveAll?.();
  };
  engine.deps.observe = (event) => {
    if (event.type === 'turn-ended') turnsEnded++;
  };
  const timeout = engine.deps.asks.timeout.bind(engine.deps.asks);
  engine.deps.asks.timeout = async (turnId, askId, options) => {
    const outcome = await timeout(turnId, askId, options);
    if (outcome === 'not-due') earlyRuns++;
    return outcome;
  };
  // Writes `n` paused turns with shown asks due at `due(i)`, 64 at a time; returns the ms it took.
  const setUp = async (n: number, due: (i: number) => number, measured: boolean) => {
    const began = performance.now();
    let next = 0;
    const runner = async () => {
      for (let i = next++; i < n; i = next++) {
        const at = due(i);
        const { turnId, askId } = await pausedTurn(setupStore, ask, 500, timeoutMs);
        if (measured) dueAt.set(askId, at);
        await setupStore.markAskShown(
          turnId,
          askId,
          at - timeoutMs,
          encodeMessageRef({ channel: 'C0OPS', ts: '1.1' }),
        );
        await scheduler.timeout(turnId, askId, at);
      }
    };
    await Promise.all(Array.from({ length: 64 }, runner));
    return performance.now() - began;
  };
  // Measure the setup rate on asks due in an hour (never fired here; the first 500 only warm up), so that
  // the window starts after the setup.
  await setUp(500, () => Date.now() + 3_600_000, false);
  const probe = Math.min(2000, Math.ceil(count / 10));
  const probeMs = await setUp(probe, () => Date.now() + 3_600_000, false);
  const start = Date.now() + Math.ceil((probeMs / probe) * count * 1.5 + 3000);
  const setupMs = await setUp(count, () => start + Math.floor(Math.random() * windowMs), true);
  const slack = start - Date.now();
  const turns = createHoldpointWorker(engine.deps, {
    queueName: engine.queueName,
    prefix: `{${engine.prefix}}`,
    connection: engine.connections.bullmq,
    concurrency: 8,
  });
  const timers = createHoldpointWorker(engine.deps, {
    queueName: timerQueueName(engine.queueName),
    prefix: `{${engine.prefix}}`,
    connection: engine.connections.bullmq,
    concurrency: TIMER_CONCURRENCY,
    dueLane: engine.lane,
  });
  await Promise.all([turns.waitUntilReady(), timers.waitUntilReady()]);
  const profiler = await startProfile(`timers-${count}`);
  const gc = gcPauses();
  // CPU is counted over the window (from its start to the last timeout), not the wait before it.
  let cpuBefore = { redis: 0, node: process.cpuUsage(), at: performance.now() };
  const windowStarted = new Promise<void>((resolve) =>
    setTimeout(
      async () => {
        if (process.env.BENCH_REDIS_COMMANDS) await engine.connections.request.config('RESETSTAT');
        gc.reset();
        cpuBefore = {
          redis: await redisCpuSeconds(engine.connections.request),
          node: process.cpuUsage(),
          at: performance.now(),
        };
        resolve();
      },
      Math.max(0, start - Date.now()),
    ),
  );
  const limit = new Promise<'limit'>((resolve) =>
    setTimeout(() => resolve('limit'), Math.max(0, start - Date.now()) + windowMs + 180_000).unref(),
  );
  const ended = await Promise.race([all.then(() => 'all' as const), limit]);
  await windowStarted;
  if (process.env.BENCH_REDIS_COMMANDS) console.log(await redisCommandTimes(engine.connections.request));
  const windowSeconds = (performance.now() - cpuBefore.at) / 1000;
  const redisCpu = (await redisCpuSeconds(engine.connections.request)) - cpuBefore.redis;
  const nodeCpu = process.cpuUsage(cpuBefore.node);
  const gcInWindow = gc.stop();
  const rssMb = Math.round(process.memoryUsage().rss / 1048576);
  await profiler?.stop();
  const turnsInWindow = turnsEnded;
  const early = lateness.filter((ms) => ms < 0).length;
  const rate = lateness.length / Math.max(0.001, (lastFired - firstFired) / 1000);
  console.log(
    `${summary(`9. timers at scale: ${count.toLocaleString('en-US')} due within 10 s, lateness`, lateness)}  early: ${early}`,
  );
  console.log(
    `   fired ${lateness.length}/${count}${ended === 'limit' ? ' (stopped at the time limit)' : ''} at ${Math.round(rate)}/s (due at ${Math.round(count / (windowMs / 1000))}/s); early job runs ${earlyRuns}; ` +
      `turn lane meanwhile: ${turnsInWindow} resumed turns ended (8 at a time, model 50-200 ms); ` +
      `setup ${(setupMs / 1000).toFixed(1)} s, ${slack >= 0 ? `${(slack / 1000).toFixed(1)} s before the window` : `overran the window start by ${(-slack / 1000).toFixed(1)} s`}`,
  );
  // Which side is the limit: a process near 100% of one core is saturated (Redis runs commands on one thread).
  console.log(
    `   CPU from the window's start to the last timeout (${windowSeconds.toFixed(1)} s): Redis ${percentOf(redisCpu, windowSeconds)}, ` +
      `this process (workers, bench, resumed turns) ${percentOf((nodeCpu.user + nodeCpu.system) / 1e6, windowSeconds)} of one core; ` +
      `its GC paused it ${Math.round(gcInWindow.minorMs)} ms in ${gcInWindow.minor} young-generation and ${Math.round(gcInWindow.majorMs)} ms in ${gcInWindow.major} full collections; resident memory at the end ${rssMb} MB`,
  );
  await timers.close();
  await turns.close();
  await engine.close();
}

async function main(): Promise<void> {
  const began = Date.now();
  const flags = readRedisFlags();
  const server = process.env.REDIS_URL ? null : await startRedisServer(flags);
  const redisUrl = process.env.REDIS_URL ?? server?.url ?? '';
  const probe = new Redis(redisUrl);
  const info = await probe.info('server');
  // The setup of sections 1-5 writes well over 100 MB in under a minute, so Redis would fork a child to
  // rewrite the AOF every few seconds and that child would take CPU from the timed code on this 2-core
  // machine (a deployment rewrites when its AOF has doubled, rarely). AOF itself stays on, as in compose.
  const keepRewrites = process.env.BENCH_AOF_REWRITE === '1' || !server;
  if (!keepRewrites) await probe.config('SET', 'auto-aof-rewrite-percentage', '0');
  const [, rewritePercentage] = (await probe.config('GET', 'auto-aof-rewrite-percentage')) as string[];
  const [, save] = (await probe.config('GET', 'save')) as string[];
  console.log(
    `holdpoint bench: redis ${/redis_version:(\S+)/.exec(info)?.[1]} (${server ? `private, flags: ${flags.join(' ')}` : 'REDIS_URL'}), node ${process.version}`,
  );
  const missing = NODE_FLAGS.filter((flag) => !process.execArgv.includes(flag));
  console.log(
    `node flags: ${process.execArgv.filter((flag) => flag.startsWith('--max-') || flag === '--expose-gc').join(' ') || '(none)'}${missing.length > 0 ? ` (the deployed processes also run with ${missing.join(' ')}: run through npm run bench, or section 9 measures a process unlike the worker)` : ''}; the app processes it starts run with ${NODE_FLAGS.join(' ')}`,
  );
  console.log(
    `redis settings: save '${save}'${save ? '' : ' (no RDB snapshots)'}, auto-aof-rewrite-percentage ${rewritePercentage}${keepRewrites ? '' : ' (automatic AOF rewrites off for the run: each forks Redis and the child takes CPU from the timed code; BENCH_AOF_REWRITE=1 keeps them)'}`,
  );
  console.log(
    `garbage collected before each section and each timed run of section 2: ${typeof (globalThis as { gc?: unknown }).gc === 'function' ? 'yes' : 'no (run node with --expose-gc)'}`,
  );
  const ask = normalizedAsk();
  const sections: Array<[string, () => Promise<void>]> = [
    ['pause', () => benchPause(redisUrl, ask)],
    ['answer', () => benchAnswerRecord(redisUrl, ask)],
    ['resume', () => benchAnswerToResume(redisUrl, ask)],
    ['timeout', () => benchTimeoutLateness(redisUrl)],
    ['bytes', () => benchBytes(redisUrl, ask)],
    ['ack', () => benchAck(redisUrl, ask)],
    ['locks', () => benchLocks(redisUrl)],
    ['api', () => benchApi(redisUrl)],
    [
      'timers',
      async () => {
        await benchTimerScale(redisUrl, ask, 10_000);
        if (process.argv.includes('--timers-100k')) await benchTimerScale(redisUrl, ask, 100_000);
      },
    ],
  ];
  const only = process.env.BENCH_ONLY?.split(',');
  const unknown = only?.filter((name) => !sections.some(([section]) => section === name)) ?? [];
  try {
    if (unknown.length > 0) {
      throw new Error(
        `BENCH_ONLY names unknown sections: ${unknown.join(', ')} (known: ${sections.map(([name]) => name).join(', ')})`,
      );
    }
    for (const [name, bench] of sections) {
      if (only && !only.includes(name)) continue;
      collectGarbage();
      const forks = await redisForks(probe);
      await bench();
      const during = (await redisForks(probe)) - forks;
      if (during > 0) console.log(`   Redis forked ${during}x for an AOF rewrite during section "${name}"`);
    }
  } finally {
    await probe.quit();
    await server?.stop();
  }
  console.log(`done in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  // BullMQ keeps an internal connection of the section-3 worker reconnecting after its Redis is gone;
  // the numbers are printed, so end the script here rather than print its reconnect errors.
  process.exit(0);
}

await main();
