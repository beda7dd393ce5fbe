/**
 * Safe text for Slack: escaping model text for mrkdwn, neutralizing it for plain_text, and the only
 * way holdpoint builds a user mention. Pure.
 *
 * Slack's control characters in mrkdwn and top-level `text` are `&`, `<` and `>`; escaping exactly these
 * three (to `&amp;`, `&lt;`, `&gt;`) makes `<!channel>`, `<!here>`, `<!everyone>`, `<!subteam^S…>`, `<@U…>`,
 * `<#C…>` and `<https://x|y>` inert. Other characters must not be HTML-encoded (Slack would show them
 * literally). Source: https://api.slack.com/reference/surfaces/formatting#escaping (FACTS.md §2).
 */

/** A Slack user id: `U…` or `W…` (Enterprise Grid), then at least two upper-case letters or digits. */
export const SLACK_USER_ID_PATTERN = /^[UW][A-Z0-9]{2,}$/;

/**
 * Escapes `&`, `<` and `>` (and nothing else) so that `text` is inert inside a mrkdwn text object or a
 * top-level message `text`. Length grows by up to 5x (`&` -> `&amp;`).
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (character) =>
    character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;',
  );
}

/**
 * Makes model text safe for a `plain_text` object. Slack does not parse plain_text, but whether it decodes
 * entities there is undocumented (FACTS.md §2), so escaping would risk showing `&lt;` literally. Instead
 * `<` and `>` become the full-width look-alikes `＜` (U+FF1C) and `＞` (U+FF1E): the meaning stays readable
 * and no serialized payload ever carries `<!channel`, `<!here` or `<@U` from model text. `&` is left as is.
 * Length in UTF-16 code units and code points is unchanged.
 */
export function neutralizePlainText(text: string): string {
  return text.replace(/[<>]/g, (character) => (character === '<' ? '\uFF1C' : '\uFF1E'));
}

/**
 * A mention `<@U…>` built from a validated Slack user id ({@link SLACK_USER_ID_PATTERN}). Anything else
 * (null, a malformed id, an id carrying markup) comes back as escaped plain text, so a mention is only
 * ever produced from a real-looking id.
 */
export function mentionUser(userId: string | null | undefined): string {
  if (typeof userId !== 'string' || userId.length === 0) return 'someone';
  return SLACK_USER_ID_PATTERN.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

/** Slack user-group ids (`S…`). */
export const SLACK_GROUP_ID_PATTERN = /^S[A-Z0-9]{2,}$/;

/**
 * A user-group mention `<!subteam^S…>` built from a validated group id; anything else comes back as
 * escaped plain text (never `<!channel>`, `<!here>` or `<!everyone>`).
 */
export function mentionGroup(groupId: string): string {
  return SLACK_GROUP_ID_PATTERN.test(groupId) ? `<!subteam^${groupId}>` : escapeMrkdwn(groupId);
}
