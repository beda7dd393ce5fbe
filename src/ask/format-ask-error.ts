import { ASK_EXAMPLE_CALL, ASK_TOOL_NAME } from './ask-schema.js';
import type { AskIssue } from './decode-ask-arguments.js';

/**
 * The error tool result text the model receives for invalid `ask_question` arguments: a first line saying
 * nothing was asked, one line per issue (its message, which names the path, then rule, limit and actual
 * value or length in brackets), then the example call to copy.
 * @param issues the issues from `decodeAskArguments` (an empty list still yields a usable text)
 * @returns plain text, several lines, ending with the example call as one line of JSON
 */
export function formatAskError(issues: readonly AskIssue[]): string {
  const lines = [`${ASK_TOOL_NAME} was not called correctly, so nothing was asked. Fix these problems:`];
  for (const issue of issues) {
    lines.push(`- ${issue.message} [${details(issue)}]`);
  }
  if (issues.length === 0) {
    lines.push('- the arguments could not be used');
  }
  lines.push(`Call ${ASK_TOOL_NAME} again with corrected arguments, for example:`);
  lines.push(JSON.stringify(ASK_EXAMPLE_CALL));
  return lines.join('\n');
}

function details(issue: AskIssue): string {
  const parts = [`rule: ${issue.rule}`];
  if (issue.limit !== undefined) {
    parts.push(`limit: ${issue.limit}`);
  }
  if (issue.actual !== undefined) {
    parts.push(`actual: ${typeof issue.actual === 'number' ? issue.actual : JSON.stringify(issue.actual)}`);
  }
  return parts.join(', ');
}
