import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { advanceTurn } from '../agent/advance-turn.js';
import { failTurn } from '../agent/end-turn.js';
import type { EngineDeps } from '../agent/engine-deps.js';
import { startTurn } from '../agent/thread-admission.js';
import { StateError, SystemError } from '../errors.js';
import type { DueTimer } from '../store/redis-due-timers.js';
import { type DueOutcome, type DueTimerLane, handleDueTimer } from './due-timer-lane.js';
import { askJobSchema, JOB_NAMES, turnJobSchema, webhookJobSchema } from './payloads.js';

/** How long a job waits before trying again when another process holds the turn's lease, in ms. */
const BUSY_RETRY_MS = 200;

/**
 * Job lock and stall check of production workers. A killed worker's job moves on once its lock has lapsed
 * and a stall check finds it unlocked (BullMQ's `moveStalledJobsToWait`): within `lockDurationMs +
 * stalledIntervalMs` (3.5 s) of the kill, then the next free worker takes it. The lock is renewed every
 * half of its duration (BullMQ's `lockRenewTime` default), so a live worker keeps it through event-loop
 * stalls of up to 1.25 s; the turn lease (`EngineConfig.turnLeaseMs`) has the same length, renewed every
 * third.
 * BullMQ's own defaults (30 s each) left a turn on a killed worker waiting 38-116 s.
 */
export const JOB_TIMINGS = { lockDurationMs: 2500, stalledIntervalMs: 1000 } as const;

/** Worker settings. Defaults suit production; tests shorten the lock so crashes are noticed fast. */
export interface HoldpointWorkerOptions {
  queueName: string;
  /** BullMQ key prefix; carries a hash tag so all queue keys share one Redis Cluster slot. */
  prefix: string;
  /** A connection with `maxRetriesPerRequest: null` (BullMQ requires it for blocking commands). */
  connection: Redis;
  /** Jobs processed at once by this process (default 8). */
  concurrency?: number;
  /** How long a job's lock lives without renewal, in ms (default {@link JOB_TIMINGS}). A killed worker's job is taken back after this. */
  lockDuration?: number;
  /** How often stalled jobs are looked for, in ms (default {@link JOB_TIMINGS}). */
  stalledInterval?: number;
  /** How long a turn waits before looking again when another turn holds its thread, in ms (default 2000). */
  threadWaitMs?: number;
  /**
   * Delivers an ask's `ask.resolved` webhook (`webhook` jobs); absent (no `WEBHOOK_SECRET` here): such a job
   * is handed back to the queue every 30 s, with an error log line, for a worker that has the secret.
   */
  deliverWebhook?: (scope: string, askId: string, questionIndex?: number) => Promise<string>;
  /** The timer lane whose `sweep-due` jobs this worker runs (the timer lane's worker; absent: such a job fails). */
  dueLane?: DueTimerLane;
  /** Called with every failed attempt of a job; `final` when it failed for good (all attempts used, or unrecoverable). */
  onFailed?: (job: Job | undefined, error: Error, final: boolean) => void;
}

/** How long a webhook job waits before another try when this worker cannot sign it, in ms. */
const NO_SECRET_RETRY_MS = 30_000;

/**
 * The BullMQ worker for `turn`, `resume` and `timeout` jobs. Processors are thin: validate the payload,
 * call the engine. A turn whose model keeps failing gets a clear message in its thread after the last
 * attempt and is marked failed.
 */
export function createHoldpointWorker(deps: EngineDeps, options: HoldpointWorkerOptions): Worker {
  const threadWaitMs = options.threadWaitMs ?? 2000;
  const worker = new Worker(
    options.queueName,
    async (job: Job, token?: string) => {
      try {
        return await processJob(deps, job, token, threadWaitMs, options);
      } catch (error) {
        const unmendable = unmendableError(error);
        // The job's workspace uninstalled holdpoint: the job ends, once, without retries.
        if (unmendable?.kind === 'not-installed') {
          deps.log.info(
            { jobId: job.id, job: job.name, ...unmendable.error.fields },
            'the Slack workspace of this job is not installed; the job ends',
          );
          return 'not-installed';
        }
        // Unreadable stored state: fail the job once, with the reason, instead of retrying it with backoff.
        if (unmendable?.kind === 'unreadable') {
          deps.log.error(
            { jobId: job.id, code: unmendable.error.code, err: error },
            'stored state is unreadable; job not retried',
          );
          throw new UnrecoverableError(`${unmendable.error.code}: ${unmendable.error.message}`);
        }
        throw error;
      }
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency ?? 8,
      lockDuration: options.lockDuration ?? JOB_TIMINGS.lockDurationMs,
      stalledInterval: options.stalledInterval ?? JOB_TIMINGS.stalledIntervalMs,
      maxStalledCount: 10,
    },
  );
  worker.on('failed', (job, error) => {
    const final =
      error instanceof UnrecoverableError || (job?.attemptsMade ?? 0) >= (job?.opts.attempts ?? 1);
    // A webhook retries for about two days: say each failed try, so a broken receiver shows in the log.
    if (job?.name === JOB_NAMES.webhook && !final)
      deps.log.warn(
        { jobId: job.id, attempt: job.attemptsMade, of: job.opts.attempts, err: error },
        'webhook delivery failed; it will be retried',
      );
    options.onFailed?.(job, error, final);
  });
  worker.on('error', (error) => deps.log.error({ err: error }, 'worker error'));
  return worker;
}

async function processJob(
  deps: EngineDeps,
  job: Job,
  token: string | undefined,
  threadWaitMs: number,
  options: HoldpointWorkerOptions,
): Promise<string> {
  const deliverWebhook = options.deliverWebhook;
  switch (job.name) {
    case JOB_NAMES.turn: {
      const data = turnJobSchema.parse(job.data);
      try {
        const outcome = await startTurn(deps, data);
        if (outcome.state === 'busy') {
          await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
          throw new DelayedError();
        }
        if (outcome.state === 'waiting') {
          await job.moveToDelayed(Date.now() + threadWaitMs, token);
          throw new DelayedError();
        }
        return outcome.state;
      } catch (error) {
        await failIfLastAttempt(deps, job, data.turnId, error);
        throw error;
      }
    }
    case JOB_NAMES.resume: {
      const data = askJobSchema.parse(job.data);
      try {
        const outcome = await advanceTurn(deps, data.turnId, { askId: data.askId });
        if (outcome.state === 'busy') {
          await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
          throw new DelayedError();
        }
        return outcome.state;
      } catch (error) {
        await failIfLastAttempt(deps, job, data.turnId, error);
        throw error;
      }
    }
    case JOB_NAMES.sweepDue: {
      if (!options.dueLane) throw new Error('a sweep-due job reached a worker without the timer lane');
      const report = await options.dueLane.sweep(
        (timer) => handleDueTimerOnce(deps, timer),
        (timer, error) =>
          deps.log.warn(
            { turnId: timer.turnId, askId: timer.askId, timer: timer.kind, err: error },
            'a due timer failed; it is tried again after a back-off',
          ),
      );
      return `done ${report.done}, again ${report.again}, failed ${report.failed}`;
    }
    // Delayed `timeout` and `nudge` jobs of asks shown before the due set (one per ask) still run here.
    case JOB_NAMES.timeout: {
      const data = askJobSchema.parse(job.data);
      const outcome = await deps.asks.timeout(data.turnId, data.askId);
      if (outcome === 'not-due') {
        const ask = await deps.store.getAsk(data.turnId, data.askId);
        await job.moveToDelayed(ask?.deadline ?? Date.now() + 1000, token);
        throw new DelayedError();
      }
      return outcome;
    }
    case JOB_NAMES.nudge: {
      const data = askJobSchema.parse(job.data);
      const next = await deps.asks.nudge(data.turnId, data.askId);
      if (next !== null) {
        await job.moveToDelayed(Math.max(next, Date.now() + 50), token);
        throw new DelayedError();
      }
      return 'done';
    }
    case JOB_NAMES.webhook: {
      const data = webhookJobSchema.parse(job.data);
      if (!deliverWebhook) {
        // Another worker (with WEBHOOK_SECRET) may deliver it: hand it back instead of failing it for good.
        deps.log.error(
          { jobId: job.id, askId: data.askId, retryInMs: NO_SECRET_RETRY_MS },
          'a webhook is due but this worker has no WEBHOOK_SECRET; set the same WEBHOOK_SECRET on every worker',
        );
        await job.moveToDelayed(Date.now() + NO_SECRET_RETRY_MS, token);
        throw new DelayedError();
      }
      return deliverWebhook(data.scope, data.askId, data.questionIndex);
    }
    default:
      throw new Error(`unknown job name ${job.name}`);
  }
}

/**
 * A failure that retrying cannot mend, or null: the workspace uninstalled holdpoint or revoked its token (OAuth
 * install mode: nothing can reach it any more), or stored state is unreadable (unknown schema version, corrupt
 * record). Jobs and timers both end on these instead of retrying.
 */
function unmendableError(
  error: unknown,
): { kind: 'not-installed'; error: SystemError } | { kind: 'unreadable'; error: StateError } | null {
  if (error instanceof SystemError && error.code === 'slack_not_installed')
    return { kind: 'not-installed', error };
  if (error instanceof StateError) return { kind: 'unreadable', error };
  return null;
}

/**
 * {@link handleDueTimer}, with the failures that retrying cannot mend ending the timer as the job wrapper
 * ends such a job: the workspace uninstalled holdpoint (nothing can reach it), or the ask's stored state is
 * unreadable. Other errors are thrown: the lane tries the timer again after a back-off.
 */
async function handleDueTimerOnce(deps: EngineDeps, timer: DueTimer): Promise<DueOutcome> {
  try {
    return await handleDueTimer(deps, timer);
  } catch (error) {
    const ids = { turnId: timer.turnId, askId: timer.askId, timer: timer.kind };
    const unmendable = unmendableError(error);
    if (unmendable?.kind === 'not-installed') {
      deps.log.info(
        { ...ids, ...unmendable.error.fields },
        'the Slack workspace of this timer is not installed; it ends',
      );
      return 'done';
    }
    if (unmendable?.kind === 'unreadable') {
      deps.log.error(
        { ...ids, code: unmendable.error.code, err: error },
        'stored state is unreadable; timer dropped',
      );
      return 'done';
    }
    throw error;
  }
}

async function failIfLastAttempt(deps: EngineDeps, job: Job, turnId: string, error: unknown): Promise<void> {
  if (error instanceof DelayedError) return;
  const attempts = job.opts.attempts ?? 1;
  deps.log.warn(
    { turnId, jobId: job.id, attempt: job.attemptsMade + 1, attempts, err: error },
    'turn job failed',
  );
  if (job.attemptsMade + 1 < attempts) return;
  const reason = error instanceof Error ? error.message : String(error);
  await failTurn(
    deps,
    turnId,
    `Sorry, I could not finish this: the model or Slack kept failing after ${attempts} tries (${reason.slice(0, 200)}). ` +
      'Please try again in a few minutes.',
  );
}
