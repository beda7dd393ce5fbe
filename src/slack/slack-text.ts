import { truncateText } from './blocks/truncate.js';
import { escapeMrkdwn } from './mrkdwn.js';

/** Slack truncates top-level `text` beyond 40 000 characters (chat.postMessage docs); we stay under it. */
export const REPLY_TEXT_MAX = 39_000;

/**
 * Decodes the entities Slack puts in inbound `event.text` (`&lt;`, `&gt;`, `&amp;`) and turns mentions
 * and links into plain words for the model: `<@U123>` -> `@U123`, `<https://x|label>` -> `label (https://x)`,
 * `<!here>` -> `@here`. Removes a leading mention of the bot itself.
 */
export function slackTextToPlain(text: string, botUserId?: string): string {
  let out = text;
  if (botUserId) out = out.replaceAll(`<@${botUserId}>`, '').trim();
  out = out.replace(/<([^<>]+)>/g, (_match, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    if (target.startsWith('!')) return `@${(label ?? target.slice(1)).replace(/^subteam\^/, '')}`;
    return label ? `${label} (${target})` : target;
  });
  return out.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * Model-written reply text made safe for mrkdwn: `&`, `<`, `>` escaped (so it can never ping `@channel`,
 * a user group, or fake a link) and cut to {@link REPLY_TEXT_MAX} characters.
 */
export function replyText(modelText: string): string {
  const escaped = escapeMrkdwn(modelText);
  if (escaped.length <= REPLY_TEXT_MAX) return escaped;
  // Cut on a grapheme boundary, and never inside an entity such as `&amp;`.
  let cut = truncateText(escaped, REPLY_TEXT_MAX);
  const amp = cut.lastIndexOf('&');
  if (amp >= 0 && !/^&(?:amp|lt|gt);/.test(cut.slice(amp))) cut = `${cut.slice(0, amp)}…`;
  return `${cut} (reply cut at Slack's message size)`;
}
