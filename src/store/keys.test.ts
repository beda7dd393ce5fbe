import { describe, expect, it } from 'vitest';
import { StateError } from '../errors.js';
import { clusterSlot, crc16 } from './cluster-slot.js';
import { askIndexMember, parseAskIndexMember, StoreKeys } from './keys.js';

describe('clusterSlot', () => {
  it.each([
    // Redis Cluster spec: "the CRC16 output for '123456789' is 31C3" (0x31C3 = 12739).
    ['123456789', 12739],
    // Cluster spec examples: these keys hash on their tag only, so they share the slot of the tag.
    ['{user1000}.following', clusterSlot('user1000')],
    ['{user1000}.followers', clusterSlot('user1000')],
    // An empty tag `{}` hashes the whole key.
    ['foo{}{bar}', crc16('foo{}{bar}') % 16384],
    ['foo{{bar}}zap', crc16('{bar') % 16384],
  ])('%s -> %i', (key, slot) => {
    expect(clusterSlot(key)).toBe(slot);
  });
});

describe('StoreKeys', () => {
  const keys = new StoreKeys();

  it('builds the documented layout under the default prefix', () => {
    expect(keys.turn('T1')).toBe('hp:{t:T1}:turn');
    expect(keys.ask('T1', 'A1')).toBe('hp:{t:T1}:ask:A1');
    expect(keys.askIndex()).toBe('hp:asks');
    expect(keys.event('Ev1')).toBe('hp:event:Ev1');
    expect(keys.threadHolder('slack-C1-1.2')).toBe('hp:{th:slack-C1-1.2}:holder');
    expect(keys.threadInbox('slack-C1-1.2')).toBe('hp:{th:slack-C1-1.2}:inbox');
    expect(keys.slackPost('reply-T1')).toBe('hp:slack:post:reply-T1');
    expect(keys.slackThread('slack-C1-1.2')).toBe('hp:slack:thread:slack-C1-1.2');
    expect(keys.slackHeldReply('C1', '1.2')).toBe('hp:slack:reply:C1:1.2');
    expect(keys.slackUserName('U0ALICE')).toBe('hp:{slack-users}:user:U0ALICE');
    // One slot for all names: one MGET reads a thread's names, also in a Redis Cluster.
    expect(clusterSlot(keys.slackUserName('U0ALICE'))).toBe(clusterSlot(keys.slackUserName('U0BOB')));
  });

  it('uses a configured prefix', () => {
    expect(new StoreKeys('hpx').turn('T1')).toBe('hpx:{t:T1}:turn');
  });

  it('refuses an empty prefix', () => {
    expect(() => new StoreKeys('')).toThrow(StateError);
  });

  const turnIds = [
    'T1',
    '123456',
    'slack-C0123-1700000000.000100',
    'a:b:c',
    'e0e0c9f2-3b61-4c35-9a4b-0c1f6e6d3b7a',
    'x}y',
  ];
  it.each(turnIds)('puts the keys of turn %s (one script group) into one slot', (turnId) => {
    const group = [keys.turn(turnId), keys.ask(turnId, 'ask-0'), keys.ask(turnId, 'ask-1:with:colons')];
    const slots = new Set(group.map(clusterSlot));
    expect(slots.size).toBe(1);
  });

  it.each(turnIds)('puts the holder and inbox of thread %s into one slot', (threadKey) => {
    expect(clusterSlot(keys.threadHolder(threadKey))).toBe(clusterSlot(keys.threadInbox(threadKey)));
  });

  it('spreads different turns over different slots', () => {
    const slots = new Set(Array.from({ length: 50 }, (_, i) => clusterSlot(keys.turn(`turn-${i}`))));
    expect(slots.size).toBeGreaterThan(40);
  });
});

describe('ask index members', () => {
  it.each([
    ['T1', 'A1', 'T1|A1'],
    ['slack-C1-1.2', 'ask|odd', 'slack-C1-1.2|ask|odd'],
  ])('%s + %s <-> %s', (turnId, askId, member) => {
    expect(askIndexMember(turnId, askId)).toBe(member);
    expect(parseAskIndexMember(member)).toEqual({ turnId, askId });
  });

  it('refuses a turn id with |', () => {
    expect(() => askIndexMember('a|b', 'A1')).toThrow(StateError);
  });

  it.each(['', 'noseparator', '|A1', 'T1|'])('reads %j as malformed', (member) => {
    expect(parseAskIndexMember(member)).toBeNull();
  });
});
