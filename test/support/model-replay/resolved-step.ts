/** A tool call with every id fixed, ready to render. */
export interface ResolvedToolCall {
  /** The call id the SDK reports as `toolCallId` (`toolu_01…`, `call_…`). */
  id: string;
  /** Responses only: the output item id (`fc_…`). */
  itemId: string;
  name: string;
  input: unknown;
}

/**
 * A {@link GeneratedStep} with ids, model name, timestamps and usage fixed, so that rendering is a pure
 * function (the unit tests rebuild the fixtures from one of these).
 */
export interface ResolvedStep {
  /** Anthropic `msg_01…`, Chat `chatcmpl-…`, Responses `resp_…`. */
  id: string;
  /** Responses only: the `message` output item id (`msg_…`). */
  messageItemId: string;
  /** Model name echoed in the response. */
  model: string;
  /** Unix time in seconds (Chat `created`, Responses `created_at`). */
  created: number;
  /** Assistant text; `undefined` or `''` means none. */
  text: string | undefined;
  toolCalls: ResolvedToolCall[];
  usage: { inputTokens: number; outputTokens: number };
  /** Responses only: the `tools` array echoed in the response object. */
  tools: unknown[];
}

/** A rendered HTTP response body. */
export interface RenderedBody {
  contentType: string;
  body: string;
}

/** Whether the step has text to emit. */
export function hasText(step: ResolvedStep): step is ResolvedStep & { text: string } {
  return step.text !== undefined && step.text !== '';
}
