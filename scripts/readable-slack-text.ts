/**
 * Slack mrkdwn as a person reads it in the client, for the demo's terminal output: mention, date and link
 * tokens become what Slack would show, and the `&lt;` `&gt;` `&amp;` escapes become the characters. Pure.
 */

/** Names for the ids that tokens carry, and the time zone dates are shown in. */
export interface ReadableNames {
  /** User id -> name shown after `@` (e.g. `U0BOB` -> `bob`). An unknown id shows its token's label, else the id. */
  users?: Readonly<Record<string, string>>;
  /** Channel id -> name shown after `#`. An unknown id shows its token's label, else the id. */
  channels?: Readonly<Record<string, string>>;
  /** IANA time zone of `<!date^…>` tokens (default: this machine's). */
  timeZone?: string;
}

/** `2023-11-14 22:13 UTC`: the moment in `timeZone`, to the minute, with the zone's short name. */
function localTime(unixSeconds: number, timeZone: string | undefined): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(new Date(unixSeconds * 1000));
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

/** One `<…>` token as Slack shows it; `inner` is what is between the angle brackets. */
function readableToken(inner: string, names: ReadableNames): string {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? null : inner.slice(bar + 1);
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return `@${names.users?.[id] ?? label?.replace(/^@/, '') ?? id}`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return `#${names.channels?.[id] ?? label?.replace(/^#/, '') ?? id}`;
  }
  if (target.startsWith('!date^')) {
    const seconds = Number(target.split('^')[1]);
    return Number.isFinite(seconds) ? localTime(seconds, names.timeZone) : (label ?? target);
  }
  if (target.startsWith('!subteam^')) return label?.startsWith('@') ? label : '@group';
  if (target.startsWith('!')) return `@${target.slice(1)}`; // !here, !channel, !everyone
  return label === null ? target : `${label} (${target})`;
}

/**
 * `text` (Slack mrkdwn) as the Slack client would show it, in plain text:
 * - `<@U0BOB>` -> `@bob` (from `names.users`; `<@U0BOB|bob>` uses the label for an unknown id);
 * - `<#C0OPS>` -> `#ops` (from `names.channels`, or the label);
 * - `<!date^1700000000^{date_short_pretty} at {time}|fallback>` -> `2023-11-14 22:13 UTC`, in `names.timeZone`;
 * - `<!subteam^S0ONCALL>` -> `@group` (or its `@label`); `<!here>` -> `@here`;
 * - `<https://x|label>` -> `label (https://x)`, `<https://x>` -> `https://x`;
 * - then `&lt;`, `&gt;`, `&amp;` -> `<`, `>`, `&` (after the tokens, so escaped text never becomes one).
 */
export function readableSlackText(text: string, names: ReadableNames = {}): string {
  return text
    .replace(/<([^<>\s][^<>]*)>/g, (_match, inner: string) => readableToken(inner, names))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
