import { type DecodeResult, decodeAskArguments } from '../ask/decode-ask-arguments.js';
import { formatAskError } from '../ask/format-ask-error.js';
import type { CliIo } from './cli-io.js';

/** Outcome of {@link readAskInput}: the raw tool input, or a one-line reason it could not be read. */
export type AskInputResult = { ok: true; raw: unknown } | { ok: false; message: string };

/**
 * Reads raw `ask_question` arguments for `check-ask` and `preview-ask` from a FILE or stdin (`-` or
 * absent). The text is parsed as JSON; a JSON string value stands for arguments that arrived as a string;
 * text that is not JSON is returned as is (the decoder then reports it as not valid JSON). A leading BOM is
 * ignored.
 * @param command the command name for the error line, e.g. `check-ask`
 * @param source a path, or `-` for stdin
 * @returns `{ ok: false, message }` with one line (`holdpoint <command>: cannot read <source>: <reason>`)
 *   when the source cannot be read
 */
export async function readAskInput(command: string, source: string, io: CliIo): Promise<AskInputResult> {
  let text: string;
  try {
    text = source === '-' ? await io.readStdin() : await io.readFile(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `holdpoint ${command}: cannot read ${source === '-' ? 'stdin' : source}: ${reason}`.replace(
        /\s*\n\s*/g,
        ' ',
      ),
    };
  }
  return { ok: true, raw: parseAskText(text) };
}

/** The text's JSON value; the raw text when it is not JSON (the decoder then reports it). */
export function parseAskText(text: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/**
 * Reads raw `ask_question` arguments from `source` and decodes them, printing what the model would get for
 * invalid arguments. Returns the decoded ask, or the exit code to stop with (2: unreadable input, 1: invalid).
 */
export async function readAndDecodeAsk(
  command: string,
  source: string,
  io: CliIo,
): Promise<{ ok: true; decoded: Extract<DecodeResult, { ok: true }> } | { ok: false; exitCode: 1 | 2 }> {
  const input = await readAskInput(command, source, io);
  if (!input.ok) {
    io.stderr(`${input.message}\n`);
    return { ok: false, exitCode: 2 };
  }
  const decoded = decodeAskArguments(input.raw);
  if (!decoded.ok) {
    io.stdout(`${formatAskError(decoded.issues)}\n`);
    return { ok: false, exitCode: 1 };
  }
  return { ok: true, decoded };
}
