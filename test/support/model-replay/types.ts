import type { IncomingHttpHeaders } from 'node:http';

/**
 * The three wire protocols the replay server speaks, named like the fixture folders:
 * - `anthropic`: `POST /v1/messages` (Anthropic Messages API; `anthropic(id)`).
 * - `openai-chat`: `POST /v1/chat/completions` (`openai.chat(id)`, also `openai-compatible` models).
 * - `openai-responses`: `POST /v1/responses` (`openai(id)`, the `@ai-sdk/openai` 3.x default).
 */
export type ReplayProvider = 'anthropic' | 'openai-chat' | 'openai-responses';

/** A tool call in a {@link GeneratedStep}. */
export interface GeneratedToolCall {
  /** Tool name as the model would emit it (registered or not). */
  name: string;
  /** The arguments object; sent as `input` (Anthropic) or as a compact JSON string in `arguments` (OpenAI). */
  input: unknown;
  /**
   * The call id the SDK will report as `toolCallId`: Anthropic `tool_use.id`, Chat `tool_calls[].id`,
   * Responses `call_id`. Default: a deterministic fake in the provider's format (`toolu_01…`, `call_…`).
   */
  id?: string;
}

/**
 * One model step rendered in the provider's exact wire format (JSON or SSE, chosen by the request's
 * `stream`). With tool calls the stop reason is `tool_use` / `tool_calls` (SDK `finishReason`
 * `tool-calls`), otherwise `end_turn` / `stop` (SDK `stop`).
 */
export interface GeneratedStep {
  /** Assistant text, emitted before the tool calls. Omitted or `''`: no text block/item. */
  text?: string;
  toolCalls?: GeneratedToolCall[];
  /** Token usage to report. Default `{ inputTokens: 1000, outputTokens: 50 }`. */
  usage?: { inputTokens: number; outputTokens: number };
  /** Wait this many milliseconds before answering (headers included). */
  delayMs?: number;
  /** When streaming: wait this many milliseconds between server-sent events (a model that writes slowly). */
  eventDelayMs?: number;
}

/** Serve a recorded fixture `test/fixtures/models/<provider>/<fixture>.json` (or `.sse` when streaming). */
export interface FixtureResponse {
  fixture: string;
  /** Wait this many milliseconds before answering. */
  delayMs?: number;
}

/**
 * An HTTP error from the provider. The SDK retries 408/409/429/5xx (`maxRetries`, default 2), so a test
 * that wants one failure to surface should pass `maxRetries: 0` or enqueue the error three times.
 */
export interface ErrorResponse {
  status: number;
  /** Response body; default: the provider's error envelope with a message naming the status. */
  body?: unknown;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * What to answer one request with: a fixture name (shorthand for `{ fixture }`), a
 * {@link FixtureResponse}, a {@link GeneratedStep} or an {@link ErrorResponse} (told apart by the
 * `fixture` and `status` keys).
 */
export type ScriptedResponse = string | FixtureResponse | GeneratedStep | ErrorResponse;

/** One request the replay server received. */
export interface RecordedRequest {
  provider: ReplayProvider;
  method: string;
  /** URL path, e.g. `/v1/messages`. */
  path: string;
  /** The parsed JSON body (`undefined` if it was not JSON). */
  body: unknown;
  /** `true` when the body had `"stream": true`. */
  stream: boolean;
  headers: IncomingHttpHeaders;
  /** Arrival time, `Date.now()` in milliseconds. */
  time: number;
  /** What was served, for failure messages: `fixture a-text-and-ask_question.sse`, `step`, `error 429`, `unscripted`. */
  served: string;
}
