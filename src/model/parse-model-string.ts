import { ConfigError } from '../errors.js';

/**
 * The model providers holdpoint can talk to.
 * - `anthropic`: Anthropic Messages API (`POST {baseURL}/messages`).
 * - `openai`: OpenAI Responses API (`POST {baseURL}/responses`), the `@ai-sdk/openai` 3.x default.
 * - `openai-compatible`: OpenAI Chat Completions (`POST {baseURL}/chat/completions`), the API that local
 *   servers such as Ollama, vLLM and LM Studio speak.
 */
export type ModelProvider = 'anthropic' | 'openai' | 'openai-compatible';

/** Every accepted {@link ModelProvider}, in the order they are listed in error messages. */
export const MODEL_PROVIDERS: readonly ModelProvider[] = ['anthropic', 'openai', 'openai-compatible'];

/** A provider and the provider's own model id, e.g. `{ provider: 'anthropic', modelId: 'claude-sonnet-4-5' }`. */
export interface ParsedModelString {
  provider: ModelProvider;
  modelId: string;
}

function isModelProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

/**
 * Splits a `<provider>:<modelId>` string (the `HOLDPOINT_MODEL` form), e.g. `anthropic:claude-sonnet-4-5`,
 * `openai:gpt-4.1`, `openai-compatible:llama3.1:8b`. Only the first `:` separates: the model id may itself
 * contain colons (Ollama tags do). Surrounding whitespace of the whole string and of each part is ignored.
 *
 * @throws {ConfigError} code `config_model_invalid` when there is no `:`, the provider is not one of
 *   {@link MODEL_PROVIDERS} (case-sensitive), or the model id is empty.
 */
export function parseModelString(value: string): ParsedModelString {
  const trimmed = value.trim();
  const separator = trimmed.indexOf(':');
  const expected = `expected "<provider>:<model id>" with provider one of ${MODEL_PROVIDERS.join(', ')}, e.g. "anthropic:claude-sonnet-4-5"`;
  if (separator < 0) {
    throw new ConfigError('config_model_invalid', `Invalid model "${value}": ${expected}.`, {
      fields: { model: value },
    });
  }
  const provider = trimmed.slice(0, separator).trim();
  const modelId = trimmed.slice(separator + 1).trim();
  if (!isModelProvider(provider)) {
    throw new ConfigError(
      'config_model_invalid',
      `Invalid model "${value}": unknown provider "${provider}"; ${expected}.`,
      { fields: { model: value, provider } },
    );
  }
  if (modelId === '') {
    throw new ConfigError(
      'config_model_invalid',
      `Invalid model "${value}": the model id is empty; ${expected}.`,
      {
        fields: { model: value, provider },
      },
    );
  }
  return { provider, modelId };
}
