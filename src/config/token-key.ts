/** Length of a token encryption key (AES-256), in bytes. */
export const TOKEN_KEY_BYTES = 32;

/**
 * Fewest distinct byte values a key must have. 32 random bytes have about 30; a key of repeated bytes
 * (all zero, `'ab'.repeat(32)`) or a short pattern is refused.
 */
const MIN_DISTINCT_BYTES = 12;

/**
 * Decodes `TOKEN_ENCRYPTION_KEY` (or its `_PREVIOUS`): 64 hex digits (`openssl rand -hex 32`), or the
 * padded base64 of 32 bytes (44 characters ending in `=`, `openssl rand -base64 32`; base64url with its
 * `=` too). Refused: other lengths, unpadded text (a 43-character passphrase reads as base64url), and keys
 * of few distinct bytes.
 * @returns the 32 key bytes, or null when the text is none of these.
 */
export function decodeTokenKey(text: string): Buffer | null {
  const trimmed = text.trim();
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=$/.test(trimmed)) bytes = Buffer.from(trimmed, 'base64');
  else if (/^[A-Za-z0-9_-]{43}=$/.test(trimmed)) bytes = Buffer.from(trimmed.slice(0, 43), 'base64url');
  if (bytes?.length !== TOKEN_KEY_BYTES) return null;
  return new Set(bytes).size >= MIN_DISTINCT_BYTES ? bytes : null;
}
