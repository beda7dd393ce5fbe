import { describe, expect, it } from 'vitest';
import { inboxAskOfBlockId, inboxBlockId } from '../../../src/slack/blocks/action-ids.js';
import { type ClaimedInboxClick, comesFromInbox } from '../../../src/slack/handlers/message-match.js';

const ASK = 'a1b2c3d4-0000-4000-8000-000000000001';
const OTHER = 'a1b2c3d4-0000-4000-8000-000000000002';
const home = { type: 'home', callback_id: 'hp.home' };
const view = { type: 'view' };
const ephemeral = { type: 'message', is_ephemeral: true };

describe('comesFromInbox: a click from the Home tab or the inbox ephemeral names its ask in its block', () => {
  const cases: Array<[string, ClaimedInboxClick, boolean]> = [
    ['Home view, row of that ask', { container: view, view: home, blockId: inboxBlockId(ASK, 3, 'b') }, true],
    ['ephemeral inbox, row of that ask', { container: ephemeral, blockId: inboxBlockId(ASK, 0, 'b') }, true],
    [
      'Home view, row of another ask',
      { container: view, view: home, blockId: inboxBlockId(OTHER, 3, 'b') },
      false,
    ],
    [
      'a modal, not the Home view',
      {
        container: view,
        view: { type: 'modal', callback_id: 'hp.home' },
        blockId: inboxBlockId(ASK, 1, 'b'),
      },
      false,
    ],
    [
      'another app home view',
      { container: view, view: { type: 'home', callback_id: 'x' }, blockId: inboxBlockId(ASK, 1, 'b') },
      false,
    ],
    [
      'a message that is not ephemeral',
      { container: { type: 'message', is_ephemeral: false }, blockId: inboxBlockId(ASK, 1, 'b') },
      false,
    ],
    ['an ask message block_id', { container: view, view: home, blockId: `hp.${ASK}.r1.0.act` }, false],
    ['no block_id', { container: view, view: home, blockId: undefined }, false],
  ];
  for (const [name, claimed, expected] of cases) {
    it(name, () => {
      expect(comesFromInbox(ASK, claimed)).toBe(expected);
    });
  }

  it('inboxAskOfBlockId reads back what inboxBlockId wrote, and nothing else', () => {
    expect(inboxAskOfBlockId(inboxBlockId(ASK, 12, 's'))).toBe(ASK);
    expect(inboxAskOfBlockId('hp.inbox.h.answer')).toBeNull();
    expect(inboxAskOfBlockId('hp.inbox.x.r1.b.extra')).toBeNull();
    expect(inboxAskOfBlockId(42)).toBeNull();
  });
});
