import { isIP } from 'node:net';

/**
 * Whether a webhook may be sent to address `ip`: every address but link-local ones (IPv4 169.254.0.0/16,
 * IPv6 fe80::/10, and IPv4-mapped forms), where cloud metadata services answer (169.254.169.254,
 * fd00:ec2::254 too): a token holder must not make the server read or poke them. Private and loopback
 * addresses are allowed: a self-hosted bot's receivers usually are internal. Pure.
 */
export function webhookAddressAllowed(ip: string): boolean {
  const address = ip.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const v4 = mapped ?? (isIP(address) === 4 ? address : null);
  if (v4 !== null) return !v4.startsWith('169.254.');
  if (isIP(address) === 6) {
    if (/^fe[89ab][0-9a-f]:/.test(address)) return false;
    if (address === 'fd00:ec2::254') return false;
  }
  return true;
}
