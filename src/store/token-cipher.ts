import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { StateError } from '../errors.js';

/** Version tag of a sealed record (the first field of {@link TokenCipher.seal}'s output). */
const SEALED_VERSION = 'v1';
/** AES-GCM nonce length, in bytes (96 bits, as NIST recommends for GCM). */
const IV_BYTES = 12;
/** AES-GCM authentication tag length, in bytes. */
const TAG_BYTES = 16;

/** What {@link TokenCipher.open} gives back: the plaintext, and whether it was sealed under the previous key. */
export interface OpenedSecret {
  plain: string;
  /** Sealed under the previous key: write it again with {@link TokenCipher.seal} (re-encrypt on read). */
  stale: boolean;
}

/**
 * Encrypts secrets at rest (AES-256-GCM): every record gets a random 12-byte IV, names the key that sealed it
 * (`kid`, the first 8 hex digits of the key's SHA-256, never the key), and is bound to a context (the
 * installation it belongs to) as additional authenticated data, so a record copied to another installation's
 * key does not open. Format: `v1.<kid>.<iv b64url>.<tag b64url>.<ciphertext b64url>`.
 */
export interface TokenCipher {
  /** Seals `plain` under the current key, bound to `context`. */
  seal(plain: string, context: string): string;
  /**
   * Opens a record sealed under the current or the previous key.
   * @throws StateError `token_unreadable` when the record is malformed, sealed under an unknown key, bound to
   * another context, or tampered with.
   */
  open(sealed: string, context: string): OpenedSecret;
  /** The current key's id. */
  readonly keyId: string;
}

/** The id of a key as records name it: 8 hex digits of its SHA-256 (reveals nothing usable about the key). */
export function tokenKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function unreadable(reason: string): StateError {
  return new StateError('token_unreadable', `an encrypted token record cannot be read: ${reason}`);
}

/**
 * Builds the cipher of `current` (32 bytes), also opening records of `previous` during a key rotation.
 * @throws StateError `token_key_invalid` when a key is not 32 bytes.
 */
export function createTokenCipher(current: Buffer, previous: Buffer | null = null): TokenCipher {
  for (const key of [current, previous])
    if (key !== null && key.length !== 32)
      throw new StateError('token_key_invalid', 'a token encryption key must be 32 bytes');
  const currentId = tokenKeyId(current);
  const keys = new Map<string, Buffer>([[currentId, current]]);
  if (previous !== null) keys.set(tokenKeyId(previous), previous);
  return {
    keyId: currentId,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [SEALED_VERSION, currentId, iv, tag, body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== SEALED_VERSION) throw unreadable('not a v1 record');
      const [, kid = '', ivText = '', tagText = '', bodyText = ''] = parts;
      const key = keys.get(kid);
      if (key === undefined)
        throw unreadable(
          `sealed under key ${kid}, which is neither TOKEN_ENCRYPTION_KEY nor TOKEN_ENCRYPTION_KEY_PREVIOUS`,
        );
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw unreadable('bad IV or tag length');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        const plain = Buffer.concat([
          decipher.update(Buffer.from(bodyText, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
        return { plain, stale: kid !== currentId };
      } catch {
        throw unreadable('authentication failed (tampered, or bound to another installation)');
      }
    },
  };
}
