/**
 * Most characters of one tool result that reach the model: 16,000 (about 4,000 tokens), so one chatty
 * tool cannot fill the context window or the stored turn. Longer output is cut, and the model is told.
 */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;

/** The parts of an MCP `CallToolResult` that {@link toolOutputText} reads. */
export interface McpCallResult {
  content?: ReadonlyArray<{
    type: string;
    text?: unknown;
    mimeType?: unknown;
    uri?: unknown;
    resource?: unknown;
  }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * The text a model gets for an MCP tool result: the text parts joined by blank lines; other parts as a
 * one-line note (`[image/png image omitted]`); `structuredContent` as JSON when there is no text; cut to
 * `maxChars` with a note saying how much was left out. Pure.
 */
export function toolOutputText(result: McpCallResult, maxChars: number = MAX_TOOL_OUTPUT_CHARS): string {
  const parts: string[] = [];
  for (const part of result.content ?? []) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (part.type === 'image' || part.type === 'audio')
      parts.push(`[${typeof part.mimeType === 'string' ? part.mimeType : part.type} ${part.type} omitted]`);
    else if (part.type === 'resource_link' && typeof part.uri === 'string')
      parts.push(`[resource ${part.uri}]`);
    else parts.push(`[${part.type} content omitted]`);
  }
  let text = parts.join('\n\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text === '') text = '(no output)';
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[output cut: ${text.length.toLocaleString('en-US')} characters, the first ${maxChars.toLocaleString('en-US')} shown]`;
}
