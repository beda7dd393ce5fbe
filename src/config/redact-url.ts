const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i;

/**
 * Masks the credentials of a URL as the user wrote it: `redis://:s3cret@host:6379/0` ->
 * `redis://:***@host:6379/0`, `redis://app:s3cret@host` -> `redis://app:***@host`, and a bare user-info part
 * (often a token, `https://TOKEN@host`) -> `https://***@host`. The rest of the text is kept as given.
 * Text that is not a URL is returned as `<not a URL>` rather than echoed (it could be a secret pasted into
 * the wrong variable).
 */
export function redactUrl(text: string): string {
  try {
    new URL(text);
  } catch {
    return '<not a URL>';
  }
  return text.replace(USERINFO, (_whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${scheme}***@` : `${scheme}${userinfo.slice(0, colon)}:***@`;
  });
}
