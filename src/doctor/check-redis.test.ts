import { describe, expect, it } from 'vitest';
import { hashEncodingCheck } from './check-redis.js';

describe('hashEncodingCheck', () => {
  it.each([
    { value: 1024, detail: 'hash-max-listpack-value 1024', warning: false },
    { value: 4096, detail: 'hash-max-listpack-value 4096', warning: false },
    { value: 64, detail: 'hash-max-listpack-value 64 (1024 recommended)', warning: true },
    { value: 1023, detail: 'hash-max-listpack-value 1023 (1024 recommended)', warning: true },
    {
      value: null,
      detail: 'hash-max-listpack-value unknown (CONFIG GET refused or unanswered; optional setting)',
      warning: false,
    },
  ])('$value: $detail, warning $warning, never a failure', ({ value, detail, warning }) => {
    const check = hashEncodingCheck(value);
    expect(check).toMatchObject({ name: 'Redis hash encoding', ok: true, detail });
    expect(check.warning === true).toBe(warning);
    if (warning)
      expect(check.fix).toMatch(/--hash-max-ziplist-value 1024.*CONFIG SET hash-max-ziplist-value 1024/s);
    else expect(check.fix).toBeUndefined();
  });
});
