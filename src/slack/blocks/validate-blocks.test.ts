import { describe, expect, it } from 'vitest';
import { validateBlocks, validateModalView } from './validate-blocks.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const button = (actionId: string, text = 'Go', extra: Record<string, unknown> = {}) => ({
  type: 'button',
  action_id: actionId,
  text: plain(text),
  value: 'v',
  ...extra,
});

describe('validateBlocks', () => {
  it('accepts valid blocks', () => {
    const blocks = [
      { type: 'header', block_id: 'h', text: plain('Title') },
      { type: 'section', block_id: 's', text: { type: 'mrkdwn', text: '*hi*' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'ctx' }] },
      { type: 'divider' },
      { type: 'actions', block_id: 'a', elements: [button('a1'), button('a2')] },
    ];
    expect(validateBlocks(blocks, 'message')).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    ['not an array', {}, ['must provide an array [json-pointer:/blocks]']],
    [
      'too many blocks',
      Array.from({ length: 51 }, () => ({ type: 'divider' })),
      ['no more than 50 items allowed [json-pointer:/blocks]'],
    ],
    [
      'button text over 75',
      [{ type: 'actions', elements: [button('a', 'x'.repeat(76))] }],
      ['must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]'],
    ],
    [
      'button text as mrkdwn',
      [
        {
          type: 'actions',
          elements: [{ type: 'button', action_id: 'a', text: { type: 'mrkdwn', text: 'x' } }],
        },
      ],
      ['must be plain_text [json-pointer:/blocks/0/elements/0/text/type]'],
    ],
    [
      'button without text',
      [{ type: 'actions', elements: [{ type: 'button', action_id: 'a' }] }],
      ['missing required field [json-pointer:/blocks/0/elements/0/text]'],
    ],
    [
      'duplicate action_id in one block (C01)',
      [{ type: 'actions', elements: [button('same'), button('same')] }],
      ['action_id must be unique within a block: same [json-pointer:/blocks/0/elements/1/action_id]'],
    ],
    [
      'duplicate block_id',
      [
        { type: 'divider', block_id: 'b' },
        { type: 'divider', block_id: 'b' },
      ],
      ['block_id must be unique: b [json-pointer:/blocks/1/block_id]'],
    ],
    [
      'block_id over 255',
      [{ type: 'divider', block_id: 'b'.repeat(256) }],
      ['must be less than 256 characters [json-pointer:/blocks/0/block_id]'],
    ],
    [
      'action_id over 255',
      [{ type: 'actions', elements: [button('a'.repeat(256))] }],
      ['must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]'],
    ],
    [
      'value over 2000',
      [{ type: 'actions', elements: [button('a', 'x', { value: 'v'.repeat(2001) })] }],
      ['must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]'],
    ],
    [
      'header over 150 and mrkdwn',
      [{ type: 'header', text: { type: 'mrkdwn', text: 'h'.repeat(151) } }],
      [
        'must be plain_text [json-pointer:/blocks/0/text/type]',
        'must be less than 151 characters [json-pointer:/blocks/0/text/text]',
      ],
    ],
    [
      'section text over 3000',
      [{ type: 'section', text: { type: 'mrkdwn', text: 's'.repeat(3001) } }],
      ['must be less than 3001 characters [json-pointer:/blocks/0/text/text]'],
    ],
    ['missing type', [{ block_id: 'x' }], ['missing required field [json-pointer:/blocks/0/type]']],
    ['unknown type', [{ type: 'banana' }], ['unsupported type: banana [json-pointer:/blocks/0/type]']],
    [
      'too many context elements',
      [{ type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'x' })) }],
      ['no more than 10 items allowed [json-pointer:/blocks/0/elements]'],
    ],
    [
      'too many actions elements',
      [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button(`a${i}`)) }],
      ['no more than 25 items allowed [json-pointer:/blocks/0/elements]'],
    ],
    [
      'checkboxes over the option limits',
      [
        {
          type: 'actions',
          elements: [
            {
              type: 'checkboxes',
              action_id: 'c',
              options: [
                { text: plain('o'.repeat(76)), value: 'v'.repeat(151), description: plain('d'.repeat(76)) },
                ...Array.from({ length: 10 }, (_, i) => ({ text: plain('x'), value: String(i) })),
              ],
            },
          ],
        },
      ],
      [
        'no more than 10 items allowed [json-pointer:/blocks/0/elements/0/options]',
        'must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/text/text]',
        'must be less than 151 characters [json-pointer:/blocks/0/elements/0/options/0/value]',
        'must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/description/text]',
      ],
    ],
    [
      'empty text',
      [{ type: 'section', text: { type: 'mrkdwn', text: '' } }],
      ['must be more than 0 characters [json-pointer:/blocks/0/text/text]'],
    ],
  ])('%s', (_name, blocks, expected) => {
    expect(validateBlocks(blocks, 'message')).toEqual(expected);
  });

  it('allows 100 blocks in a modal but not 101', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(validateBlocks(blocks(100), 'modal')).toEqual([]);
    expect(validateBlocks(blocks(101), 'modal')).toEqual([
      'no more than 100 items allowed [json-pointer:/blocks]',
    ]);
  });
});

describe('validateModalView', () => {
  const input = {
    type: 'input',
    block_id: 'i',
    label: plain('Answer'),
    element: { type: 'plain_text_input', action_id: 't', multiline: true, max_length: 3000 },
  };
  it('accepts a valid modal', () => {
    expect(
      validateModalView({ type: 'modal', title: plain('Answer'), submit: plain('Send'), blocks: [input] }),
    ).toEqual([]);
  });
  it.each<[string, unknown, string[]]>([
    [
      'title over 24, no submit with input',
      { type: 'modal', title: plain('t'.repeat(25)), blocks: [input] },
      [
        'must be less than 25 characters [json-pointer:/view/title/text]',
        'missing required field [json-pointer:/view/submit]',
      ],
    ],
    [
      'private_metadata over 3000 and max_length over 3000',
      {
        type: 'modal',
        title: plain('A'),
        submit: plain('S'),
        private_metadata: 'm'.repeat(3001),
        blocks: [{ ...input, element: { ...input.element, max_length: 3001 } }],
      },
      [
        'must be less than 3001 characters [json-pointer:/view/private_metadata]',
        'must be an integer between 1 and 3000 [json-pointer:/view/blocks/0/element/max_length]',
      ],
    ],
    [
      'not a modal',
      { type: 'home', title: plain('A'), blocks: [] },
      ['must be one of: modal [json-pointer:/view/type]'],
    ],
  ])('%s', (_name, view, expected) => {
    expect(validateModalView(view)).toEqual(expected);
  });
});
