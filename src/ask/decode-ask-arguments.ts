/**
 * Lenient decoding, validation and normalization of raw `ask_question` arguments
 * (DESIGN.md, "The ask_question contract"; issue 2). Pure; never throws.
 */
import { type AskIssue, IssueCollector } from './ask-issues.js';
import {
  checkMaxLength,
  errorText,
  isGiven,
  isRecord,
  type Json,
  keyPath,
  readBoolean,
  readText,
  typeName,
  unwrapJsonString,
} from './decode-ask-fields.js';
import { decodeAskOptions, orderRecommended } from './decode-ask-options.js';
import type { AskQuestion, NormalizedAsk } from './types.js';
import { ASK_LIMITS } from './types.js';

export type { AskIssue } from './ask-issues.js';
export { MAX_IGNORED_KEYS, MAX_ISSUES } from './ask-issues.js';

/**
 * Outcome of {@link decodeAskArguments}.
 * - ok: the normalized ask, plus the paths of unknown keys that were dropped (for the success note),
 *   e.g. `questions[0].allow_other`, `questions[0].options[0].value`, `reason`.
 * - not ok: every issue found (at most {@link MAX_ISSUES}), to send back with `formatAskError`.
 */
export type DecodeResult =
  | { ok: true; ask: NormalizedAsk; ignoredKeys: string[] }
  | { ok: false; issues: AskIssue[] };

/** Items of an over-long `questions` array that are still inspected for other issues. */
const MAX_QUESTIONS_INSPECTED = 10;

const QUESTION_KEYS = new Set([
  'header',
  'question',
  'options',
  'choices',
  'multiSelect',
  'multiple',
  'multi_select',
  'allowMultiple',
  'purpose',
]);
const MULTI_SELECT_ALIASES = ['multiple', 'multi_select', 'allowMultiple'] as const;

/**
 * Decodes raw `ask_question` arguments as a model sent them and returns a normalized ask or the issues.
 *
 * Accepted variants: the whole arguments, `questions` or `options` as a JSON string; a bare array of
 * questions; one flat question without the `{questions: [...]}` envelope; `questions` as one object;
 * options as plain strings; a ` (Recommended)` label suffix (any case; stripped before the 48 cap and
 * turned into `recommended`); `multiple`/`multi_select`/`allowMultiple` for `multiSelect` (the canonical
 * key wins); `choices` for `options` (the canonical key wins); `"true"`/`"false"` for booleans; an item
 * with only a header (the header is also the question); unknown keys (dropped, listed in `ignoredKeys`).
 *
 * Normalization: text trimmed; empty `header`/`purpose`/`description` become null; options whose label
 * starts with the word "other" or "something else" are dropped before counting; single-select keeps only
 * the first recommended option and shows it first; multi-select keeps every recommended option in place;
 * absent or empty `options` make a `free_text` question (options null, multiSelect false).
 *
 * Caps ({@link ASK_LIMITS}) count Unicode code points after trimming, as JSON Schema `maxLength` does.
 *
 * @param raw the tool call input: any value, including a string that is or is not JSON
 * @returns never throws, for any input
 */
export function decodeAskArguments(raw: unknown): DecodeResult {
  try {
    return decode(raw);
  } catch (error) {
    return {
      ok: false,
      issues: [
        {
          path: '',
          rule: 'internal',
          message: `the arguments could not be read (${errorText(error)}); send a JSON object {"questions": [...]} like the example`,
        },
      ],
    };
  }
}

function decode(raw: unknown): DecodeResult {
  const collector = new IssueCollector();
  const items = readQuestionItems(raw, collector);
  if (items === null) {
    return { ok: false, issues: collector.issues };
  }
  if (items.length < ASK_LIMITS.minQuestions) {
    collector.add({
      path: 'questions',
      rule: 'minItems',
      limit: ASK_LIMITS.minQuestions,
      actual: items.length,
      message: `questions is empty (0 questions); give at least ${ASK_LIMITS.minQuestions} question (limit: ${ASK_LIMITS.minQuestions}-${ASK_LIMITS.maxQuestions})`,
    });
  } else if (items.length > ASK_LIMITS.maxQuestions) {
    collector.add({
      path: 'questions',
      rule: 'maxItems',
      limit: ASK_LIMITS.maxQuestions,
      actual: items.length,
      message: `questions has ${items.length} questions; the limit is ${ASK_LIMITS.maxQuestions}. Ask the ${ASK_LIMITS.maxQuestions} that matter most now`,
    });
  }
  const questions: AskQuestion[] = [];
  const inspected = Math.min(items.length, MAX_QUESTIONS_INSPECTED);
  for (let index = 0; index < inspected; index += 1) {
    const question = decodeQuestion(items[index], `questions[${index}]`, collector);
    if (question !== null) {
      questions.push(question);
    }
  }
  if (collector.issues.length > 0) {
    return { ok: false, issues: collector.issues };
  }
  return { ok: true, ask: { questions }, ignoredKeys: collector.ignoredKeys };
}

/** Finds the list of question items in whatever envelope the model used; null when impossible (issue added). */
function readQuestionItems(raw: unknown, collector: IssueCollector): unknown[] | null {
  const top = unwrapJsonString(raw, '', collector);
  if (!top.ok) {
    return null;
  }
  const value = top.value;
  if (Array.isArray(value)) {
    return value;
  }
  if (!isRecord(value)) {
    collector.add({
      path: '',
      rule: 'type',
      actual: typeName(value),
      message: `the arguments must be a JSON object {"questions": [...]}; got ${typeName(value)}`,
    });
    return null;
  }
  if (!Object.hasOwn(value, 'questions')) {
    if (
      Object.hasOwn(value, 'question') ||
      Object.hasOwn(value, 'header') ||
      Object.hasOwn(value, 'options')
    ) {
      return [value]; // one flat question without the envelope
    }
    collector.add({
      path: 'questions',
      rule: 'required',
      limit: ASK_LIMITS.minQuestions,
      message: `questions is missing; send {"questions": [...]} with ${ASK_LIMITS.minQuestions}-${ASK_LIMITS.maxQuestions} questions`,
    });
    return null;
  }
  for (const key of Object.keys(value)) {
    if (key !== 'questions') {
      collector.ignore(keyPath('', key));
    }
  }
  const inner = unwrapJsonString(value.questions, 'questions', collector);
  if (!inner.ok) {
    return null;
  }
  const questions = inner.value;
  if (Array.isArray(questions)) {
    return questions;
  }
  if (isRecord(questions)) {
    return [questions]; // one question object instead of an array
  }
  if (questions === null || questions === undefined) {
    collector.add({
      path: 'questions',
      rule: 'required',
      limit: ASK_LIMITS.minQuestions,
      message: `questions is ${String(questions)}; give an array of ${ASK_LIMITS.minQuestions}-${ASK_LIMITS.maxQuestions} questions`,
    });
    return null;
  }
  collector.add({
    path: 'questions',
    rule: 'type',
    actual: typeName(questions),
    message: `questions must be an array of question objects; got ${typeName(questions)}`,
  });
  return null;
}

function decodeQuestion(rawItem: unknown, path: string, collector: IssueCollector): AskQuestion | null {
  const unwrapped = unwrapJsonString(rawItem, path, collector);
  if (!unwrapped.ok) {
    return null;
  }
  const item = unwrapped.value;
  if (!isRecord(item)) {
    collector.add({
      path,
      rule: 'type',
      actual: typeName(item),
      message: `${path} must be a question object {"header", "question", "options"}; got ${typeName(item)}`,
    });
    return null;
  }
  const issuesBefore = collector.issues.length;
  for (const key of Object.keys(item)) {
    if (!QUESTION_KEYS.has(key)) {
      collector.ignore(keyPath(path, key));
    }
  }

  const header = readText(item, 'header', path, collector);
  const questionText = readText(item, 'question', path, collector);
  const purpose = readText(item, 'purpose', path, collector);
  const multiSelect = readMultiSelect(item, path, collector);
  const options = decodeAskOptions(item, path, collector);

  let question: string | null = null;
  if (questionText.ok) {
    if (questionText.value === null) {
      if (header.ok && header.value) {
        question = header.value; // header-only item: the header is the question too
      } else if (header.ok) {
        collector.add({
          path: `${path}.question`,
          rule: 'required',
          message: `${path}.question is missing; write the question (1-${ASK_LIMITS.questionMax} code points)`,
        });
      }
    } else if (questionText.value === '') {
      collector.add({
        path: `${path}.question`,
        rule: 'blank',
        actual: 0,
        message: `${path}.question is blank; write the question (1-${ASK_LIMITS.questionMax} code points)`,
      });
    } else {
      question = questionText.value;
    }
  }
  if (question !== null) {
    checkMaxLength(question, `${path}.question`, ASK_LIMITS.questionMax, collector);
  }
  if (header.ok && header.value) {
    checkMaxLength(header.value, `${path}.header`, ASK_LIMITS.headerMax, collector);
  }
  if (purpose.ok && purpose.value) {
    checkMaxLength(purpose.value, `${path}.purpose`, ASK_LIMITS.purposeMax, collector);
  }

  if (collector.issues.length > issuesBefore || question === null || !options.ok || multiSelect === null) {
    return null;
  }
  const isChoice = options.value !== null;
  const multi = isChoice && multiSelect;
  return {
    header: header.ok && header.value ? header.value : null,
    question,
    kind: isChoice ? 'choice' : 'free_text',
    multiSelect: multi,
    purpose: purpose.ok && purpose.value ? purpose.value : null,
    options: options.value === null ? null : orderRecommended(options.value, multi),
  };
}

/** `multiSelect`, else the first alias present; false when none. Null when invalid (issue added). */
function readMultiSelect(item: Json, path: string, collector: IssueCollector): boolean | null {
  let chosen: string | null = isGiven(item.multiSelect) ? 'multiSelect' : null;
  for (const alias of MULTI_SELECT_ALIASES) {
    if (!Object.hasOwn(item, alias)) {
      continue;
    }
    if (chosen === null && isGiven(item[alias])) {
      chosen = alias;
    } else {
      collector.ignore(keyPath(path, alias)); // the canonical key (or an earlier alias) wins
    }
  }
  if (chosen === null) {
    return false;
  }
  return readBoolean(item[chosen], keyPath(path, chosen), collector);
}
