import type { AskTimers, ProgramNotifier } from '../asks/ask-ports.js';
import type { TurnStart } from './turn-start.js';

/**
 * How the engine asks for later work. Implemented over BullMQ in `src/jobs/`; every method is
 * idempotent by a deterministic jobId, so calling it twice never runs the work twice.
 */
export interface Scheduler extends AskTimers, ProgramNotifier {
  /** Adds the `turn` job (jobId `turn-<turnId>`), or promotes it when it is waiting for its thread. */
  startTurn(start: TurnStart): Promise<void>;
  /**
   * Adds the `resume` job for a resolved ask (jobId `resume-<askId>`). With `recover` (the sweep), a job
   * with that id that failed for good is retried instead of being silently kept.
   */
  resume(turnId: string, askId: string, options?: { recover?: boolean }): Promise<void>;
}
