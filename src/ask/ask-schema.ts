/**
 * The model-facing definition of the `ask_question` tool: name, description and a strict JSON Schema
 * generated from zod. The schema is what the model is shown; arguments are validated by
 * {@link decodeAskArguments} (lenient decoding), not by this zod schema, because models emit variants
 * the strict schema would reject (see DESIGN.md, "The ask_question contract", and the AI SDK note there).
 */
import { z } from 'zod';
import type { TimeoutPolicy } from './types.js';
import { ASK_LIMITS } from './types.js';

/** The tool name the model calls. */
export const ASK_TOOL_NAME = 'ask_question';

/**
 * The strict input shape advertised to the model. Every cap comes from {@link ASK_LIMITS}.
 * Note: zod's own `.max()` counts UTF-16 units; this schema exists to generate JSON Schema (whose
 * `maxLength` counts code points) and is not used to validate. Use `decodeAskArguments` to validate.
 */
export const askToolInputSchema = z.strictObject({
  questions: z
    .array(
      z.strictObject({
        header: z
          .string()
          .min(1)
          .max(ASK_LIMITS.headerMax)
          .describe('Very short title of the question, e.g. "Database". At most 60 characters.'),
        question: z
          .string()
          .min(1)
          .max(ASK_LIMITS.questionMax)
          .describe('The complete question, ending with "?". At most 200 characters.'),
        options: z
          .array(
            z.strictObject({
              label: z
                .string()
                .min(1)
                .max(ASK_LIMITS.labelMax)
                .describe('Button text: 1-5 words, at most 48 characters. Unique within the question.'),
              description: z
                .string()
                .max(ASK_LIMITS.descriptionMax)
                .describe('What choosing this option means or implies. At most 200 characters.'),
              recommended: z
                .boolean()
                .optional()
                .describe('true for the option you recommend. At most one for a single-select question.'),
            }),
          )
          .min(ASK_LIMITS.minOptions)
          .max(ASK_LIMITS.maxOptions)
          .optional()
          .describe(
            '2-4 distinct choices. Never include an "Other" option: people can always type their own answer. Omit options entirely for a free-text question.',
          ),
        multiSelect: z
          .boolean()
          .optional()
          .describe('true when several options may be chosen together. Default false.'),
        purpose: z
          .string()
          .max(ASK_LIMITS.purposeMax)
          .optional()
          .describe('Why you need the answer, shown to people as context. At most 200 characters.'),
      }),
    )
    .min(ASK_LIMITS.minQuestions)
    .max(ASK_LIMITS.maxQuestions)
    .describe('1-3 questions, all asked together in one message.'),
});

/** The strict input type the model is asked to produce (before lenient decoding). */
export type AskToolInput = z.infer<typeof askToolInputSchema>;

/** A complete, valid example call, repeated in the description and in every error result. */
export const ASK_EXAMPLE_CALL: AskToolInput = {
  questions: [
    {
      header: 'Database',
      question: 'Which database should the new billing service use?',
      options: [
        {
          label: 'Postgres',
          description: 'Shared cluster we already run; backups included.',
          recommended: true,
        },
        { label: 'SQLite', description: 'Embedded file; simplest, but one instance only.' },
      ],
      multiSelect: false,
      purpose: 'The schema migrations I am about to write depend on it.',
    },
    {
      header: 'Ticket',
      question: 'Which ticket should I link the change to?',
    },
  ],
};

/** What the description tells the model about timeouts, per policy (it must match what the timeout job does). */
const TIMEOUT_SENTENCES: Readonly<Record<TimeoutPolicy, string>> = {
  'recommended-or-first':
    'Timeout: if nobody answers in time, the question resolves to its recommended option (else its first option) and you are told that this was an assumption made by default, not an answer. Say so to the people when you act on it.',
  'recommended-only':
    'Timeout: if nobody answers in time, the question resolves to its recommended option, or to no answer when none is recommended, and you are told that this was an assumption made by default, not an answer. Say so to the people when you act on it.',
  'no-answer':
    'Timeout: if nobody answers in time, the question resolves to no answer (no option is picked for you) and you are told so. Do not act as if someone had chosen; say what you assume, or ask again.',
};

/**
 * The tool description the model reads: when to ask, how to batch, what never to author, and what a
 * timeout does under `policy` (so the model is never told something the timeout job will not do).
 */
export function askToolDescriptionFor(policy: TimeoutPolicy): string {
  return [
    'Pause and ask the people in this conversation 1-3 short questions, shown with buttons, then continue with their answers.',
    '',
    'When to ask: only when a decision really needs a person (a preference, a permission, missing facts you cannot find or safely infer). Do not ask what you can look up or decide yourself, and do not ask for confirmation of routine steps.',
    'Batch: put every question you need now into ONE call (at most 3). Do not call ask_question several times in a row.',
    'Options: give 2-4 distinct options per question, each with a short label (at most 48 characters) and a description. Never write an "Other" or "Something else" option: the surface always adds a free-text "Other" choice itself. Omit options for a question that needs a typed answer.',
    'Recommended: mark at most one option of a single-select question with "recommended": true (it is shown first). For multiSelect questions you may mark several.',
    TIMEOUT_SENTENCES[policy],
    'Caps (in characters): header 60, question 200, label 48, description 200, purpose 200.',
    '',
    'Example call:',
    JSON.stringify(ASK_EXAMPLE_CALL),
  ].join('\n');
}

/** The tool description under the default timeout policy (`recommended-or-first`). */
export const askToolDescription: string = askToolDescriptionFor('recommended-or-first');

/**
 * The JSON Schema (draft 2020-12) of the tool input, from `z.toJSONSchema`: `additionalProperties: false`
 * on every object, `minLength`/`maxLength` (code points, per JSON Schema) on strings, `minItems`/`maxItems`.
 */
export const askToolJsonSchema: Record<string, unknown> = z.toJSONSchema(askToolInputSchema) as Record<
  string,
  unknown
>;

/** The tool definition as printed by `holdpoint tool-schema` and handed to the model SDK. */
export interface AskToolDefinition {
  name: typeof ASK_TOOL_NAME;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The complete model-facing tool definition under a timeout policy. */
export function askToolDefinitionFor(policy: TimeoutPolicy): AskToolDefinition {
  return { name: ASK_TOOL_NAME, description: askToolDescriptionFor(policy), inputSchema: askToolJsonSchema };
}

/** The complete model-facing tool definition under the default timeout policy. */
export const askToolDefinition: AskToolDefinition = askToolDefinitionFor('recommended-or-first');
