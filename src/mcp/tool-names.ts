import { createHash } from 'node:crypto';

/**
 * Longest tool name the providers accept: Anthropic (`^[a-zA-Z0-9_-]{1,64}$`), OpenAI Responses and Chat
 * Completions (`^[a-zA-Z0-9_-]+$`, at most 64).
 */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The name the model sees for `tool` of MCP server `server`: `<server>_<tool>`, with every character the
 * providers refuse replaced by `_`, and cut to {@link MAX_TOOL_NAME_LENGTH} with a short digest of the
 * full name when longer (so two long names stay distinct). Pure.
 */
export function modelToolName(server: string, tool: string): string {
  const name = `${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const digest = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${digest}`;
}

/** The name approval rules match: `<server>.<tool>` (the tool's own MCP name). Pure. */
export function ruleToolName(server: string, tool: string): string {
  return `${server}.${tool}`;
}
