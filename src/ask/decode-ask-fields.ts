/** Field readers shared by the `ask_question` decoder: each reports problems to an {@link IssueCollector}. */
import type { IssueCollector } from './ask-issues.js';
import { codePointLength, truncateCodePoints } from './code-points.js';

/** How many times a value may be a JSON string wrapping JSON (double encoding). */
const MAX_STRING_UNWRAP = 3;
/** Code points of a model value quoted in an issue message. */
const PREVIEW_MAX = 60;

/** A JSON object as decoded (keys unknown). */
export type Json = Record<string, unknown>;

/** Result of {@link readText}: the trimmed text, null when absent; not ok when the type is wrong. */
export type TextResult = { ok: true; value: string | null } | { ok: false };

/** A trimmed optional string field: null when absent or null, '' when blank; not ok (issue added) for other types. */
export function readText(record: Json, key: string, path: string, collector: IssueCollector): TextResult {
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
export function readBoolean(value: unknown, path: string, collector: IssueCollector): boolean | null {
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
export function checkMaxLength(
  text: string,
  path: string,
  limit: number,
  collector: IssueCollector,
): boolean {
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

/** Result of {@link unwrapJsonString}: the parsed value, or not ok when a JSON-looking string failed to parse. */
export type Unwrapped = { ok: true; value: unknown } | { ok: false };

/** Parses a value that arrived as a JSON string (up to {@link MAX_STRING_UNWRAP} times); other values pass through. */
export function unwrapJsonString(value: unknown, path: string, collector: IssueCollector): Unwrapped {
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

/** A non-null, non-array object. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Neither undefined nor null. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The JSON type of a value in words, for messages (`a string`, `an array`, `null` ...). */
export function typeName(value: unknown): string {
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

/** `path.key`, or `path["odd key"]` for keys that are not identifiers; keys truncated to 40 code points. */
export function keyPath(path: string, key: string): string {
  const shortKey = truncateCodePoints(key, 40);
  if (/^[A-Za-z_$][\w$]*$/.test(shortKey)) {
    return path === '' ? shortKey : `${path}.${shortKey}`;
  }
  return `${path}[${JSON.stringify(shortKey)}]`;
}

/** The text cut to 60 code points, with `…` when cut. */
export function preview(text: string): string {
  return codePointLength(text) > PREVIEW_MAX ? `${truncateCodePoints(text, PREVIEW_MAX)}…` : text;
}

/** {@link preview} as a JSON string literal. */
export function quote(text: string): string {
  return JSON.stringify(preview(text));
}

/** One-line, shortened message of a caught error. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return preview(text.replace(/\s+/g, ' '));
}
