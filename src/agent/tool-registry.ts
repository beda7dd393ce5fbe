import type { ZodType } from 'zod';

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  turnId: string;
  toolCallId: string;
  /** Aborted when the worker shuts down. */
  signal?: AbortSignal | undefined;
}

/**
 * A tool the agent may call (other than `ask_question`, which the engine handles itself).
 * `execute` runs in a worker and may run more than once if the worker dies mid-step
 * (at-least-once); make side effects idempotent.
 */
export interface AgentTool<Input = unknown> {
  name: string;
  description: string;
  /** zod schema of the input; the AI SDK validates calls against it and answers invalid ones itself. */
  inputSchema: ZodType<Input>;
  /** Returns the tool result as text (or JSON-safe data, serialized as JSON text). Throwing yields an error result. */
  execute(input: Input, context: ToolContext): Promise<unknown>;
}

/** Tools by name. Build with {@link createToolRegistry}. */
export type ToolRegistry = ReadonlyMap<string, AgentTool>;

/**
 * Builds a registry from a list of tools.
 * @throws Error when two tools share a name or a tool is named `ask_question`.
 */
export function createToolRegistry(tools: readonly AgentTool[]): ToolRegistry {
  const registry = new Map<string, AgentTool>();
  for (const tool of tools) {
    if (tool.name === 'ask_question')
      throw new Error('ask_question is built in; do not register it as a tool');
    if (registry.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    registry.set(tool.name, tool);
  }
  return registry;
}
