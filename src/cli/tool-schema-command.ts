import { askToolDefinition } from '../ask/ask-schema.js';
import type { CliCommand } from './commands.js';

/** `holdpoint tool-schema`: prints the model-facing tool definition `{name, description, inputSchema}` as JSON. */
export const toolSchemaCommand: CliCommand = {
  summary: 'Print the ask_question tool definition {name, description, inputSchema} as JSON.',
  usage: 'holdpoint tool-schema',
  async run(argv, io) {
    if (argv.length > 0) {
      io.stderr('holdpoint tool-schema: takes no arguments\n');
      return 2;
    }
    io.stdout(`${JSON.stringify(askToolDefinition, null, 2)}\n`);
    return 0;
  },
};
