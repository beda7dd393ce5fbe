import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { parseModelString } from './parse-model-string.js';

describe('parseModelString', () => {
  it.each([
    ['anthropic:claude-sonnet-4-5', { provider: 'anthropic', modelId: 'claude-sonnet-4-5' }],
    ['openai:gpt-4.1', { provider: 'openai', modelId: 'gpt-4.1' }],
    ['openai-compatible:llama3.1:8b', { provider: 'openai-compatible', modelId: 'llama3.1:8b' }],
    [
      'openai-compatible:Qwen/Qwen2.5-7B-Instruct',
      { provider: 'openai-compatible', modelId: 'Qwen/Qwen2.5-7B-Instruct' },
    ],
    ['  openai : gpt-4.1-mini  ', { provider: 'openai', modelId: 'gpt-4.1-mini' }],
  ])('parses %j', (input, expected) => {
    expect(parseModelString(input)).toEqual(expected);
  });

  it.each([
    ['claude-sonnet-4-5', /expected "<provider>:<model id>"/],
    ['', /expected "<provider>:<model id>"/],
    ['gemini:gemini-2.5-pro', /unknown provider "gemini"/],
    ['Anthropic:claude-sonnet-4-5', /unknown provider "Anthropic"/],
    [':gpt-4.1', /unknown provider ""/],
    ['openai:', /the model id is empty/],
    ['anthropic:   ', /the model id is empty/],
  ])('rejects %j with a ConfigError', (input, message) => {
    let caught: unknown;
    try {
      parseModelString(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect(caught).toMatchObject({ code: 'config_model_invalid', message: expect.stringMatching(message) });
    expect(String((caught as Error).message)).toContain('anthropic, openai, openai-compatible');
  });
});
