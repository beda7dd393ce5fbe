import { describe, expect, it } from 'vitest';
import { missingBotScopes, REQUIRED_BOT_SCOPES } from './slack-scopes.js';

describe('missingBotScopes', () => {
  it('finds nothing missing when every scope is granted (header form, extra scopes ignored)', () => {
    expect(missingBotScopes(`${REQUIRED_BOT_SCOPES.join(', ')},commands`)).toEqual([]);
  });

  it('lists the missing ones with the reason', () => {
    const granted = REQUIRED_BOT_SCOPES.filter(
      (scope) => scope !== 'usergroups:read' && scope !== 'chat:write',
    );
    expect(missingBotScopes(granted).map((entry) => entry.scope)).toEqual(['chat:write', 'usergroups:read']);
    expect(missingBotScopes(granted)[0]?.why).toMatch(/post asks/);
  });

  it('treats an empty header as nothing granted', () => {
    expect(missingBotScopes('')).toHaveLength(REQUIRED_BOT_SCOPES.length);
  });
});
