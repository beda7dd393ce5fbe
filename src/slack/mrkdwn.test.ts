import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, mentionUser, neutralizePlainText } from './mrkdwn.js';

describe('escapeMrkdwn', () => {
  it.each([
    ['plain', 'plain'],
    ['a & b', 'a &amp; b'],
    ['<!channel>', '&lt;!channel&gt;'],
    ['<!here> <!everyone>', '&lt;!here&gt; &lt;!everyone&gt;'],
    ['<!subteam^S1>', '&lt;!subteam^S1&gt;'],
    ['<@U024BE7LH>', '&lt;@U024BE7LH&gt;'],
    ['<https://x|y>', '&lt;https://x|y&gt;'],
    ['&amp;', '&amp;amp;'],
    ['it\'s "quoted" *bold* _it_ ~s~ `c`', 'it\'s "quoted" *bold* _it_ ~s~ `c`'],
    ['日本語 👩‍👩‍👧 é', '日本語 👩‍👩‍👧 é'],
  ])('%j -> %j', (input, expected) => {
    expect(escapeMrkdwn(input)).toBe(expected);
  });
});

describe('neutralizePlainText', () => {
  it.each([
    ['Yes, <!here> now', 'Yes, ＜!here＞ now'],
    ['a & b', 'a & b'],
    ['<@U024BE7LH>', '＜@U024BE7LH＞'],
  ])('%j -> %j', (input, expected) => {
    expect(neutralizePlainText(input)).toBe(expected);
  });
});

describe('mentionUser', () => {
  it.each([
    ['U0ALICE', '<@U0ALICE>'],
    ['W012ABC', '<@W012ABC>'],
    ['U024BE7LH', '<@U024BE7LH>'],
    ['u0alice', 'u0alice'],
    ['U0', 'U0'],
    ['S0123ABC', 'S0123ABC'],
    ['U0ALICE> <!channel', 'U0ALICE&gt; &lt;!channel'],
    ['', 'someone'],
    [null, 'someone'],
  ])('%j -> %j', (input, expected) => {
    expect(mentionUser(input)).toBe(expected);
  });
});
