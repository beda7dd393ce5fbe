import { APICallError, generateText, type LanguageModel } from 'ai';

/** Outcome of {@link pingModel}. `ms` is the wall-clock time of the call in milliseconds. */
export type PingResult = { ok: true; ms: number } | { ok: false; ms: number; error: string };

/** Options for {@link pingModel}. */
export interface PingOptions {
  /** Abort the call after this many milliseconds. Default 15 000. */
  timeoutMs?: number;
}

/**
 * The smallest output budget each API accepts. The OpenAI Responses API rejects `max_output_tokens`
 * below 16 ("integer below minimum value. Expected a value >= 16"); the Messages and Chat Completions
 * APIs accept 1.
 */
function minimumOutputTokens(model: LanguageModel): number {
  return typeof model !== 'string' && model.provider.endsWith('.responses') ? 16 : 1;
}

/**
 * Checks that a model answers, for `holdpoint doctor`: one `generateText` call with the prompt `ping`,
 * `maxOutputTokens` 1 (16 for the OpenAI Responses API, its minimum), no retries. Never throws: a
 * failure (network, HTTP status, auth, timeout) comes back as `{ ok: false, error }` where `error` is a
 * one-line message including the HTTP status when there was one.
 */
export async function pingModel(model: LanguageModel, options: PingOptions = {}): Promise<PingResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    await generateText({
      model,
      prompt: 'ping',
      maxOutputTokens: minimumOutputTokens(model),
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    return { ok: true, ms: elapsed() };
  } catch (error) {
    return { ok: false, ms: elapsed(), error: describeError(error) };
  }
}

function describeError(error: unknown): string {
  if (APICallError.isInstance(error)) {
    return error.statusCode === undefined ? error.message : `HTTP ${error.statusCode}: ${error.message}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
