/**
 * A holdpoint worker as a child process, for crash and multi-worker tests.
 * Environment:
 * - REDIS_URL, HP_PREFIX, HP_QUEUE: where to work (shared with the test process).
 * - HP_CRASH_AT: a checkpoint name (see `Checkpoint` in src/agent/engine.ts) or `during-resume-model-call`;
 *   the process SIGKILLs itself there, once per HP_CRASH_MARKER (a Redis key set with NX).
 * - HP_ANSWER: `turnId|askId|questionIndex|label|userId`: instead of working, record this answer and exit.
 * - HP_FAILOVER=1: the model never asks; it records each call (`{pid, turnId, at}` pushed to
 *   `<prefix>:modelcalls`) and the first call of each turn hangs (for a test to SIGKILL the process in it);
 *   the job lock and stall check are production's (`JOB_TIMINGS`), not the tests' short ones.
 * Prints `ready` on stdout when the worker runs.
 */
import type { Checkpoint } from '../../src/agent/engine-deps.js';
import { startSweeper } from '../../src/jobs/sweeper.js';
import { JOB_TIMINGS } from '../../src/jobs/worker.js';
import { createHarness } from './engine-harness.js';
import { lastToolResults, scriptedModel } from './scripted-model.js';

const redisUrl = process.env.REDIS_URL ?? '';
const prefix = process.env.HP_PREFIX ?? '';
const queueName = process.env.HP_QUEUE ?? '';
const crashAt = process.env.HP_CRASH_AT ?? '';
const crashMarker = process.env.HP_CRASH_MARKER ?? `${prefix}:crashed`;

const ASK = {
  questions: [
    {
      header: 'Deploy',
      question: 'What now?',
      options: [{ label: 'Hotfix forward' }, { label: 'Roll back', recommended: true }],
    },
  ],
};

let harnessRef: ReturnType<typeof createHarness> | undefined;
/** Only the first process started with HP_CRASH_AT crashes; its restart runs clean. Decided up front so the kill is synchronous. */
let armed = false;

function crashIfArmed(): void {
  if (armed) process.kill(process.pid, 'SIGKILL');
}

const failover = process.env.HP_FAILOVER === '1';

const failoverModel = scriptedModel(async (prompt) => {
  // The test puts the turn id in the trigger text, the prompt's first user message.
  const first = prompt.find((message) => message.role === 'user');
  const part = Array.isArray(first?.content) ? first.content[0] : undefined;
  const turnId = part && 'text' in part ? part.text : '';
  const redis = harnessRef?.redis;
  // Decide whether this call hangs before recording it: the test kills the process as soon as it sees the
  // first call recorded, and a kill between the record and the decision left the hang to the continuation.
  const hangs = (await redis?.set(`${prefix}:slow:${turnId}`, '1', 'NX')) === 'OK';
  await redis?.rpush(`${prefix}:modelcalls`, JSON.stringify({ pid: process.pid, turnId, at: Date.now() }));
  if (hangs) await new Promise((resolve) => setTimeout(resolve, 120_000));
  return { text: 'FINAL after failover' };
});

const askingModel = scriptedModel(async (prompt) => {
  await harnessRef?.redis.rpush(`${prefix}:prompts`, JSON.stringify(prompt));
  const results = lastToolResults(prompt);
  if (results.length === 0) return { text: 'Asking.', toolCalls: [{ name: 'ask_question', input: ASK }] };
  if (crashAt === 'during-resume-model-call') crashIfArmed();
  return { text: `FINAL\n${results.map((result) => result.text).join('\n')}` };
});

const harness = createHarness({
  redisUrl,
  model: failover ? failoverModel : askingModel,
  prefix,
  queueName,
  worker: !process.env.HP_ANSWER,
  lockDuration: failover ? JOB_TIMINGS.lockDurationMs : 1500,
  stalledInterval: failover ? JOB_TIMINGS.stalledIntervalMs : 500,
  config: { askTimeoutMs: Number(process.env.HP_ASK_TIMEOUT_MS ?? 60_000) },
});
harnessRef = harness;
if (crashAt) armed = (await harness.redis.set(crashMarker, String(process.pid), 'NX')) === 'OK';
harness.deps.onCheckpoint = (name: Checkpoint) => {
  if (name === crashAt) crashIfArmed();
};

if (process.env.HP_ANSWER) {
  const [turnId = '', askId = '', index = '0', label = '', userId = ''] = process.env.HP_ANSWER.split('|');
  // harness.deps.onCheckpoint (above) kills this process at HP_CRASH_AT.
  const result = await harness.deps.asks.answer({
    turnId,
    askId,
    questionIndex: Number(index),
    resolution: {
      status: 'answered',
      selected: [label],
      other: null,
      answeredBy: userId,
      answeredAt: new Date().toISOString(),
      source: 'button',
      assumption: null,
    },
  });
  process.stdout.write(`${result.status}\n`);
  await harness.close();
  process.exit(0);
}

const sweeper = startSweeper(harness.deps, {
  intervalMs: 1000,
  unshownGraceMs: 3000,
  timers: harness.lane,
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void (async () => {
    await sweeper.stop();
    await harness.close();
    process.exit(0);
  })();
});
