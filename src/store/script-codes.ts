import type { AskTransitionStatus } from '../asks/types.js';
import { StateError } from '../errors.js';

/**
 * Status codes returned by the store's Lua scripts (see the header of each `lua/*.lua` file).
 * One table for every script, so that a code means the same thing everywhere (BullMQ `error-code.ts` style).
 */
export const SCRIPT_CODE = {
  /** Done by this call (answer recorded, turn committed, shown/resume marker set, thread taken). */
  ok: 1,
  /** The transition resolved the last open question. */
  completed: 2,
  /** Nothing to do: already done earlier (first call wins) or queued. */
  unchanged: 0,
  notFound: -1,
  closed: -2,
  alreadyResolved: -3,
  forbidden: -4,
  conflict: -5,
  invalidArgument: -6,
  exists: -7,
  /** The timeout found the deadline moved later (extended). */
  notDue: -8,
  /** This person already voted on that question. */
  duplicate: -9,
  /** An extension found the deadline at its latest (`ASK_MAX_DEADLINE`). */
  atLimit: -10,
  /** A quorum vote was counted; the question waits for more. */
  voted: 3,
} as const;

/**
 * Maps the code of an ask transition script (`answerQuestion`, `resolveOpenQuestions`, `cancelAsk`)
 * to its {@link AskTransitionStatus}.
 * @param key the ask key (named in errors)
 * @throws StateError `state_invalid_argument` for code -6 (question index out of range, too few fallbacks)
 *   and `state_unknown_script_code` for a code no script returns.
 */
export function askTransitionStatusOf(code: number, key: string): AskTransitionStatus {
  switch (code) {
    case SCRIPT_CODE.ok:
      return 'recorded';
    case SCRIPT_CODE.completed:
      return 'completed';
    case SCRIPT_CODE.alreadyResolved:
      return 'already-resolved';
    case SCRIPT_CODE.closed:
      return 'closed';
    case SCRIPT_CODE.forbidden:
      return 'forbidden';
    case SCRIPT_CODE.notFound:
      return 'not-found';
    case SCRIPT_CODE.voted:
      return 'voted';
    case SCRIPT_CODE.duplicate:
      return 'duplicate';
    case SCRIPT_CODE.notDue:
      return 'not-due';
    case SCRIPT_CODE.invalidArgument:
      throw new StateError(
        'state_invalid_argument',
        `Ask ${key}: the question index is out of range, or fewer fallbacks than questions were given`,
        { fields: { key } },
      );
    default:
      throw unknownCode(code, key);
  }
}

/** The error for a script code that no script returns (a script and its caller disagree). */
export function unknownCode(code: unknown, key: string): StateError {
  return new StateError(
    'state_unknown_script_code',
    `Unexpected Lua script reply ${String(code)} for ${key}`,
    {
      fields: { key, code },
    },
  );
}
