/** One client of the ask API: the name recorded as its asks' requester, and its bearer token. */
export interface ApiToken {
  name: string;
  token: string;
}

/** Shortest token accepted, in characters (a guessable token would open Slack posting to anyone). */
export const API_TOKEN_MIN_LENGTH = 32;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Parses `API_TOKENS`: a comma list of `name:token` (split at the first colon). Names are 1-64 letters,
 * digits, `_`, `.`, `-`; tokens at least {@link API_TOKEN_MIN_LENGTH} characters without commas; names and
 * tokens unique. Pure; never throws.
 * @returns the tokens, or every problem (without the token values).
 */
export function parseApiTokens(
  text: string,
): { ok: true; tokens: ApiToken[] } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const tokens: ApiToken[] = [];
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  parts.forEach((part, index) => {
    const colon = part.indexOf(':');
    const name = colon < 0 ? '' : part.slice(0, colon).trim();
    const token = colon < 0 ? '' : part.slice(colon + 1).trim();
    const which = name ? `token "${name}"` : `entry ${index + 1}`;
    if (colon < 0) problems.push(`${which} is not name:token`);
    else if (!NAME.test(name)) problems.push(`${which}: the name must be 1-64 letters, digits, _ . -`);
    else if (token.length < API_TOKEN_MIN_LENGTH)
      problems.push(
        `${which} is ${token.length} characters; use at least ${API_TOKEN_MIN_LENGTH} (e.g. openssl rand -hex 32)`,
      );
    else if (tokens.some((t) => t.name === name)) problems.push(`${which} is listed twice`);
    else if (tokens.some((t) => t.token === token)) problems.push(`${which} has the same token as another`);
    else tokens.push({ name, token });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, tokens };
}
