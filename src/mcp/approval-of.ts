import picomatch from 'picomatch';
import type { ToolApproval, ToolHints } from '../agent/tool-registry.js';
import type { ApprovalRule } from '../config/config-file.js';

/**
 * Whether `glob` matches the tool `ruleName` (`<server>.<tool>`). picomatch treats `/` as a path separator
 * (`*` would not cross it): `/` is matched as `|`, on both sides. Pure.
 */
export function matchesToolGlob(ruleName: string, glob: string): boolean {
  return picomatch.isMatch(ruleName.replaceAll('/', '|'), glob.replaceAll('/', '|'), { dot: true });
}

/**
 * Whether calls of `ruleName` (`<server>.<tool>`) need approval: the first rule whose globs match decides
 * (`approval: never`: no approval); without a matching rule, a tool its server marks destructive (and not
 * read-only) needs the turn's requester's approval, denied after `ASK_TIMEOUT`. Pure.
 * @returns the approval it needs, or null when it runs without one
 */
export function approvalOf(
  ruleName: string,
  hints: ToolHints,
  rules: readonly ApprovalRule[],
): ToolApproval | null {
  for (const rule of rules) {
    if (!rule.tools.some((glob) => matchesToolGlob(ruleName, glob))) continue;
    if (rule.approval === 'never') return null;
    return {
      approvers: rule.approvers,
      timeoutMs: rule.timeoutMs,
      onTimeout: rule.onTimeout,
      quorum: rule.quorum,
      escalation: rule.escalation,
      reason: 'rule',
    };
  }
  if (hints.destructive && !hints.readOnly)
    return {
      approvers: null,
      timeoutMs: null,
      onTimeout: 'deny',
      quorum: 1,
      escalation: null,
      reason: 'destructive',
    };
  return null;
}
