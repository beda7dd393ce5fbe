import { describe, expect, it } from 'vitest';
import { createTokenCipher, tokenKeyId } from './token-cipher.js';

const KEY_A = Buffer.alloc(32, 1);
const KEY_B = Buffer.alloc(32, 2);
const TOKEN = 'xoxb-1111-2222-secret';

/** Flips one character of the `index`-th dot-separated part of a sealed record. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const part = parts[index] ?? '';
  const flipped = part.startsWith('A') ? `B${part.slice(1)}` : `A${part.slice(1)}`;
  parts[index] = flipped;
  return parts.join('.');
}

describe('token cipher (AES-256-GCM)', () => {
  it('opens what it sealed; the record holds no plaintext and names the key id, a fresh IV each time', () => {
    const cipher = createTokenCipher(KEY_A);
    const first = cipher.seal(TOKEN, 'T-T1');
    const second = cipher.seal(TOKEN, 'T-T1');
    expect(first).not.toContain('xoxb');
    expect(first).not.toBe(second);
    expect(first.split('.')).toHaveLength(5);
    expect(first.split('.')[1]).toBe(tokenKeyId(KEY_A));
    expect(Buffer.from(first.split('.')[2] ?? '', 'base64url')).toHaveLength(12);
    expect(cipher.open(first, 'T-T1')).toEqual({ plain: TOKEN, stale: false });
  });

  it.each([
    ['the ciphertext', 4],
    ['the tag', 3],
    ['the IV', 2],
  ])('refuses a record whose %s was changed', (_name, index) => {
    const cipher = createTokenCipher(KEY_A);
    const sealed = cipher.seal(TOKEN, 'T-T1');
    expect(() => cipher.open(tamper(sealed, index), 'T-T1')).toThrow(/token record cannot be read/);
  });

  it('refuses a record bound to another installation (moved between teams)', () => {
    const cipher = createTokenCipher(KEY_A);
    expect(() => cipher.open(cipher.seal(TOKEN, 'T-T1'), 'T-T2')).toThrow(/another installation/);
  });

  it.each([
    ['not a record', 'xoxb-plain'],
    ['an unknown version', 'v9.a.b.c.d'],
    ['a short IV', `v1.${tokenKeyId(KEY_A)}.AAAA.${Buffer.alloc(16).toString('base64url')}.AAAA`],
  ])('refuses %s', (_name, sealed) => {
    expect(() => createTokenCipher(KEY_A).open(sealed, 'T-T1')).toThrow(/token record cannot be read/);
  });

  it('rotation: the new cipher opens records of the previous key and says they are stale; seals under the new one', () => {
    const old = createTokenCipher(KEY_A);
    const sealedOld = old.seal(TOKEN, 'T-T1');
    const rotated = createTokenCipher(KEY_B, KEY_A);
    expect(rotated.open(sealedOld, 'T-T1')).toEqual({ plain: TOKEN, stale: true });
    const resealed = rotated.seal(TOKEN, 'T-T1');
    expect(resealed.split('.')[1]).toBe(tokenKeyId(KEY_B));
    expect(rotated.open(resealed, 'T-T1')).toEqual({ plain: TOKEN, stale: false });
    // Once the previous key is dropped, its records no longer open, with the reason.
    expect(() => createTokenCipher(KEY_B).open(sealedOld, 'T-T1')).toThrow(/neither TOKEN_ENCRYPTION_KEY/);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => createTokenCipher(Buffer.alloc(16))).toThrow(/32 bytes/);
    expect(() => createTokenCipher(KEY_A, Buffer.alloc(31))).toThrow(/32 bytes/);
  });
});
