import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { ModelProvider } from './parse-model-string.js';

export {
  MODEL_PROVIDERS,
  type ModelProvider,
  type ParsedModelString,
  parseModelString,
} from './parse-model-string.js';
export { type PingOptions, type PingResult, pingModel } from './ping-model.js';

/**
 * Everything needed to build a model client. No field is read from `process.env` here: the config module
 * resolves the environment and passes values in.
 */
export interface ModelSpec {
  provider: ModelProvider;
  /** The provider's model id, e.g. `claude-sonnet-4-5`, `gpt-4.1`, `llama3.1:8b`. */
  modelId: string;
  /**
   * API key. When omitted, `@ai-sdk/anthropic` reads `ANTHROPIC_API_KEY` and `@ai-sdk/openai` reads
   * `OPENAI_API_KEY` at request time (and fails the request if unset). For `openai-compatible` it defaults
   * to the placeholder `unused`, since local servers usually need none.
   */
  apiKey?: string;
  /**
   * API base URL including the version segment, e.g. `https://api.anthropic.com/v1`,
   * `http://localhost:11434/v1`. When omitted the SDK uses `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL` or
   * the public endpoint. Required in practice for `openai-compatible`.
   */
  baseURL?: string;
}

/**
 * A concrete model object (never the string form of `LanguageModel`): exposes `provider`
 * (`anthropic.messages`, `openai.responses`, `openai.chat`) and `modelId`. Assignable to `LanguageModel`.
 */
export type ProviderLanguageModel = Exclude<LanguageModel, string>;

/**
 * Builds an AI SDK 6 language model for a {@link ModelSpec}. Does no network I/O.
 * - `anthropic` → `createAnthropic({ apiKey, baseURL })(modelId)`: Messages API.
 * - `openai` → `createOpenAI({ apiKey, baseURL })(modelId)`: the Responses API (`@ai-sdk/openai` 3.x default).
 * - `openai-compatible` → `createOpenAI({ apiKey: apiKey ?? 'unused', baseURL }).chat(modelId)`: Chat Completions.
 *
 * `undefined` fields are not passed, so the SDK's environment fallbacks apply.
 */
export function createLanguageModel(spec: ModelSpec): ProviderLanguageModel {
  switch (spec.provider) {
    case 'anthropic':
      return createAnthropic(definedSettings(spec.apiKey, spec.baseURL))(spec.modelId);
    case 'openai':
      return createOpenAI(definedSettings(spec.apiKey, spec.baseURL))(spec.modelId);
    case 'openai-compatible':
      return createOpenAI(definedSettings(spec.apiKey ?? 'unused', spec.baseURL)).chat(spec.modelId);
  }
}

function definedSettings(
  apiKey: string | undefined,
  baseURL: string | undefined,
): { apiKey?: string; baseURL?: string } {
  return {
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseURL === undefined ? {} : { baseURL }),
  };
}
