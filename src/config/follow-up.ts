import type { ReminderPoint } from '../asks/types.js';
import { parseDuration } from './durations.js';

/** Result of one follow-up setting's parser: the value, or why the text is not one. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Most reminder points an ask may have. */
export const MAX_REMINDERS = 10;
/** Most snooze choices (Slack overflow menus hold 5 options; one is "Ask someone else…"). */
export const MAX_EXTEND_CHOICES = 3;

/**
 * Parses `ASK_REMINDERS`: a comma list of percentages of the time to the deadline (`50%`, strictly between
 * 0 and 100) and durations after the ask was shown (`10m`); `none` (or empty) for no reminders. Points are
 * kept in the order given, duplicates dropped. Pure.
 */
export function parseReminders(text: string): Parsed<ReminderPoint[]> {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'none') return { ok: true, value: [] };
  const points: ReminderPoint[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    let point: ReminderPoint | null = null;
    const percent = /^(\d+(?:\.\d+)?)%$/.exec(item);
    if (percent) {
      const fraction = Number(percent[1]) / 100;
      if (!(fraction > 0 && fraction < 1))
        return { ok: false, problem: `${item} is not between 0% and 100% (exclusive)` };
      point = { kind: 'fraction', fraction };
    } else {
      const ms = parseDuration(item);
      if (ms === null || ms <= 0)
        return { ok: false, problem: `${item} is neither a percentage (50%) nor a duration (10m)` };
      point = { kind: 'after', ms };
    }
    const id = JSON.stringify(point);
    if (seen.has(id)) continue;
    seen.add(id);
    points.push(point);
  }
  if (points.length > MAX_REMINDERS)
    return { ok: false, problem: `${points.length} points; at most ${MAX_REMINDERS}` };
  return { ok: true, value: points };
}

/**
 * Parses `ASK_EXTEND_CHOICES`: a comma list of durations the snooze menu offers (`15m,1h,4h`), at most
 * {@link MAX_EXTEND_CHOICES}; `none` (or empty) for no snooze menu. Pure.
 */
export function parseExtendChoices(text: string): Parsed<number[]> {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'none') return { ok: true, value: [] };
  const choices: number[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const ms = parseDuration(item);
    if (ms === null || ms < 1000) return { ok: false, problem: `${item} is not a duration of 1s or more` };
    if (!choices.includes(ms)) choices.push(ms);
  }
  if (choices.length > MAX_EXTEND_CHOICES)
    return { ok: false, problem: `${choices.length} choices; at most ${MAX_EXTEND_CHOICES}` };
  return { ok: true, value: choices };
}

/** Parses a duration setting that cannot be turned off (`24h`, `90m`). Pure. */
export function parseRequiredDuration(text: string): Parsed<number> {
  const ms = parseDuration(text);
  if (ms === null || ms <= 0)
    return { ok: false, problem: `${text.trim()} is not a duration (e.g. 24h, 90m)` };
  return { ok: true, value: ms };
}

/** Parses a duration setting that `none` or `0` turns off (0 ms). Pure. */
export function parseOptionalDuration(text: string): Parsed<number> {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'none' || value === 'off') return { ok: true, value: 0 };
  const ms = parseDuration(value);
  if (ms === null) return { ok: false, problem: `${text.trim()} is not a duration (e.g. 20m, 24h) or none` };
  return { ok: true, value: ms };
}
