import type { CliCommand } from './commands.js';

/**
 * `holdpoint doctor`: checks the configuration (from the environment), Redis, Slack and the model, and
 * prints a checklist (✔ passed, ⚠ passed with a warning, ✖ failed, each failure with a fix). Exit 0 when
 * every check passed, 1 when one failed. The checks live in `src/doctor/` and are loaded only when the
 * command runs.
 */
export const doctorCommand: CliCommand = {
  summary:
    'Check the configuration, Redis, Slack (auth.test, scopes) and the model; print a checklist with fixes.',
  usage: 'holdpoint doctor    (configuration from the environment, as `holdpoint serve` reads it)',
  async run(argv, io) {
    if (argv.length > 0) {
      io.stderr('holdpoint doctor: takes no arguments (it checks the environment)\n');
      return 2;
    }
    const [{ runDoctor }, { formatChecklist }] = await Promise.all([
      import('../doctor/run-doctor.js'),
      import('../doctor/doctor-check.js'),
    ]);
    io.stdout('holdpoint doctor\n');
    const report = await runDoctor(process.env);
    io.stdout(formatChecklist(report.checks));
    return report.ok ? 0 : 1;
  },
};
