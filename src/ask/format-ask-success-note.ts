import { ASK_TOOL_NAME } from './ask-schema.js';

/**
 * The note added to a successful `ask_question` tool result when unknown keys were dropped, so the
 * model learns without an error round trip (CASES.md C22).
 * @param ignoredKeys key paths from `decodeAskArguments`, e.g. `questions[0].allow_other`
 * @returns one line, or null when nothing was ignored
 */
export function formatAskSuccessNote(ignoredKeys: readonly string[]): string | null {
  if (ignoredKeys.length === 0) {
    return null;
  }
  return `Note: these keys are not part of ${ASK_TOOL_NAME} and were ignored: ${ignoredKeys.join(', ')}. The question was asked without them.`;
}
