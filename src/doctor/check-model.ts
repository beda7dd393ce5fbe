import { redactUrl } from '../config/redact-url.js';
import type { ModelConfig } from '../config/types.js';
import { createLanguageModel, pingModel } from '../model/create-model.js';
import type { DoctorCheck } from './doctor-check.js';

/** Options of {@link checkModel}. */
export interface ModelDoctorOptions {
  /** Abort the call after this many ms. Default 15 000. */
  timeoutMs?: number;
}

/**
 * One tiny model call ({@link pingModel}: the prompt `ping`, one output token, no retries) with the
 * configured provider, model id, key and base URL: the `Model` line, with a fix that names the variable
 * to look at (key for 401/403, MODEL for 404, base URL for network errors).
 */
export async function checkModel(model: ModelConfig, options: ModelDoctorOptions = {}): Promise<DoctorCheck> {
  const label = `${model.provider}:${model.modelId}`;
  const where = model.baseURL === undefined ? '' : ` at ${redactUrl(model.baseURL)}`;
  const result = await pingModel(
    createLanguageModel(model),
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  if (result.ok) {
    return { name: 'Model', ok: true, detail: `${label}${where} answered in ${result.ms} ms` };
  }
  return {
    name: 'Model',
    ok: false,
    detail: `${label}${where} failed after ${result.ms} ms: ${result.error.replace(/\s+/g, ' ')}`,
    fix: modelFix(model, result.error),
  };
}

function modelFix(model: ModelConfig, error: string): string {
  const keyVariable = model.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  const baseVariable = model.provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL';
  const status = /^HTTP (\d{3})/.exec(error)?.[1];
  if (status === '401' || status === '403') {
    return `Check ${keyVariable}: the provider refused the key.`;
  }
  if (status === '404') {
    return `Check the model id in MODEL (${model.provider}:${model.modelId}) and ${baseVariable}: the provider does not know this model or path.`;
  }
  if (status === '429') {
    return 'The provider is rate limiting or the account is out of credit: check the plan and try again later.';
  }
  if (status !== undefined) {
    return `The provider answered HTTP ${status}: check its status page, MODEL and ${baseVariable}.`;
  }
  return `Check that ${model.baseURL === undefined ? 'the provider API' : baseVariable} is reachable from this machine (DNS, proxy, firewall), and ${keyVariable}.`;
}
