import { describe, expect, it } from 'vitest';
import type { ApprovalRule } from '../config/config-file.js';
import { approvalOf } from './approval-of.js';

const rule = (tools: string[], extra: Partial<ApprovalRule> = {}): ApprovalRule => ({
  tools,
  approvers: ['S0ONCALL'],
  timeoutMs: 900_000,
  onTimeout: 'deny',
  approval: 'always',
  quorum: 1,
  escalation: null,
  ...extra,
});
const NONE = { readOnly: false, destructive: false, idempotent: false };
const DESTRUCTIVE = { ...NONE, destructive: true };
const RULES = [rule(['deploy.status'], { approval: 'never' }), rule(['deploy.*', '*.delete*'])];

describe('approvalOf', () => {
  it.each([
    ['deploy.rollback', NONE, 'rule'],
    ['github.delete_repo', NONE, 'rule'],
    ['deploy.status', DESTRUCTIVE, null], // approval: never wins over the hint
    ['github.list_repos', NONE, null],
    ['github.force_push', DESTRUCTIVE, 'destructive'],
    ['github.force_push', { ...DESTRUCTIVE, readOnly: true }, null],
  ] as const)('%s (%j) needs %s', (name, hints, reason) => {
    expect(approvalOf(name, hints, RULES)?.reason ?? null).toBe(reason);
  });

  it('a tool name with a / is matched like any other character (picomatch would stop * at it)', () => {
    const all = [rule(['*'])];
    expect(approvalOf('evil.admin/drop', NONE, all)?.reason).toBe('rule');
    expect(approvalOf('evil.admin/drop', NONE, [rule(['evil.admin/*'])])?.reason).toBe('rule');
    expect(approvalOf('evil.admin/drop', NONE, [rule(['evil.other*'])])).toBeNull();
  });

  it("a rule's approvers, timeout and onTimeout come with it; the hint's defaults are the requester and deny", () => {
    expect(approvalOf('deploy.rollback', NONE, RULES)).toEqual({
      approvers: ['S0ONCALL'],
      timeoutMs: 900_000,
      onTimeout: 'deny',
      quorum: 1,
      escalation: null,
      reason: 'rule',
    });
    expect(approvalOf('x.wipe', DESTRUCTIVE, [])).toEqual({
      approvers: null,
      timeoutMs: null,
      onTimeout: 'deny',
      quorum: 1,
      escalation: null,
      reason: 'destructive',
    });
  });
});
