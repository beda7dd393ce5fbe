/**
 * Lenient decoding, validation and normalization of raw `ask_question` arguments
 * (DESIGN.md, "The ask_question contract"; issue 2). Pure; never throws.
 */
import { codePointLength, truncateCodePoints } from './code-points.js';
import type { AskOption, AskQuestion, NormalizedAsk } from './types.js';
import { ASK_LIMITS } from './types.js';

/**
 * One problem with the arguments, aimed at the model.
 * - `path`: the field, e.g. `questions[0].options[1].label`; `""` for the arguments as a whole.
 * - `rule`: `json` | `type` | `required` | `blank` | `maxLength` | `minItems` | `maxItems` | `unique` | `internal`.
 * - `limit`: the cap for `maxLength` (code points) and `minItems`/`maxItems` (items).
 * - `actual`: the measured length or count (number), or the JSON type / a short preview of the value (string).
 * - `message`: one self-contained sentence that names the path, the limit and the actual value.
 */
export interface AskIssue {
  path: string;
  rule: string;
  limit?: number;
  actual?: string | number;
  message: string;
}

/**
 * Outcome of {@link decodeAskArguments}.
 * - ok: the normalized ask, plus the paths of unknown keys that were dropped (for the success note),
 *   e.g. `questions[0].allow_other`, `questions[0].options[0].value`, `reason`.
 * - not ok: every issue found (at most {@link MAX_ISSUES}), to send back with `formatAskError`.
 */
export type DecodeResult =
  | { ok: true; ask: NormalizedAsk; ignoredKeys: string[] }
  | { ok: false; issues: AskIssue[] };

/** At most this many issues are reported per call. */
export const MAX_ISSUES = 20;
/** At most this many ignored keys are listed per call. */
export const MAX_IGNORED_KEYS = 50;
/** Items of an over-long `questions` array that are still inspected for other issues. */
const MAX_QUESTIONS_INSPECTED = 10;
/** Options arrays longer than this are reported by count only. */
const MAX_OPTIONS_INSPECTED = 20;
/** How many times a value may be a JSON string wrapping JSON (double encoding). */
const MAX_STRING_UNWRAP = 3;
/** Code points of a model value quoted in an issue message. */
const PREVIEW_MAX = 60;

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
const OPTION_KEYS = new Set(['label', 'description', 'recommended']);
/** `(Recommended)` at the end of a label, any case, with the whitespace around it. */
const RECOMMENDED_SUFFIX = /\s*\(\s*recommended\s*\)\s*$/i;
/** A model-authored catch-all option; the surface offers free text itself. "None of these" is a real option. */
const OTHER_OPTION = /^(other|something else)\b/i;

type Json = Record<string, unknown>;

class Collector {
  readonly issues: AskIssue[] = [];
  readonly ignoredKeys: string[] = [];

  add(issue: AskIssue): void {
    if (this.issues.length < MAX_ISSUES) {
      this.issues.push(issue);
    }
  }

  ignore(path: string): void {
    if (this.ignoredKeys.length < MAX_IGNORED_KEYS && !this.ignoredKeys.includes(path)) {
      this.ignoredKeys.push(path);
    }
  }
}

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
  const collector = new Collector();
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
function readQuestionItems(raw: unknown, collector: Collector): unknown[] | null {
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

function decodeQuestion(rawItem: unknown, path: string, collector: Collector): AskQuestion | null {
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
  const options = readOptions(item, path, collector);

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

/** Single-select: only the first recommended option stays recommended, and moves to the front. */
function orderRecommended(options: AskOption[], multiSelect: boolean): AskOption[] {
  if (multiSelect) {
    return options;
  }
  const first = options.findIndex((option) => option.recommended);
  if (first < 0) {
    return options;
  }
  const rest = options
    .filter((_, index) => index !== first)
    .map((option) => ({ ...option, recommended: false }));
  const recommended = options[first];
  return recommended === undefined ? rest : [recommended, ...rest];
}

/** `multiSelect`, else the first alias present; false when none. Null when invalid (issue added). */
function readMultiSelect(item: Json, path: string, collector: Collector): boolean | null {
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

interface DecodedOptions {
  ok: boolean;
  /** Null for a free-text question. */
  value: AskOption[] | null;
}

function readOptions(item: Json, path: string, collector: Collector): DecodedOptions {
  let key = 'options';
  if (!isGiven(item.options) && isGiven(item.choices)) {
    key = 'choices';
  } else if (Object.hasOwn(item, 'choices')) {
    collector.ignore(keyPath(path, 'choices'));
  }
  const optionsPath = `${path}.${key}`;
  const unwrapped = unwrapJsonString(item[key], optionsPath, collector);
  if (!unwrapped.ok) {
    return { ok: false, value: null };
  }
  const raw = unwrapped.value;
  if (raw === undefined || raw === null) {
    return { ok: true, value: null };
  }
  if (!Array.isArray(raw)) {
    collector.add({
      path: optionsPath,
      rule: 'type',
      actual: typeName(raw),
      message: `${optionsPath} must be an array of ${ASK_LIMITS.minOptions}-${ASK_LIMITS.maxOptions} options (or omitted for a free-text question); got ${typeName(raw)}`,
    });
    return { ok: false, value: null };
  }
  if (raw.length === 0) {
    return { ok: true, value: null };
  }
  if (raw.length > MAX_OPTIONS_INSPECTED) {
    addMaxOptions(optionsPath, raw.length, collector);
    return { ok: false, value: null };
  }
  const issuesBefore = collector.issues.length;
  const kept: { option: AskOption; path: string }[] = [];
  let dropped = 0;
  for (let index = 0; index < raw.length; index += 1) {
    const optionPath = `${optionsPath}[${index}]`;
    const option = readOption(raw[index], optionPath, collector);
    if (option === 'other') {
      dropped += 1;
    } else if (option !== null) {
      kept.push({ option, path: optionPath });
    }
  }
  if (collector.issues.length > issuesBefore) {
    return { ok: false, value: null };
  }
  if (kept.length < ASK_LIMITS.minOptions) {
    collector.add({
      path: optionsPath,
      rule: 'minItems',
      limit: ASK_LIMITS.minOptions,
      actual: kept.length,
      message:
        dropped > 0
          ? `${optionsPath} has ${kept.length} real option(s) after dropping your "Other" option; give at least ${ASK_LIMITS.minOptions} real options; an Other choice is added automatically`
          : `${optionsPath} has ${kept.length} option(s); give ${ASK_LIMITS.minOptions}-${ASK_LIMITS.maxOptions} options (limit: at least ${ASK_LIMITS.minOptions}), or omit options for a free-text question`,
    });
    return { ok: false, value: null };
  }
  if (kept.length > ASK_LIMITS.maxOptions) {
    addMaxOptions(optionsPath, kept.length, collector);
    return { ok: false, value: null };
  }
  const seen = new Map<string, string>();
  for (const { option, path: optionPath } of kept) {
    const folded = option.label.normalize('NFC').toLowerCase();
    const first = seen.get(folded);
    if (first !== undefined) {
      collector.add({
        path: `${optionPath}.label`,
        rule: 'unique',
        actual: option.label,
        message: `${optionPath}.label ${quote(option.label)} repeats ${first}.label; labels must be unique within a question (compared trimmed, ignoring case)`,
      });
    } else {
      seen.set(folded, optionPath);
    }
  }
  if (collector.issues.length > issuesBefore) {
    return { ok: false, value: null };
  }
  return { ok: true, value: kept.map((entry) => entry.option) };
}

function addMaxOptions(path: string, count: number, collector: Collector): void {
  collector.add({
    path,
    rule: 'maxItems',
    limit: ASK_LIMITS.maxOptions,
    actual: count,
    message: `${path} has ${count} options; the limit is ${ASK_LIMITS.maxOptions}. Keep the ${ASK_LIMITS.maxOptions} most useful (people can always type their own answer)`,
  });
}

/** One option; `'other'` when it is a model-authored catch-all to drop; null when invalid (issue added). */
function readOption(raw: unknown, path: string, collector: Collector): AskOption | 'other' | null {
  let labelValue: unknown;
  let description: string | null = null;
  let recommended = false;
  let labelPath = path;
  if (typeof raw === 'string') {
    labelValue = raw;
  } else if (isRecord(raw)) {
    for (const key of Object.keys(raw)) {
      if (!OPTION_KEYS.has(key)) {
        collector.ignore(keyPath(path, key));
      }
    }
    labelPath = `${path}.label`;
    labelValue = raw.label;
    if (isGiven(raw.recommended)) {
      const flag = readBoolean(raw.recommended, `${path}.recommended`, collector);
      if (flag === null) {
        return null;
      }
      recommended = flag;
    }
    const text = readText(raw, 'description', path, collector);
    if (!text.ok) {
      return null;
    }
    description = text.value ? text.value : null;
  } else {
    collector.add({
      path,
      rule: 'type',
      actual: typeName(raw),
      message: `${path} must be an option {"label", "description"} or a label string; got ${typeName(raw)}`,
    });
    return null;
  }
  if (labelValue === undefined || labelValue === null) {
    collector.add({
      path: labelPath,
      rule: 'required',
      message: `${labelPath} is missing; give each option a label (1-${ASK_LIMITS.labelMax} code points)`,
    });
    return null;
  }
  if (typeof labelValue !== 'string') {
    collector.add({
      path: labelPath,
      rule: 'type',
      actual: typeName(labelValue),
      message: `${labelPath} must be a string; got ${typeName(labelValue)}`,
    });
    return null;
  }
  let label = labelValue.trim();
  while (RECOMMENDED_SUFFIX.test(label)) {
    label = label.replace(RECOMMENDED_SUFFIX, '').trim();
    recommended = true;
  }
  if (OTHER_OPTION.test(label)) {
    return 'other';
  }
  if (label === '') {
    collector.add({
      path: labelPath,
      rule: 'blank',
      actual: 0,
      message: `${labelPath} is blank; give each option a label (1-${ASK_LIMITS.labelMax} code points)`,
    });
    return null;
  }
  const labelOk = checkMaxLength(label, labelPath, ASK_LIMITS.labelMax, collector);
  const descriptionOk =
    description === null ||
    checkMaxLength(description, `${path}.description`, ASK_LIMITS.descriptionMax, collector);
  if (!labelOk || !descriptionOk) {
    return null;
  }
  return { label, description, recommended };
}

type TextResult = { ok: true; value: string | null } | { ok: false };

/** A trimmed optional string field: null when absent or null, '' when blank; not ok (issue added) for other types. */
function readText(record: Json, key: string, path: string, collector: Collector): TextResult {
  const value = record[key];
  if (!Object.hasOwn(record, key) || value === undefined || value === null) {
    return { ok: true, value: null };
  }
  if (typeof value !== 'string') {
    const fieldPath = keyPath(path, key);
    collector.add({
      path: fieldPath,
      rule: 'type',
      actual: typeName(value),
      message: `${fieldPath} must be a string; got ${typeName(value)}`,
    });
    return { ok: false };
  }
  return { ok: true, value: value.trim() };
}

/** A boolean, or the strings "true"/"false" (any case, trimmed). Null when invalid (issue added). */
function readBoolean(value: unknown, path: string, collector: Collector): boolean | null {
  if (typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'true') {
      return true;
    }
    if (word === 'false') {
      return false;
    }
  }
  collector.add({
    path,
    rule: 'type',
    actual: typeof value === 'string' ? preview(value) : typeName(value),
    message: `${path} must be true or false; got ${typeof value === 'string' ? quote(value) : typeName(value)}`,
  });
  return null;
}

/** Adds a `maxLength` issue when `text` has more than `limit` code points; returns whether it fits. */
function checkMaxLength(text: string, path: string, limit: number, collector: Collector): boolean {
  const length = codePointLength(text);
  if (length <= limit) {
    return true;
  }
  collector.add({
    path,
    rule: 'maxLength',
    limit,
    actual: length,
    message: `${path} is ${length} code points long; the limit is ${limit}. Shorten it: ${quote(text)}`,
  });
  return false;
}

type Unwrapped = { ok: true; value: unknown } | { ok: false };

/** Parses a value that arrived as a JSON string (up to {@link MAX_STRING_UNWRAP} times); other values pass through. */
function unwrapJsonString(value: unknown, path: string, collector: Collector): Unwrapped {
  let current = value;
  for (let depth = 0; depth < MAX_STRING_UNWRAP && typeof current === 'string'; depth += 1) {
    const text = current.trim();
    const wholeArguments = path === '' && depth === 0;
    if (wholeArguments && text === '') {
      return { ok: true, value: {} }; // empty arguments: reported as missing questions
    }
    if (!wholeArguments && !/^[[{"]/.test(text)) {
      return { ok: true, value: current }; // a plain string: the caller judges its type
    }
    try {
      current = JSON.parse(text) as unknown;
    } catch (error) {
      const where = path === '' ? 'the arguments are' : `${path} is a string but`;
      collector.add({
        path,
        rule: 'json',
        actual: preview(text),
        message: `${where} not valid JSON (${errorText(error)}): ${quote(text)}. Send a JSON object {"questions": [...]} like the example`,
      });
      return { ok: false };
    }
  }
  return { ok: true, value: current };
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function typeName(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function keyPath(path: string, key: string): string {
  const shortKey = truncateCodePoints(key, 40);
  if (/^[A-Za-z_$][\w$]*$/.test(shortKey)) {
    return path === '' ? shortKey : `${path}.${shortKey}`;
  }
  return `${path}[${JSON.stringify(shortKey)}]`;
}

function preview(text: string): string {
  return codePointLength(text) > PREVIEW_MAX ? `${truncateCodePoints(text, PREVIEW_MAX)}…` : text;
}

function quote(text: string): string {
  return JSON.stringify(preview(text));
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return preview(text.replace(/\s+/g, ' '));
}
