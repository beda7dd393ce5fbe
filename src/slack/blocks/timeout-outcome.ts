/**
 * What the timeout policy will pick for a question, for the "No answer by …? I'll assume …" line.
 * Mirrors the policy of DESIGN.md ("The ask_question contract") without depending on src/ask internals:
 * - `recommended-or-first`: the recommended option(s), else the first option; free text: nothing.
 * - `recommended-only`: the recommended option(s), else nothing.
 * - `no-answer`: nothing.
 * A single-select question contributes at most one (the first) recommended option. Pure.
 */
import type { AskQuestion, TimeoutPolicy } from '../../ask/types.js';

/** The labels the timeout would pick for `question` under `policy` (empty: no option). */
export function timeoutPickLabels(question: AskQuestion, policy: TimeoutPolicy): string[] {
  const options = question.options;
  if (question.kind === 'free_text' || options === null || options.length === 0 || policy === 'no-answer') {
    return [];
  }
  const recommended = options.filter((option) => option.recommended).map((option) => option.label);
  const picked = question.multiSelect ? recommended : recommended.slice(0, 1);
  if (picked.length > 0) return picked;
  const first = options[0];
  return policy === 'recommended-or-first' && first !== undefined ? [first.label] : [];
}
