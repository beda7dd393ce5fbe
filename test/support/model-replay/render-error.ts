import type { ReplayProvider } from './types.js';

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
};

/**
 * The provider's error envelope: Anthropic `{ type: 'error', error: { type, message } }`, OpenAI
 * `{ error: { message, type, param, code } }` (both Chat Completions and Responses).
 */
export function renderErrorBody(provider: ReplayProvider, status: number, message: string): unknown {
  if (provider === 'anthropic') {
    return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } };
  }
  return {
    error: {
      message,
      type: OPENAI_ERROR_TYPES[status] ?? 'server_error',
      param: null,
      code: status === 429 ? 'rate_limit_exceeded' : null,
    },
  };
}
