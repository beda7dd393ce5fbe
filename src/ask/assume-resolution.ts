import type { AskQuestion, QuestionResolution, TimeoutPolicy } from './types.js';

/**
 * The `assumed` resolution of a question nobody answered (deadline passed, or the ask could not be shown).
 * - `recommended-or-first` (default): the recommended option (every recommended option for multi-select),
 *   assumption `recommended`; else the first option, assumption `first_option`.
 * - `recommended-only`: the recommended option(s), else no option (assumption `no_answer`).
 * - `no-answer`: no option (assumption `no_answer`).
 * A free-text question always resolves to no answer.
 * @param question the normalized question
 * @param policy the operator's timeout policy
 * @param at ISO 8601 time of the resolution (stored as `answeredAt`)
 * @param source `timeout` (the deadline passed) or `not_shown` (posting failed)
 * @returns a resolution with status `assumed`, `other` and `answeredBy` null
 */
export function assumeResolution(
  question: AskQuestion,
  policy: TimeoutPolicy,
  at: string,
  source: 'timeout' | 'not_shown',
): QuestionResolution {
  const base = { status: 'assumed' as const, other: null, answeredBy: null, answeredAt: at, source };
  const options = question.kind === 'choice' ? (question.options ?? []) : [];
  if (policy === 'no-answer' || options.length === 0) {
    return { ...base, selected: [], assumption: 'no_answer' };
  }
  const recommended = options.filter((option) => option.recommended).map((option) => option.label);
  const picked = question.multiSelect ? recommended : recommended.slice(0, 1);
  if (picked.length > 0) {
    return { ...base, selected: picked, assumption: 'recommended' };
  }
  const first = options[0];
  if (policy === 'recommended-or-first' && first !== undefined) {
    return { ...base, selected: [first.label], assumption: 'first_option' };
  }
  return { ...base, selected: [], assumption: 'no_answer' };
}

/**
 * {@link assumeResolution} for every question of an ask, in order (callers keep answered ones).
 * @returns one resolution per question
 */
export function assumeOpenQuestions(
  questions: readonly AskQuestion[],
  policy: TimeoutPolicy,
  at: string,
  source: 'timeout' | 'not_shown',
): QuestionResolution[] {
  return questions.map((question) => assumeResolution(question, policy, at, source));
}
