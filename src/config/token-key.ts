/** Length of a token encryption key (AES-256), in bytes. */
export const TOKEN_KEY_BYTES = 32;

/**
 * Decodes `TOKEN_ENCRYPTION_KEY` (or its `_PREVIOUS`): 64 hex digits, or base64 / base64url of 32 bytes.
 * @returns the 32 key bytes, or null when the text is neither.
 */
export function decodeTokenKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return bytes.length === TOKEN_KEY_BYTES ? bytes : null;
}
