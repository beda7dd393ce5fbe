import type { JobsOptions, Queue } from 'bullmq';
import type { Scheduler } from '../agent/scheduler.js';
import type { TurnStart } from '../agent/turn-start.js';
import type { DueTimerLane } from './due-timer-lane.js';
import { overrideWebhookJobId, resumeJobId, turnJobId, webhookJobId } from './job-ids.js';
import { JOB_NAMES } from './payloads.js';

/** Retry policy of turn and resume jobs: model and Slack errors back off exponentially (1 s, 2 s, 4 s, …). */
/**
 * Retries of a webhook delivery until the receiver answers 2xx: 15 attempts, 5 s doubling (the last about
 * 22 h after the one before), so a receiver that is down for a day still gets it. Kept a week, so a
 * delivery is not added again while its job is remembered.
 */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  attempts: 15,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export const WORK_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  // Kept for an hour so that re-adding the same jobId is ignored (de-duplication), then dropped.
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * {@link Scheduler} over BullMQ. Turns, resumes and webhooks are jobs on the work queue; every add uses a
 * deterministic jobId, so repeated calls are no-ops while the job exists, and a failed resume job is retried
 * instead of silently ignored. Timeouts and reminders are entries of the timer lane's due set
 * ({@link DueTimerLane}): setting one again moves it, and its queue is swept in batches by a worker of its own,
 * so a timer never waits behind a model call.
 */
export class BullmqScheduler implements Scheduler {
  /**
   * @param queue turns, resumes and webhooks.
   * @param timers the timer lane.
   */
  constructor(
    private readonly queue: Queue,
    private readonly timers: DueTimerLane,
  ) {}

  async startTurn(start: TurnStart): Promise<void> {
    const id = turnJobId(start.turnId);
    const existing = await this.queue.getJob(id);
    if (existing) {
      if (await existing.isDelayed()) await existing.promote().catch(() => undefined);
      return;
    }
    await this.queue.add(JOB_NAMES.turn, start, { ...WORK_JOB_OPTIONS, jobId: id });
  }

  async resume(turnId: string, askId: string, options: { recover?: boolean } = {}): Promise<void> {
    const id = resumeJobId(askId);
    const job = await this.queue.add(JOB_NAMES.resume, { turnId, askId }, { ...WORK_JOB_OPTIONS, jobId: id });
    if (options.recover && (await job.isFailed().catch(() => false)))
      await job.retry('failed').catch(() => undefined);
  }

  async timeout(turnId: string, askId: string, dueAt: number): Promise<void> {
    await this.timers.schedule({ kind: 'timeout', turnId, askId }, dueAt);
  }

  async notifyProgram(scope: string, askId: string): Promise<void> {
    await this.queue.add(
      JOB_NAMES.webhook,
      { scope, askId },
      { ...WEBHOOK_JOB_OPTIONS, jobId: webhookJobId(askId) },
    );
  }

  async notifyOverride(scope: string, askId: string, questionIndex: number): Promise<void> {
    await this.queue.add(
      JOB_NAMES.webhook,
      { scope, askId, questionIndex },
      { ...WEBHOOK_JOB_OPTIONS, jobId: overrideWebhookJobId(askId, questionIndex) },
    );
  }

  async nudge(turnId: string, askId: string, dueAt: number): Promise<void> {
    await this.timers.schedule({ kind: 'nudge', turnId, askId }, dueAt);
  }

  async cancelTimeout(turnId: string, askId: string): Promise<void> {
    // One ZREM of both timers; a sweep that claimed one already finds the ask resolved.
    await this.timers.unschedule({ kind: 'timeout', turnId, askId }, { kind: 'nudge', turnId, askId });
  }
}
