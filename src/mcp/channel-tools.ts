import type { ToolRegistry } from '../agent/tool-registry.js';
import type { ApprovalRule } from '../config/config-file.js';
import { approvalOf, matchesToolGlob } from './approval-of.js';

const NO_HINTS = { readOnly: false, destructive: false, idempotent: false };

/**
 * The tools of a channel: those whose `<server>.<tool>` matches one of `globs` (null: every tool), each with
 * the approval `rules` decide for it (the channel's rules first; a tool of no server keeps its own). Pure.
 */
export function channelTools(
  tools: ToolRegistry,
  globs: readonly string[] | null,
  rules: readonly ApprovalRule[],
): ToolRegistry {
  const scoped = new Map<string, typeof tools extends ReadonlyMap<string, infer T> ? T : never>();
  for (const [name, tool] of tools) {
    if (!tool.source) {
      scoped.set(name, tool);
      continue;
    }
    const ruleName = `${tool.source.server}.${tool.source.tool}`;
    if (globs !== null && !globs.some((glob) => matchesToolGlob(ruleName, glob))) continue;
    scoped.set(name, { ...tool, approval: approvalOf(ruleName, tool.hints ?? NO_HINTS, rules) });
  }
  return scoped;
}
