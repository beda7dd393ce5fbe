/**
 * Loads test/fixtures/ask_question/cases.json (a copy of the shared fixture, so a clone stands alone)
 * and reduces normalized asks to the fields the fixture states.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { NormalizedAsk } from '../../../src/ask/types.js';

/** The expected shape of one question in an ok case. */
export interface ExpectedQuestion {
  header: string | null;
  question: string;
  kind: 'choice' | 'free_text';
  multiSelect: boolean;
  optionLabels: string[] | null;
  recommended: string | null;
}

const expectedQuestionSchema = z.object({
  header: z.string().nullable(),
  question: z.string(),
  kind: z.enum(['choice', 'free_text']),
  multiSelect: z.boolean(),
  optionLabels: z.array(z.string()).nullable(),
  recommended: z.string().nullable(),
});

const caseSchema = z.object({
  name: z.string(),
  note: z.string(),
  args: z.unknown(),
  expect: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), questions: z.array(expectedQuestionSchema) }),
    z.object({ ok: z.literal(false), path: z.string(), limit: z.number().optional() }),
  ]),
});

/** One fixture case: raw arguments as the model sent them, and what must come out. */
export type AskCase = z.infer<typeof caseSchema>;

/** Absolute path of the fixture file. */
export const ASK_CASES_PATH = fileURLToPath(
  new URL('../../fixtures/ask_question/cases.json', import.meta.url),
);

/** Every case of the fixture file, validated. */
export function loadAskCases(): AskCase[] {
  const parsed = z
    .object({ cases: z.array(caseSchema) })
    .parse(JSON.parse(readFileSync(ASK_CASES_PATH, 'utf8')));
  return parsed.cases;
}

/** The fields the fixture states, from a normalized ask (recommended: the first recommended label). */
export function summarizeAsk(ask: NormalizedAsk): ExpectedQuestion[] {
  return ask.questions.map((question) => ({
    header: question.header,
    question: question.question,
    kind: question.kind,
    multiSelect: question.multiSelect,
    optionLabels: question.options?.map((option) => option.label) ?? null,
    recommended: question.options?.find((option) => option.recommended)?.label ?? null,
  }));
}
