import type { Role } from '../config/types.js';
import type { CliCommand } from './commands.js';

/**
 * A command that runs the holdpoint process (`main()` of `src/main.ts`, which exits the process itself
 * when it stops: 0 after SIGTERM/SIGINT and a clean stop, 1 when it could not start).
 * `main.ts` is imported only when the command runs, so other commands start without loading Bolt and BullMQ.
 * @param role the role to force, or undefined to use `ROLE` from the environment
 */
function processCommand(name: string, role: Role | undefined, summary: string): CliCommand {
  return {
    summary,
    usage: `holdpoint ${name}    (configuration from the environment; see .env.example)`,
    async run(argv, io) {
      if (argv.length > 0) {
        io.stderr(`holdpoint ${name}: takes no arguments (configure it with environment variables)\n`);
        return 2;
      }
      const { main } = await import('../main.js');
      return main(role);
    },
  };
}

/** `holdpoint serve`: runs holdpoint with `ROLE` from the environment (`all` by default). */
export const serveCommand: CliCommand = processCommand(
  'serve',
  undefined,
  'Run holdpoint (Slack receiver and/or workers, as ROLE says; default all) until SIGTERM.',
);

/** `holdpoint worker`: runs holdpoint as a worker only (`ROLE=worker`), whatever `ROLE` says. */
export const workerCommand: CliCommand = processCommand(
  'worker',
  'worker',
  'Run a worker only (ROLE=worker): turn, resume and timeout jobs, no Slack receiver.',
);
