import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { prose as conversationText } from '../../test/support/prose.js';
import { DEFLATE_FROM_BYTES, packChunk, unpackChunk } from './chunk-codec.js';

/** Conversation-like text (deflates about as English does); the seed only has to be fixed. */
const prose = (chars: number) => conversationText(chars, 7);

const json = (text: string) => JSON.stringify([{ role: 'user', content: text }]);

describe('packChunk', () => {
  it.each([
    { name: 'an empty array', value: '[]', deflated: false },
    {
      name: `JSON under ${DEFLATE_FROM_BYTES} bytes`,
      value: json(prose(DEFLATE_FROM_BYTES - 40)),
      deflated: false,
    },
    {
      name: `JSON under ${DEFLATE_FROM_BYTES} bytes with characters outside ASCII`,
      value: json(`${prose(DEFLATE_FROM_BYTES - 80)} échoué 回滚`),
      deflated: false,
    },
    {
      // Redis counts a hash value's listpack limit in bytes: 400 characters of Japanese are 1,200 of them.
      name: `JSON of 400 characters outside ASCII (fewer than ${DEFLATE_FROM_BYTES} characters, more bytes)`,
      value: json('デプロイが失敗しました。ロールバックしますか？'.repeat(18).slice(0, 400)),
      deflated: true,
    },
    { name: 'JSON of 1 KB of prose', value: json(prose(DEFLATE_FROM_BYTES)), deflated: true },
    { name: 'JSON of 20 KB of prose', value: json(prose(20_000)), deflated: true },
    {
      name: 'JSON of random base64 (6 bits a character: still smaller)',
      value: json(randomBytes(3000).toString('base64')),
      deflated: true,
    },
  ])('$name: deflated $deflated, read back unchanged', ({ value, deflated }) => {
    const packed = packChunk(value);
    expect(Buffer.isBuffer(packed)).toBe(deflated);
    if (Buffer.isBuffer(packed)) {
      expect(packed[0]).toBe(0x78);
      expect(packed.length).toBeLessThan(Buffer.byteLength(value));
    } else expect(packed).toBe(value);
    expect(unpackChunk(Buffer.from(packed))).toBe(value);
  });

  /** JSON of exactly `bytes` UTF-8 bytes, most of it two-byte characters (so far fewer characters). */
  const jsonOfBytes = (bytes: number) => {
    const frame = Buffer.byteLength(json(''));
    const pairs = Math.floor((bytes - frame) / 2);
    return json('é'.repeat(pairs) + 'a'.repeat(bytes - frame - pairs * 2));
  };

  it.each([
    { bytes: DEFLATE_FROM_BYTES - 1, deflated: false },
    { bytes: DEFLATE_FROM_BYTES, deflated: true },
  ])('at the limit, counted in bytes: $bytes bytes deflated $deflated', ({ bytes, deflated }) => {
    const value = jsonOfBytes(bytes);
    expect(Buffer.byteLength(value)).toBe(bytes);
    expect(value.length).toBeLessThan(DEFLATE_FROM_BYTES * 0.6);
    expect(Buffer.isBuffer(packChunk(value))).toBe(deflated);
  });

  it('keeps text outside ASCII', () => {
    const value = json(`${prose(2000)} déploiement échoué 🚨 回滚`);
    expect(unpackChunk(Buffer.from(packChunk(value)))).toBe(value);
  });

  it('saves more than half of a 20 KB prose chunk', () => {
    const value = json(prose(20_000));
    expect(packChunk(value).length).toBeLessThan(value.length / 2);
  });
});

describe('unpackChunk', () => {
  it.each([
    {
      name: 'a chunk stored as JSON before chunks were deflated',
      stored: Buffer.from('[{"role":"user","content":"hi"}]'),
    },
  ])('reads $name', ({ stored }) => {
    expect(unpackChunk(stored)).toBe(stored.toString());
  });

  const whole = deflateSync(json(prose(4000)));
  it.each([
    { name: 'a truncated deflate stream', stored: whole.subarray(0, whole.length - 10) },
    {
      name: 'a deflate stream with a wrong checksum',
      stored: Buffer.concat([whole.subarray(0, -1), Buffer.from([(whole.at(-1) ?? 0) ^ 1])]),
    },
    { name: 'bytes that are neither JSON nor zlib', stored: Buffer.from([0x00, 0x01, 0x02]) },
    { name: 'an empty value', stored: Buffer.alloc(0) },
  ])('throws on $name', ({ stored }) => {
    expect(() => unpackChunk(stored)).toThrow();
  });
});
