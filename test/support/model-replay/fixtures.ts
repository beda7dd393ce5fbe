import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReplayProvider } from './types.js';

/** Absolute path of `test/fixtures/models`. */
export const MODEL_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/models/', import.meta.url));

/** The fixture names (without extension) that exist for each provider. */
export const MODEL_FIXTURES = {
  anthropic: [
    'a-text-and-ask_question',
    'b-questions-json-string',
    'c-parallel-lookup_runbook-and-ask_question',
    'd-final-text',
  ],
  'openai-chat': ['a-text-and-ask_question', 'd-final-text'],
  'openai-responses': ['a-text-and-ask_question', 'd-final-text'],
} as const satisfies Record<ReplayProvider, readonly string[]>;

/** Path of `<provider>/<fixture>.json` or `.sse`. */
export function modelFixturePath(provider: ReplayProvider, fixture: string, stream: boolean): string {
  return `${MODEL_FIXTURES_DIR}${provider}/${fixture}.${stream ? 'sse' : 'json'}`;
}

/** One entry of `expected.json`: what the AI SDK yields for a fixture. */
export interface ExpectedModelResult {
  text: string;
  finishReason: string;
  toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown }>;
  usage: { inputTokens: number; outputTokens: number };
}

/** Reads `expected.json` entry `<provider>/<fixture>`; throws if it is missing. */
export function expectedModelResult(provider: ReplayProvider, fixture: string): ExpectedModelResult {
  const all = JSON.parse(readFileSync(`${MODEL_FIXTURES_DIR}expected.json`, 'utf8')) as Record<
    string,
    ExpectedModelResult
  >;
  const entry = all[`${provider}/${fixture}`];
  if (entry === undefined) throw new Error(`expected.json has no entry ${provider}/${fixture}`);
  return entry;
}

/** Reads a recorded continuation request body, `requests/<provider>.<fixture>.<generate|stream>.request.json`. */
export function recordedRequestBody(
  provider: ReplayProvider,
  fixture: string,
  mode: 'generate' | 'stream',
): unknown {
  return JSON.parse(
    readFileSync(`${MODEL_FIXTURES_DIR}requests/${provider}.${fixture}.${mode}.request.json`, 'utf8'),
  );
}
