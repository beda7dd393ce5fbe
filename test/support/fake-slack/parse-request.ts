/** Parsing of Web API request bodies the way Slack accepts them. */

/** Form fields that @slack/web-api JSON-stringifies (object and array arguments). */
const JSON_FIELDS = new Set([
  'blocks',
  'chunks',
  'attachments',
  'metadata',
  'view',
  'unfurls',
  'loading_messages',
  'user_auth_blocks',
]);

/**
 * Parses a Web API body: `application/x-www-form-urlencoded` (what @slack/web-api sends; object fields are
 * JSON strings) or `application/json`. Unparseable JSON fields are kept as strings (Slack then answers
 * `invalid_blocks_format` / `invalid_arguments`).
 */
export function parseApiArgs(contentType: string | undefined, raw: string): Record<string, unknown> {
  if (raw.length === 0) return {};
  if ((contentType ?? '').startsWith('application/json')) {
    try {
      const data: unknown = JSON.parse(raw);
      return typeof data === 'object' && data !== null && !Array.isArray(data)
        ? (data as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (JSON_FIELDS.has(key)) {
      try {
        args[key] = JSON.parse(value);
      } catch {
        args[key] = value;
      }
    } else {
      args[key] = value;
    }
  }
  return args;
}

/** The token of a request: `Authorization: Bearer …`, else the `token` argument. */
export function requestToken(
  authorization: string | undefined,
  args: Record<string, unknown>,
): string | null {
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length);
  return typeof args.token === 'string' && args.token.length > 0 ? args.token : null;
}

/** Slack's loose booleans: `true`, `"true"`, `"1"`, `1`. */
export function isTrue(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** A string argument or undefined. */
export function stringArg(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
