import type { ToolCallPart } from 'ai';
import { truncateCodePoints } from '../ask/code-points.js';
import { ASK_LIMITS, type AskQuestion, type QuestionResolution } from '../ask/types.js';
import { type AnswererPolicy, APPROVAL_OPTIONS, type ApprovalCall } from '../asks/types.js';
import type { AgentTool, ToolApproval } from './tool-registry.js';

/** Most gated calls one approval decides (the ask's question cap); more in one step get the next approval. */
export const MAX_APPROVAL_CALLS = ASK_LIMITS.maxQuestions;

/** A gated call with its tool. */
export interface GatedCall {
  call: ToolCallPart;
  tool: AgentTool & { approval: ToolApproval };
}

/** The approval's record of a gated call. Pure. */
export function approvalCallOf({ call, tool }: GatedCall): ApprovalCall {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    server: tool.source?.server ?? null,
    tool: tool.source?.tool ?? call.toolName,
    input: call.input,
  };
}

/**
 * The question that asks for one gated call: "Approve <server>.<tool>?" with the options Approve and
 * Deny, the one its rule's `onTimeout` picks marked recommended (so the ask's timeout picks it), and the
 * model's text of the step as the reason. Pure.
 */
export function approvalQuestion(gated: GatedCall, reason: string | null): AskQuestion {
  const { server, tool } = approvalCallOf(gated);
  const name = server ? `${server}.${tool}` : tool;
  const onTimeout = gated.tool.approval.onTimeout;
  return {
    header: truncateCodePoints(`Approve ${name}?`, ASK_LIMITS.headerMax),
    question: truncateCodePoints(
      server
        ? `The agent wants to run ${tool} on the MCP server ${server}, with these arguments:`
        : `The agent wants to run ${tool}, with these arguments:`,
      ASK_LIMITS.questionMax,
    ),
    kind: 'choice',
    multiSelect: false,
    purpose:
      reason && reason.trim().length > 0 ? truncateCodePoints(reason.trim(), ASK_LIMITS.purposeMax) : null,
    options: [
      { label: APPROVAL_OPTIONS.approve, description: null, recommended: onTimeout === 'approve' },
      { label: APPROVAL_OPTIONS.deny, description: null, recommended: onTimeout === 'deny' },
    ],
  };
}

/** Who may decide: the rule's approvers (user and user-group ids), or the person who started the turn. Pure. */
export function approversPolicy(approval: ToolApproval): AnswererPolicy {
  if (approval.approvers === null) return { mode: 'requester' };
  return {
    mode: 'list',
    userIds: approval.approvers.filter((id) => !id.startsWith('S')),
    groupIds: approval.approvers.filter((id) => id.startsWith('S')),
  };
}

/** What a decided approval means for its call. */
export type ApprovalDecision = { run: true; prefix: string } | { run: false; text: string };

/**
 * What one question's resolution decides for its call, and what the model is told: Approve runs it (the
 * result says who approved, or that nobody answered and the default was to approve); Deny, a typed answer
 * (a reason), a cancel or a timeout that picked Deny do not, and the text says by whom and why. Pure.
 */
export function approvalDecision(
  call: ApprovalCall,
  resolution: QuestionResolution,
  timeoutMs: number,
): ApprovalDecision {
  const who = resolution.answeredBy ?? 'someone';
  const within = duration(timeoutMs);
  const approved = resolution.selected.includes(APPROVAL_OPTIONS.approve) && resolution.other === null;
  if (resolution.status === 'answered' && approved) return { run: true, prefix: `(Approved by ${who}.) ` };
  if (resolution.status === 'assumed' && resolution.source === 'timeout' && approved)
    return {
      run: true,
      prefix: `(Nobody answered within ${within}; approved by default, as its rule says.) `,
    };
  const name = call.toolName;
  if (resolution.status === 'answered') {
    const reason = resolution.other?.trim();
    return {
      run: false,
      text: reason
        ? `Not run: ${who} denied ${name}, saying: "${reason}". Nothing was executed.`
        : `Not run: ${who} denied ${name}. Nothing was executed.`,
    };
  }
  if (resolution.status === 'canceled')
    return { run: false, text: `Not run: ${who} canceled the approval of ${name}. Nothing was executed.` };
  if (resolution.source === 'not_shown')
    return {
      run: false,
      text: `Not run: the approval of ${name} could not be shown in Slack, so nobody could approve it. Nothing was executed.`,
    };
  return {
    run: false,
    text: `Not run: nobody approved ${name} within ${within}, and the default is to deny. Nothing was executed. This is not a person's decision; you may ask again.`,
  };
}

/** `45 seconds`, `15 minutes`, `2 hours`. */
function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} seconds`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120 || minutes % 60 !== 0) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return `${minutes / 60} hours`;
}
