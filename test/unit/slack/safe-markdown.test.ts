import { describe, expect, it } from 'vitest';
import { safeMarkdown } from '../../../src/slack/reply-streams.js';

const Z = '\u200b';

describe('safeMarkdown: model text in a stream cannot ping, mention or show a disguised link', () => {
  it.each([
    ['plain text', 'Roll back to 2.40.', '', 'Roll back to 2.40.'],
    ['a broadcast', 'ping <!channel> now', '', 'ping &lt;!channel&gt; now'],
    ['a mention', 'ask <@U0BOB>', '', 'ask &lt;@U0BOB&gt;'],
    ['an mrkdwn link', '<https://evil.example|click>', '', '&lt;https://evil.example|click&gt;'],
    ['a Markdown link', '[Approve](https://evil.example)', '', `[Approve]${Z}(https://evil.example)`],
    ['a Markdown image', '![x](https://evil.example/a.png)', '', `![x]${Z}(https://evil.example/a.png)`],
    ['a reference link', '[Approve][1]', '', `[Approve]${Z}[1]`],
    ['a link split across pieces', '(https://evil.example)', ']', `${Z}(https://evil.example)`],
    ['brackets that are no link', 'see [1] and (2)', '', 'see [1] and (2)'],
    ['an ampersand', 'R&D', '', 'R&amp;D'],
  ])('%s', (_name, delta, before, shown) => {
    expect(safeMarkdown(delta, before)).toBe(shown);
  });
});
