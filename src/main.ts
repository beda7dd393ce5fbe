#!/usr/bin/env node
/**
 * Composition root of the holdpoint process: configuration -> logger -> runtime (Redis, queue, Slack
 * app, workers, HTTP server) -> wait for SIGTERM/SIGINT -> graceful stop. The only `process.exit`.
 */
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { loadConfig } from './config/load-config.js';
import type { Role } from './config/types.js';
import { HoldpointError } from './errors.js';
import { createLogger, holdBackLog } from './log.js';
import { type RuntimeTuning, startRuntime } from './runtime.js';

/**
 * Runs holdpoint until SIGTERM or SIGINT.
 * @param role overrides `ROLE` (the `holdpoint worker` command runs `worker`).
 * @returns the exit code: 0 after a clean stop, 1 when it could not start or could not stop within
 *   `SHUTDOWN_TIMEOUT` plus a 5 s grace (or got a second signal while stopping).
 */
export async function serve(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: { role?: Role; tuning?: RuntimeTuning } = {},
): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (options.role) config = { ...config, role: options.role };
  // Start-up lines are held back until the start succeeds (or for STARTUP_LOG_HOLD_MS): a start that fails
  // prints one readable line instead of the retries and reconnect warnings that led to it. At debug and
  // trace every line goes out at once.
  const startupLog = holdBackLog(pino.destination(1));
  const logger = createLogger(config.log, startupLog);
  const holdTimer = setTimeout(() => startupLog.release(), STARTUP_LOG_HOLD_MS);
  holdTimer.unref();
  if (config.log.level === 'debug' || config.log.level === 'trace') startupLog.release();
  // Last line of defence: every request path catches its own errors (the Slack receivers, the HTTP server),
  // so a rejection nobody handled is a bug in a library or in holdpoint. Log it loudly and keep serving
  // instead of letting Node end the process, and with it every other request in flight.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection (a bug); the process keeps running');
  });
  let runtime: Awaited<ReturnType<typeof startRuntime>>;
  try {
    runtime = await startRuntime(config, logger, {
      ...(options.tuning ?? tuningFromEnv(env)),
      // Socket Mode lost for good: say what to fix and exit 1, so a supervisor restarts or alerts.
      onFatal: (message) => {
        process.stderr.write(`holdpoint stopped: ${message}\n`);
        setTimeout(() => process.exit(1), 100).unref();
      },
    });
  } catch (error) {
    clearTimeout(holdTimer);
    startupLog.discard();
    const message = error instanceof Error ? error.message : String(error);
    // Expected start-up failures (our own errors) are this one line: the message says what to fix. Anything
    // else is a bug, and its stack follows as a JSON log line.
    process.stderr.write(`holdpoint cannot start: ${message}\n`);
    if (!(error instanceof HoldpointError)) logger.fatal({ err: error }, 'holdpoint could not start');
    return 1;
  }
  clearTimeout(holdTimer);
  startupLog.release();
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info(
    { signal, boundMs: config.shutdown.timeoutMs },
    'stopping: no new work; letting running jobs finish',
  );
  // Running jobs get `SHUTDOWN_TIMEOUT`; closing connections gets a little more. Past that, or on a
  // second signal, exit anyway: locks lapse and other workers take the jobs over.
  const hardBoundMs = config.shutdown.timeoutMs + SHUTDOWN_GRACE_MS;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    runtime.stop().then(() => 'stopped' as const),
    new Promise<'bound'>((resolve) => {
      timer = setTimeout(() => resolve('bound'), hardBoundMs);
    }),
    new Promise<'signal'>((resolve) => {
      process.once('SIGTERM', () => resolve('signal'));
      process.once('SIGINT', () => resolve('signal'));
    }),
  ]);
  clearTimeout(timer);
  if (outcome !== 'stopped') {
    logger.error(
      { reason: outcome, boundMs: hardBoundMs },
      outcome === 'bound'
        ? 'shutdown did not finish within the bound; exiting anyway'
        : 'second signal during shutdown; exiting now',
    );
    return 1;
  }
  logger.info('stopped');
  return 0;
}

/** Time allowed past `SHUTDOWN_TIMEOUT` for closing the server and Redis connections, in ms. */
const SHUTDOWN_GRACE_MS = 5000;

/**
 * Longest a start may hold its log lines back, in ms: a start still going after this logs as it goes. It
 * exceeds the Slack client's retries of an unreachable `auth.test` (3 retries, up to about 7 s).
 */
const STARTUP_LOG_HOLD_MS = 15_000;

/**
 * Test and benchmark knobs read from `HOLDPOINT_TEST_*` variables (undocumented for operators on
 * purpose): shorter job locks so killed processes are noticed fast, and private queue/key prefixes.
 */
function tuningFromEnv(env: Readonly<Record<string, string | undefined>>): RuntimeTuning {
  const number = (name: string) => (env[name] ? Number(env[name]) : undefined);
  return {
    lockDuration: number('HOLDPOINT_TEST_LOCK_MS'),
    stalledInterval: number('HOLDPOINT_TEST_STALLED_MS'),
    sweepIntervalMs: number('HOLDPOINT_TEST_SWEEP_MS'),
    queueName: env.HOLDPOINT_TEST_QUEUE,
    queuePrefix: env.HOLDPOINT_TEST_QUEUE_PREFIX,
    storePrefix: env.HOLDPOINT_TEST_STORE_PREFIX,
    socketConnectTimeoutMs: number('HOLDPOINT_TEST_SOCKET_CONNECT_MS'),
  };
}

/** Runs {@link serve} and exits with its code. */
export async function main(role?: Role): Promise<never> {
  const code = await serve(process.env, role ? { role } : {});
  process.exit(code);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
