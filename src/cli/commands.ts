import { askCommand } from './ask-command.js';
import { checkAskCommand } from './check-ask-command.js';
import type { CliIo } from './cli-io.js';
import { doctorCommand } from './doctor-command.js';
import { previewAskCommand } from './preview-ask-command.js';
import { serveCommand, workerCommand } from './serve-command.js';
import { toolSchemaCommand } from './tool-schema-command.js';

/**
 * One `holdpoint <name>` command.
 * Exit codes by convention: 0 success, 1 the command's own "no" (e.g. invalid arguments for `check-ask`),
 * 2 usage or input errors. A thrown error is caught by `runCli`, printed on one line, and exits 2.
 */
export interface CliCommand {
  /** One line for `holdpoint help`. */
  summary: string;
  /** Usage line(s), e.g. `holdpoint check-ask [FILE|-]`. */
  usage: string;
  /**
   * Runs the command.
   * @param argv the arguments after the command name
   * @returns the process exit code
   */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/**
 * The command table: the one registration point for `holdpoint` commands; `help` lists them in this order.
 */
export const commands: Readonly<Record<string, CliCommand>> = {
  serve: serveCommand,
  worker: workerCommand,
  doctor: doctorCommand,
  'check-ask': checkAskCommand,
  'preview-ask': previewAskCommand,
  'tool-schema': toolSchemaCommand(),
  ask: askCommand(),
};
