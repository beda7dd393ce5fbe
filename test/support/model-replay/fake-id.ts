const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/**
 * A deterministic pseudo-random string of `length` characters from `alphabet`, derived from `seed`
 * (FNV-1a then xorshift32). Used to make ids that look like real ones without randomness.
 */
export function fakeId(seed: string, length: number, alphabet: string = BASE62): string {
  let state = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) {
    state ^= seed.charCodeAt(index);
    state = Math.imul(state, 0x01000193) >>> 0;
  }
  let out = '';
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

/** {@link fakeId} over lowercase hex (OpenAI Responses ids: `resp_`, `msg_`, `fc_` + 48 hex digits). */
export function fakeHexId(seed: string, length: number): string {
  return fakeId(seed, length, HEX);
}
