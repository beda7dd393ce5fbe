import { formatAskSuccessNote } from '../ask/format-ask-success-note.js';
import type { NormalizedAsk } from '../ask/types.js';
import { readAndDecodeAsk } from './ask-input.js';
import type { CliCommand } from './commands.js';

/**
 * `holdpoint check-ask [FILE|-]`: decodes raw `ask_question` arguments (JSON; a JSON string value stands
 * for arguments that arrived as a string; text that is not JSON is taken as arguments that arrived as that
 * text). Valid: prints the normalized ask as JSON on stdout (a note on ignored keys goes to stderr), exit 0.
 * Invalid: prints the error tool result the model would receive, exit 1. Unreadable input: one line on
 * stderr, exit 2.
 */
export const checkAskCommand: CliCommand = {
  summary: 'Decode ask_question arguments: print the normalized ask, or the error the model would get.',
  usage: 'holdpoint check-ask [FILE|-]    (reads stdin when FILE is - or absent)',
  async run(argv, io) {
    if (argv.length > 1) {
      io.stderr(`holdpoint check-ask: expected at most one FILE, got ${argv.length} arguments\n`);
      return 2;
    }
    const read = await readAndDecodeAsk('check-ask', argv[0] ?? '-', io);
    if (!read.ok) return read.exitCode;
    const result = read.decoded;
    io.stdout(`${JSON.stringify(toOutput(result.ask), null, 2)}\n`);
    const note = formatAskSuccessNote(result.ignoredKeys);
    if (note !== null) {
      io.stderr(`${note}\n`);
    }
    return 0;
  },
};

/** The documented output shape, keys in a fixed order. */
function toOutput(ask: NormalizedAsk): NormalizedAsk {
  return {
    questions: ask.questions.map((question) => ({
      header: question.header,
      question: question.question,
      kind: question.kind,
      multiSelect: question.multiSelect,
      purpose: question.purpose,
      options:
        question.options?.map((option) => ({
          label: option.label,
          description: option.description,
          recommended: option.recommended,
        })) ?? null,
    })),
  };
}
