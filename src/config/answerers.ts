import type { AnswererPolicy } from '../asks/types.js';

/** Slack user ids start with `U` (or `W` on Enterprise Grid), user-group ids with `S`; the rest is upper-case alphanumeric. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;
const GROUP_ID = /^S[A-Z0-9]{2,}$/;

/** Result of {@link parseAnswerers}: the policy, or the list of entries that are not Slack ids. */
export type ParseAnswerersResult = { ok: true; policy: AnswererPolicy } | { ok: false; invalid: string[] };

/**
 * Parses `ASK_ANSWERERS`:
 * - `anyone` (also the empty string) -> `{ mode: 'anyone' }`;
 * - `requester` -> `{ mode: 'requester' }`;
 * - a comma-separated list of Slack user ids (`U…`, `W…`) and user-group ids (`S…`) -> `{ mode: 'list' }`,
 *   in the order given, duplicates dropped, whitespace and empty items ignored.
 *
 * Keywords are case-insensitive; ids are case-sensitive (Slack ids are upper case).
 * @returns `{ ok: false, invalid }` listing each item that is neither a keyword nor an id; a list with no
 *   id at all (e.g. `,`) reports `invalid: [<the whole text>]`.
 */
export function parseAnswerers(text: string): ParseAnswerersResult {
  const value = text.trim();
  const keyword = value.toLowerCase();
  if (keyword === '' || keyword === 'anyone') return { ok: true, policy: { mode: 'anyone' } };
  if (keyword === 'requester') return { ok: true, policy: { mode: 'requester' } };
  const userIds: string[] = [];
  const groupIds: string[] = [];
  const invalid: string[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    if (USER_ID.test(item)) {
      if (!userIds.includes(item)) userIds.push(item);
    } else if (GROUP_ID.test(item)) {
      if (!groupIds.includes(item)) groupIds.push(item);
    } else {
      invalid.push(item);
    }
  }
  if (invalid.length > 0) return { ok: false, invalid };
  if (userIds.length === 0 && groupIds.length === 0) return { ok: false, invalid: [value] };
  return { ok: true, policy: { mode: 'list', userIds, groupIds } };
}
