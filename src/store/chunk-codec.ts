import { deflateSync, inflateSync } from 'node:zlib';

/**
 * A message chunk's JSON of at least this many UTF-8 bytes (1,024) is stored deflated. Below it deflate saves
 * little (about 45% of 750 bytes of prose) for a fixed 15-50 µs, and a step that adds one short message is
 * the common write. Bytes, not characters: Redis keeps a hash compact while each value is at most
 * `hash-max-listpack-value` bytes (docker-compose.yml sets 1,024), and text outside ASCII takes 2-4 bytes a
 * character.
 */
export const DEFLATE_FROM_BYTES = 1024;

/**
 * zlib level 1 (fastest). Measured on this project's 2-core machine with 20 KB of prose JSON: level 1 keeps
 * 40% of the bytes in 180 µs, level 6 37% in 370 µs; inflating takes about 55 µs at either level.
 */
const DEFLATE_LEVEL = 1;

/** First byte of every zlib stream with a 32 KB window (RFC 1950 CMF `0x78`); a JSON array starts with `[`. */
const ZLIB_FIRST_BYTE = 0x78;
const JSON_ARRAY_FIRST_BYTE = 0x5b;

/**
 * The value stored for a chunk of messages (hash field `c<i>` of a turn): its JSON unchanged when shorter
 * than {@link DEFLATE_FROM_BYTES} in UTF-8, else a zlib stream (RFC 1950:
 * a 2-byte header, then deflate, then an Adler-32 checksum of the JSON, so a damaged value is detected).
 * @param json a JSON array (of messages)
 */
export function packChunk(json: string): string | Buffer {
  // A string's UTF-8 bytes are never fewer than its UTF-16 code units, so only short strings are counted.
  if (json.length < DEFLATE_FROM_BYTES && Buffer.byteLength(json) < DEFLATE_FROM_BYTES) return json;
  return deflateSync(json, { level: DEFLATE_LEVEL });
}

/**
 * The JSON of a stored chunk, as {@link packChunk} wrote it or as it was stored before chunks were deflated
 * (JSON text).
 * @throws RangeError when the value is neither a JSON array nor an intact zlib stream (the zlib error is its `cause`)
 */
export function unpackChunk(stored: Buffer): string {
  if (stored[0] === JSON_ARRAY_FIRST_BYTE) return stored.toString();
  if (stored[0] !== ZLIB_FIRST_BYTE)
    throw new RangeError(
      `a message chunk starts with byte ${stored[0] ?? 'none'}, neither "[" nor zlib's 0x78`,
    );
  try {
    return inflateSync(stored).toString();
  } catch (cause) {
    throw new RangeError(`a deflated message chunk does not inflate: ${(cause as Error).message}`, { cause });
  }
}
