import { describe, expect, it } from 'vitest';
import { hashEncodingCheck } from './check-redis.js';

const listpack = 'hash-max-listpack-value' as const;
const ziplist = 'hash-max-ziplist-value' as const;

describe('hashEncodingCheck', () => {
  it.each([
    { setting: { name: listpack, value: 1024 }, detail: 'hash-max-listpack-value 1024', warning: false },
    { setting: { name: listpack, value: 4096 }, detail: 'hash-max-listpack-value 4096', warning: false },
    // Redis 6.2 knows only the older name: the line says the name the server answered to.
    { setting: { name: ziplist, value: 1024 }, detail: 'hash-max-ziplist-value 1024', warning: false },
    {
      setting: { name: listpack, value: 64 },
      detail: 'hash-max-listpack-value 64 (1024 recommended)',
      warning: true,
    },
    {
      setting: { name: ziplist, value: 1023 },
      detail: 'hash-max-ziplist-value 1023 (1024 recommended)',
      warning: true,
    },
    // Unread is not a pass: ⚠ like the other values Redis refuses to tell, with what to check.
    {
      setting: null,
      detail: 'hash-max-listpack-value unknown (CONFIG GET refused or unanswered; optional setting)',
      warning: true,
    },
  ])('$detail: warning $warning, never a failure', ({ setting, detail, warning }) => {
    const check = hashEncodingCheck(setting);
    expect(check).toMatchObject({ name: 'Redis hash encoding', ok: true, detail });
    expect(check.warning === true).toBe(warning);
    if (!warning) expect(check.fix).toBeUndefined();
    else if (setting === null) expect(check.fix).toMatch(/Optional: .*1024.*CONFIG GET/s);
    else expect(check.fix).toMatch(/--hash-max-ziplist-value 1024.*CONFIG SET hash-max-ziplist-value 1024/s);
  });
});
