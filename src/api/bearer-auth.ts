import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiToken } from '../config/api-tokens.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The client an `Authorization: Bearer <token>` header names, or null. Every configured token is compared
 * (SHA-256 digests with `timingSafeEqual`, so neither the token's length nor its first wrong character
 * shows in the timing), whichever matches.
 */
export function authenticate(header: string | undefined, tokens: readonly ApiToken[]): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const given = digest(match?.[1] ?? '');
  let name: string | null = null;
  for (const token of tokens) {
    if (timingSafeEqual(given, digest(token.token)) && match) name = token.name;
  }
  return name;
}
