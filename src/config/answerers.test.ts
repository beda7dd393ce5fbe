import { describe, expect, it } from 'vitest';
import type { AnswererPolicy } from '../asks/types.js';
import { parseAnswerers } from './answerers.js';

describe('parseAnswerers', () => {
  it.each<[string, AnswererPolicy]>([
    ['anyone', { mode: 'anyone' }],
    ['', { mode: 'anyone' }],
    [' Anyone ', { mode: 'anyone' }],
    ['requester', { mode: 'requester' }],
    ['REQUESTER', { mode: 'requester' }],
    ['U012ABCDEF', { mode: 'list', userIds: ['U012ABCDEF'], groupIds: [] }],
    ['W0ENTERPRISE', { mode: 'list', userIds: ['W0ENTERPRISE'], groupIds: [] }],
    ['S0ONCALL', { mode: 'list', userIds: [], groupIds: ['S0ONCALL'] }],
    ['U01, S02 ,W03,,U01', { mode: 'list', userIds: ['U01', 'W03'], groupIds: ['S02'] }],
  ])('%j', (text, policy) => {
    expect(parseAnswerers(text)).toEqual({ ok: true, policy });
  });

  it.each<[string, string[]]>([
    ['everyone', ['everyone']],
    ['U01,bob', ['bob']],
    ['u012abc', ['u012abc']],
    ['C0CHANNEL,@alice', ['C0CHANNEL', '@alice']],
    [',', [',']],
    ['U', ['U']],
  ])('%j is refused', (text, invalid) => {
    expect(parseAnswerers(text)).toEqual({ ok: false, invalid });
  });
});
