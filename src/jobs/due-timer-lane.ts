import type { Queue } from 'bullmq';
import type { EngineDeps } from '../agent/engine-deps.js';
import type { DueTimer, RedisDueTimers } from '../store/redis-due-timers.js';
import { sweepJobId } from './job-ids.js';
import { JOB_NAMES } from './payloads.js';

/**
 * Tuning of the timer lane. Defaults suit production: a timer fires at most one bucket (100 ms) after it is
 * due, plus the sweep's own time; a sweep claims a batch with one Lua call and works through it a few dozen
 * at a time.
 */
export interface DueTimerLaneOptions {
  /** Length of one sweep bucket, in ms (default 100): the sweep of a bucket runs when the bucket ends. */
  bucketMs?: number;
  /**
   * Timers one Lua call claims (default 128: two rounds of `concurrency`, so the last of a batch starts well
   * within its claim even when Slack is slow).
   */
  batchSize?: number;
  /** Timers of a batch handled at once (default 64). */
  concurrency?: number;
  /**
   * How long a claim lasts, in ms (default 5000): a timer a dead sweep claimed is due again after it, about as
   * soon as BullMQ runs a dead worker's job again (`JOB_TIMINGS`). A handling that outlasts it (a slow Slack
   * call) may be handled by the next sweep as well: every handler is idempotent (the ask's transitions are
   * Lua compare-and-sets, notices are posted once by key), so that costs work, never a second effect.
   */
  leaseMs?: number;
  /** How long one sweep job keeps claiming before it hands the rest to the next bucket's sweep, in ms (default 20 000). */
  maxSweepMs?: number;
  /**
   * How far ahead a new timer adds its bucket's sweep job itself, in ms (default 300 000). A later one waits
   * for the chain (each sweep adds the sweep of the earliest pending timer) or the periodic {@link
   * DueTimerLane.kick} (every minute), so timers spread over hours are not a delayed job each.
   */
  horizonMs?: number;
  /** Clock (epoch ms); tests pass their own. */
  now?: () => number;
}

/** What handling one due timer came to: finished (it leaves the due set), or due again at `at` (epoch ms). */
export type DueOutcome = 'done' | { at: number };

/** Counts of one sweep job. */
export interface SweepReport {
  /** Timers handled and finished. */
  done: number;
  /** Timers handled and due again later (a moved deadline, the next reminder). */
  again: number;
  /** Timers whose handling threw: they stay claimed and are due again when the claim ends. */
  failed: number;
  /** Claim calls made (batches). */
  batches: number;
}

const SWEEP_JOB_OPTIONS = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/**
 * The timer lane over a due set: timers are entries of one Redis zset ({@link RedisDueTimers}), and BullMQ
 * runs one delayed `sweep-due` job per 100 ms bucket that holds a timer (jobId `sweep-<bucket>`, so every
 * process adds the same one). The sweep claims due timers in batches, handles them, and makes sure the
 * bucket of the next pending timer has its sweep. So 100,000 timeouts due at once cost about a thousand
 * claim calls and a few hundred sweep jobs, not 100,000 delayed jobs; a crash mid-sweep leaves the claimed
 * timers due again when their claim lapses, and BullMQ runs the stalled sweep again.
 *
 * A timer is never handled before it is due: a sweep claims only members scored at or before its clock,
 * and the handlers check the stored deadline again (the ask store refuses an early timeout).
 */
export class DueTimerLane {
  readonly bucketMs: number;
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #leaseMs: number;
  readonly #maxSweepMs: number;
  readonly #horizonMs: number;
  readonly #now: () => number;
  /** Failed handlings in a row per member (this process), for the back-off of a timer that keeps failing. */
  readonly #failures = new Map<string, number>();
  #addsSinceForget = 0;
  /** Buckets whose sweep job this process has added (or is adding): one add per bucket per process. */
  readonly #added = new Map<number, Promise<void>>();

  /**
   * @param queue the timer lane's queue (`<name>-timers`), where the `sweep-due` jobs run.
   * @param due the due set.
   */
  constructor(
    readonly queue: Queue,
    readonly due: RedisDueTimers,
    options: DueTimerLaneOptions = {},
  ) {
    this.bucketMs = options.bucketMs ?? 100;
    this.#batchSize = options.batchSize ?? 128;
    this.#concurrency = options.concurrency ?? 64;
    this.#leaseMs = options.leaseMs ?? 5000;
    this.#maxSweepMs = options.maxSweepMs ?? 20_000;
    this.#horizonMs = options.horizonMs ?? 300_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Sets `timer` due at `dueAt` (epoch ms; replaces an earlier time) and, when it is due within the horizon,
   * adds its bucket's sweep (later ones are found by the chain of sweeps and the periodic kick).
   */
  async schedule(timer: DueTimer, dueAt: number): Promise<void> {
    await this.due.set(timer, dueAt);
    if (dueAt <= this.#now() + this.#horizonMs) await this.#ensureSweep(dueAt);
  }

  /** Removes timers of an ask that resolved (tidying: a sweep that finds the ask resolved does nothing). */
  async unschedule(...timers: DueTimer[]): Promise<void> {
    await this.due.remove(...timers);
  }

  /**
   * The sweep job: claims due timers batch by batch, hands each to `handle` (a few dozen at once), removes
   * the finished ones and re-schedules the others, until none is due (or `maxSweepMs` passed); then makes
   * sure the next pending timer's bucket has its sweep.
   * @param onError called with each timer whose handling threw. It is due again after a back-off that doubles
   *   with each failure in a row (5 s, 10 s, … at most 10 min), so a timer that keeps failing costs little.
   */
  async sweep(
    handle: (timer: DueTimer) => Promise<DueOutcome>,
    onError: (timer: DueTimer, error: unknown) => void,
  ): Promise<SweepReport> {
    const report: SweepReport = { done: 0, again: 0, failed: 0, batches: 0 };
    const began = this.#now();
    while (this.#now() - began < this.#maxSweepMs) {
      const claim = await this.due.claim(this.#now(), this.#batchSize, this.#leaseMs);
      report.batches++;
      if (claim.members.length === 0) break;
      const finished: string[] = [];
      let next = 0;
      const runner = async (): Promise<void> => {
        for (let i = next++; i < claim.timers.length; i = next++) {
          const timer = claim.timers[i] as DueTimer;
          const member = claim.members[i] as string;
          try {
            const outcome = await handle(timer);
            this.#failures.delete(member);
            if (outcome === 'done') {
              finished.push(member);
              report.done++;
            } else {
              await this.schedule(timer, outcome.at);
              report.again++;
            }
          } catch (error) {
            report.failed++;
            onError(timer, error);
            const failures = (this.#failures.get(member) ?? 0) + 1;
            this.#failures.set(member, failures);
            if (this.#failures.size > 10_000) this.#failures.clear();
            const backoff = Math.min(this.#leaseMs * 2 ** (failures - 1), 600_000);
            await this.schedule(timer, this.#now() + backoff).catch(() => undefined);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.#concurrency, claim.timers.length) }, runner));
      await this.due.release(claim.leaseUntil, finished);
      if (claim.members.length < this.#batchSize) break;
    }
    const earliest = await this.due.earliest();
    if (earliest !== null) await this.#ensureSweep(earliest);
    return report;
  }

  /**
   * Makes sure the earliest pending timer has its sweep: repairs a timer whose sweep job was never added (the
   * process died between setting the timer and adding the job, or Redis lost the job). Run by the periodic
   * sweeper; one `ZRANGE`, and a job add only for a bucket this process has not added yet.
   * @returns epoch ms the earliest timer is due, or null when none is pending.
   */
  async kick(): Promise<number | null> {
    const earliest = await this.due.earliest();
    if (earliest !== null) await this.#ensureSweep(earliest);
    return earliest;
  }

  /**
   * Adds the sweep of the bucket that `dueAt` falls in, never of the current or a past bucket (its sweep may
   * be running or done: the next bucket's sweep takes a timer already due). Each bucket once per process;
   * other processes' adds of the same bucket are no-ops by jobId.
   */
  async #ensureSweep(dueAt: number): Promise<void> {
    const now = this.#now();
    const bucket = Math.max(Math.ceil(dueAt / this.bucketMs), Math.floor(now / this.bucketMs) + 1);
    const pending = this.#added.get(bucket);
    if (pending !== undefined) return pending;
    const add = this.queue
      .add(
        JOB_NAMES.sweepDue,
        {},
        { ...SWEEP_JOB_OPTIONS, jobId: sweepJobId(bucket), delay: Math.max(0, bucket * this.bucketMs - now) },
      )
      .then(() => undefined);
    this.#added.set(bucket, add);
    add.catch(() => this.#added.delete(bucket));
    // At most one entry per 100 ms bucket within the horizon (3,000 at 5 min) plus the chain's: pruned every
    // 256 adds, not on each.
    if (++this.#addsSinceForget >= 256) {
      this.#addsSinceForget = 0;
      this.#forget(now);
    }
    return add;
  }

  /** Drops the remembered buckets that have ended. */
  #forget(now: number): void {
    const current = Math.floor(now / this.bucketMs);
    for (const bucket of this.#added.keys()) if (bucket <= current) this.#added.delete(bucket);
  }
}

/**
 * Handles one due timer with the engine: a timeout resolves the ask by its policy (due again at the stored
 * deadline when an extension moved it), a nudge sends the due reminders and the escalation (due again at the
 * next point). Missing and resolved asks are done.
 */
export async function handleDueTimer(deps: EngineDeps, timer: DueTimer): Promise<DueOutcome> {
  if (timer.kind === 'timeout') {
    const outcome = await deps.asks.timeout(timer.turnId, timer.askId, { byDueTimer: true });
    if (outcome !== 'not-due') return 'done';
    const ask = await deps.store.getAsk(timer.turnId, timer.askId);
    return ask?.status === 'open' && ask.deadline !== null ? { at: ask.deadline } : 'done';
  }
  const next = await deps.asks.nudge(timer.turnId, timer.askId);
  return next === null ? 'done' : { at: Math.max(next, deps.now() + 50) };
}
