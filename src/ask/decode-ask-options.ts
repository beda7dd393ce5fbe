/** Decoding of one question's `options` (or `choices`): labels, descriptions, recommended, Other options. */
import type { IssueCollector } from './ask-issues.js';
import {
  checkMaxLength,
  isGiven,
  isRecord,
  type Json,
  keyPath,
  quote,
  readBoolean,
  readText,
  typeName,
  unwrapJsonString,
} from './decode-ask-fields.js';
import type { AskOption } from './types.js';
import { ASK_LIMITS } from './types.js';

/** Options arrays longer than this are reported by count only. */
const MAX_OPTIONS_INSPECTED = 20;
const OPTION_KEYS = new Set(['label', 'description', 'recommended']);
/** `(Recommended)` at the end of a label, any case, with the whitespace around it. */
const RECOMMENDED_SUFFIX = /\s*\(\s*recommended\s*\)\s*$/i;
/** A model-authored catch-all option; the surface offers free text itself. "None of these" is a real option. */
const OTHER_OPTION = /^(other|something else)\b/i;

/** Result of {@link decodeAskOptions}. */
export interface DecodedOptions {
  /** False when an issue was added. */
  ok: boolean;
  /** Null for a free-text question. */
  value: AskOption[] | null;
}

/**
 * Decodes `options` (or the alias `choices`; the canonical key wins) of one question: a JSON-string array
 * is parsed; absent, null or empty means a free-text question (value null); strings are labels; a
 * `(Recommended)` suffix is stripped before the 48 cap; model-authored "Other"/"Something else" options are
 * dropped before the 2-4 count; labels must be unique (trimmed, case-folded). Order is the model's.
 * @param item the question object
 * @param path the question's path, e.g. `questions[0]` (option paths are `questions[0].options[1]`)
 * @returns `ok` false when an issue was added; `value` null for a free-text question
 */
export function decodeAskOptions(item: Json, path: string, collector: IssueCollector): DecodedOptions {
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

function addMaxOptions(path: string, count: number, collector: IssueCollector): void {
  collector.add({
    path,
    rule: 'maxItems',
    limit: ASK_LIMITS.maxOptions,
    actual: count,
    message: `${path} has ${count} options; the limit is ${ASK_LIMITS.maxOptions}. Keep the ${ASK_LIMITS.maxOptions} most useful (people can always type their own answer)`,
  });
}

/** One option; `'other'` when it is a model-authored catch-all to drop; null when invalid (issue added). */
function readOption(raw: unknown, path: string, collector: IssueCollector): AskOption | 'other' | null {
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

/** Single-select: only the first recommended option stays recommended, and moves to the front. */
export function orderRecommended(options: AskOption[], multiSelect: boolean): AskOption[] {
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
