import { describe, expect, it } from 'vitest';
import { readableSlackText } from '../../../scripts/readable-slack-text.js';

const names = {
  users: { U0BOB: 'bob', U0ALICE: 'alice', U0BOT: 'holdpoint' },
  channels: { C0OPS: 'ops' },
  timeZone: 'UTC',
};

describe('readableSlackText', () => {
  it.each([
    ['plain text stays', 'Roll back to v2.14.3', 'Roll back to v2.14.3'],
    ['a known user', '✅ *Hotfix forward* — chosen by <@U0BOB>', '✅ *Hotfix forward* — chosen by @bob'],
    ['two users', '<@U0ALICE> asked, <@U0BOB> answered', '@alice asked, @bob answered'],
    ['an unknown user with a label', '<@U0CAROL|carol>', '@carol'],
    ['an unknown user', '(👤 Who can approve: <@U0DAVE>)', '(👤 Who can approve: @U0DAVE)'],
    ['a known channel', 'in <#C0OPS>', 'in #ops'],
    ['a channel label', 'in <#C0DEV|dev>', 'in #dev'],
    [
      'a date token, in the given zone',
      '⏱ No answer by <!date^1700000000^{date_short_pretty} at {time}|2023-11-14 22:13 UTC> (30 min)?',
      '⏱ No answer by 2023-11-14 22:13 UTC (30 min)?',
    ],
    ['a user group', 'approvers: <!subteam^S0ONCALL>', 'approvers: @group'],
    ['a user group with its handle', '<!subteam^S0ONCALL|@oncall>', '@oncall'],
    ['@here', '<!here> heads up', '@here heads up'],
    [
      'a labelled link',
      'see <https://example.com/runbook|the runbook>',
      'see the runbook (https://example.com/runbook)',
    ],
    ['a bare link', '<https://example.com>', 'https://example.com'],
    ['escapes', 'Restore v1.4 &amp; keep data &lt;now&gt;', 'Restore v1.4 & keep data <now>'],
    ['escaped text never becomes a token', '&lt;@U0BOB&gt;', '<@U0BOB>'],
    ['a lone angle bracket', 'a < b > c', 'a < b > c'],
  ])('%s', (_case, text, expected) => {
    expect(readableSlackText(text, names)).toBe(expected);
  });

  it.each([
    ['UTC', '2023-11-14 22:13 UTC'],
    ['Asia/Tokyo', '2023-11-15 07:13 GMT+9'],
    ['America/New_York', '2023-11-14 17:13 GMT-5'],
  ])('shows a date in %s as %s', (timeZone, expected) => {
    expect(readableSlackText('<!date^1700000000^{time}|fallback>', { timeZone })).toBe(expected);
  });
});
