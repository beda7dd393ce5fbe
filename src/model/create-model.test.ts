import { describe, expect, it } from 'vitest';
import { createLanguageModel, type ModelSpec } from './create-model.js';

describe('createLanguageModel', () => {
  it.each<[ModelSpec, string]>([
    [{ provider: 'anthropic', modelId: 'claude-sonnet-4-5', apiKey: 'k' }, 'anthropic.messages'],
    [{ provider: 'openai', modelId: 'gpt-4.1', apiKey: 'k' }, 'openai.responses'],
    [
      { provider: 'openai-compatible', modelId: 'llama3.1:8b', baseURL: 'http://127.0.0.1:11434/v1' },
      'openai.chat',
    ],
  ])('%j builds a %s model', (spec, provider) => {
    const model = createLanguageModel(spec);
    expect(model.provider).toBe(provider);
    expect(model.modelId).toBe(spec.modelId);
    expect(model.specificationVersion).toBe('v3');
  });
});
