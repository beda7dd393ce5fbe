/**
 * Issue 10, item 7: a turn on a worker that is SIGKILLed during its model call goes on in another worker
 * within 5 s, with production's job lock and stall check (`JOB_TIMINGS`), p99 over 20 kills. The time is
 * from the kill to the model call of the other worker (both stamped with this machine's clock).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { submitTurn } from '../../src/agent/thread-admission.js';
import { startWorkerProcess, type WorkerProcess } from '../support/child-process.js';
import { createHarness, type Harness, waitFor } from '../support/engine-harness.js';
import { testRedisUrl } from '../support/redis.js';
import { scriptedModel } from '../support/scripted-model.js';

const KILLS = 20;
const BOUND_MS = 5000;

let harness: Harness | undefined;
const children: WorkerProcess[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop()));
  await harness?.close();
  harness = undefined;
});

interface ModelCall {
  pid: number;
  turnId: string;
  at: number;
}

async function modelCalls(h: Harness, turnId: string): Promise<ModelCall[]> {
  const raw = await h.redis.lrange(`${h.prefix}:modelcalls`, 0, -1);
  return raw.map((line) => JSON.parse(line) as ModelCall).filter((call) => call.turnId === turnId);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

describe('a worker SIGKILLed during a model call', () => {
  it(`another worker continues the turn within ${BOUND_MS} ms (p99 over ${KILLS} kills)`, {
    timeout: 240_000,
  }, async () => {
    const h = createHarness({
      redisUrl: testRedisUrl(),
      model: scriptedModel(() => ({ text: 'unused' })),
      worker: false,
    });
    harness = h;
    const env = { REDIS_URL: testRedisUrl(), HP_PREFIX: h.prefix, HP_QUEUE: h.queueName, HP_FAILOVER: '1' };
    const start = () =>
      startWorkerProcess(env).then((child) => {
        children.push(child);
        return child;
      });
    const alive = await Promise.all([start(), start()]);
    const latencies: number[] = [];

    for (let kill = 0; kill < KILLS; kill++) {
      const turn = h.turnStart('x');
      const turnStart = { ...turn, trigger: { ...turn.trigger, text: turn.turnId } };
      await submitTurn(h.deps, turnStart);
      const [first] = await waitFor(
        async () => {
          const calls = await modelCalls(h, turn.turnId);
          return calls.length > 0 ? calls : undefined;
        },
        15_000,
        `the first model call of turn ${kill}`,
      );
      const victim = alive.find((child) => child.child.pid === first?.pid);
      if (!victim) throw new Error(`no live worker with pid ${first?.pid}`);
      victim.child.kill('SIGKILL');
      const killedAt = Date.now();
      alive.splice(alive.indexOf(victim), 1);
      const replacement = start();
      const again = await waitFor(
        async () => {
          const calls = await modelCalls(h, turn.turnId);
          return calls.find((call) => call.pid !== victim.child.pid);
        },
        30_000,
        `the continuation of turn ${kill}`,
      );
      latencies.push(again.at - killedAt);
      // Not part of the bound (that is the continuation above): the turn must still end. Under a loaded CI
      // run it once took longer than 15 s; the message says where the turn was, to find out why.
      await waitFor(
        async () => (await h.store.getTurn(turn.turnId))?.status === 'completed',
        40_000,
        `turn ${kill} completed (it is ${JSON.stringify(await h.store.getTurn(turn.turnId).then((t) => t && { status: t.status, rev: t.rev, steps: t.stepCount }))}, model calls ${JSON.stringify(await modelCalls(h, turn.turnId))})`,
      );
      alive.push(await replacement);
    }

    const sorted = [...latencies].sort((a, b) => a - b);
    const summary = {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1),
      all: latencies,
    };
    console.log(`failover after SIGKILL (ms): ${JSON.stringify(summary)}`);
    expect(summary.p99, JSON.stringify(summary)).toBeLessThan(BOUND_MS);
  });
});
