import type { FlexibleSchema } from 'ai';
import type { Escalation } from '../asks/types.js';

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  turnId: string;
  toolCallId: string;
  /** Aborted when the worker shuts down. */
  signal?: AbortSignal | undefined;
}

/** What an MCP server says about a tool (its `annotations`); all false when it says nothing. */
export interface ToolHints {
  /** `readOnlyHint`: it changes nothing. */
  readOnly: boolean;
  /** `destructiveHint`: it may destroy or overwrite something. */
  destructive: boolean;
  /** `idempotentHint`: running it twice with the same input does no more than once. */
  idempotent: boolean;
}

/** That a tool's calls need a person's approval before they run, and whose (from the config file's rules). */
export interface ToolApproval {
  /** User and user-group ids; null: the person who started the turn. */
  approvers: string[] | null;
  /** How long the approval waits, in ms; null: `ASK_TIMEOUT`. */
  timeoutMs: number | null;
  onTimeout: 'deny' | 'approve';
  /** Distinct approvers who must approve (1: the first decides); any single Deny denies. */
  quorum: number;
  /** Who else may approve after a while; null: the environment's (`ASK_ESCALATE_*`). */
  escalation: Escalation | null;
  /** Why: an approval rule matched, or the server marks the tool destructive. */
  reason: 'rule' | 'destructive';
}

/**
 * A tool the agent may call (other than `ask_question`, which the engine handles itself).
 * `execute` runs in a worker and may run more than once if the worker dies mid-step
 * (at-least-once); make side effects idempotent.
 */
export interface AgentTool<Input = unknown> {
  name: string;
  description: string;
  /**
   * Schema of the input (a zod schema, or the AI SDK's `jsonSchema(…)` of an MCP tool's JSON Schema); the
   * AI SDK validates calls against it and answers invalid ones itself.
   */
  inputSchema: FlexibleSchema<Input>;
  /** What the tool's server says about it (MCP annotations); absent: nothing. */
  hints?: ToolHints;
  /** Set when its calls need approval before they run. */
  approval?: ToolApproval | null;
  /** The MCP server and tool it calls, for logs and messages. */
  source?: { server: string; tool: string };
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
