/** The `ask_question` tool contract: schema, lenient decoding, timeout assumptions and result texts. Pure. */
export type { AskToolDefinition, AskToolInput } from './ask-schema.js';
export {
  ASK_EXAMPLE_CALL,
  ASK_TOOL_NAME,
  askToolDefinition,
  askToolDefinitionFor,
  askToolDescription,
  askToolDescriptionFor,
  askToolInputSchema,
  askToolJsonSchema,
} from './ask-schema.js';
export { assumeOpenQuestions, assumeResolution } from './assume-resolution.js';
export { codePointLength, truncateCodePoints } from './code-points.js';
export type { AskIssue, DecodeResult } from './decode-ask-arguments.js';
export { decodeAskArguments, MAX_IGNORED_KEYS, MAX_ISSUES } from './decode-ask-arguments.js';
export { formatAskError } from './format-ask-error.js';
export type { AskResultAnswer, AskResultJson, FormatAskResultOptions } from './format-ask-result.js';
export { formatAskResult, parseAskResultJson } from './format-ask-result.js';
export { formatAskSuccessNote } from './format-ask-success-note.js';
export * from './types.js';
