import type { EngineDeps } from '../agent/engine-deps.js';
import type { DueTimerLane } from './due-timer-lane.js';

/** A running sweeper; `stop()` waits for a sweep in progress. */
export interface Sweeper {
  stop(): Promise<void>;
  /** Runs one sweep now (also used at start-up). */
  runOnce(): Promise<{ timedOut: number; resumed: number; reshown: number }>;
}

/**
 * Runs {@link sweep} at start-up and then every `intervalMs` (default 60 000 ms): resolves overdue asks
 * whose timeout timer was lost, shows asks a crash left unshown, and re-adds missing resumes; with `timers`,
 * also makes sure the earliest pending timer of the due set has its sweep job (a reminder whose sweep job a
 * crash never added is otherwise not found by anything).
 */
export function startSweeper(
  deps: EngineDeps,
  options: { intervalMs?: number; unshownGraceMs?: number; timers?: Pick<DueTimerLane, 'kick'> } = {},
): Sweeper {
  const intervalMs = options.intervalMs ?? 60_000;
  const unshownGraceMs = options.unshownGraceMs ?? 60_000;
  let running: Promise<unknown> = Promise.resolve();
  const runOnce = async () => {
    await options.timers?.kick();
    const counts = await deps.asks.sweep({ unshownGraceMs });
    if (counts.timedOut + counts.resumed + counts.reshown > 0)
      deps.log.info({ ...counts }, 'sweep recovered work');
    return counts;
  };
  const tick = () => {
    running = runOnce().catch((error: unknown) => deps.log.error({ err: error }, 'sweep failed'));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
