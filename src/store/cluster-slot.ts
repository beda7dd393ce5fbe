/** Number of Redis Cluster hash slots (cluster spec). */
export const CLUSTER_SLOTS = 16384;

/** CRC16-XMODEM (polynomial 0x1021, initial value 0), the checksum the Redis Cluster spec uses. */
export function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/**
 * The Redis Cluster slot (0-16383) of a key, as `CLUSTER KEYSLOT` computes it: CRC16 of the hash tag (the
 * text between the first `{` and the first `}` after it, when not empty), else of the whole key, mod 16384.
 * Used to check that every group of keys one Lua script touches shares a slot.
 */
export function clusterSlot(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key.slice(open + 1, close)) % CLUSTER_SLOTS;
  }
  return crc16(key) % CLUSTER_SLOTS;
}
