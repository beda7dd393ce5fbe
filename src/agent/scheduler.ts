import type { ConversationRef } from '../asks/conversation.js';
import type { TurnTrigger } from './surface.js';

/** Everything needed to start a turn; the payload of a `turn` job and of a thread inbox item. */
export interface TurnStart {
  turnId: string;
  conversation: ConversationRef;
  requestedBy: string;
  trigger: TurnTrigger;
}

/**
 * How the engine asks for later work. Implemented over BullMQ in `src/jobs/`; every method is
 * idempotent by a deterministic jobId, so calling it twice never runs the work twice.
 */
export interface Scheduler {
  /** Adds the `turn` job (jobId `turn-<turnId>`), or promotes it when it is waiting for its thread. */
  startTurn(start: TurnStart): Promise<void>;
  /**
   * Adds the `resume` job for a resolved ask (jobId `resume-<askId>`). With `recover` (the sweep), a job
   * with that id that failed for good is retried instead of being silently kept.
   */
  resume(turnId: string, askId: string, options?: { recover?: boolean }): Promise<void>;
  /** Adds the delayed `timeout` job (jobId `timeout-<askId>`) due at `dueAt` (epoch ms). */
  timeout(turnId: string, askId: string, dueAt: number): Promise<void>;
  /** Removes the timeout job if it is still delayed. Tidying only: the answer-once step decides. */
  cancelTimeout(turnId: string, askId: string): Promise<void>;
}
