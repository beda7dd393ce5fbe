import { describe, expect, it } from 'vitest';
import { StateError } from '../../errors.js';
import {
  ACTION_ID_PATTERN,
  blockId,
  encodeActionValue,
  encodeMenuValue,
  encodeModalMetadata,
  OPENS_MODAL_ACTION_ID_PATTERN,
  OPTION_ACTION_ID_PATTERN,
  optionActionId,
  parseActionId,
  parseActionValue,
  parseMenuValue,
  parseModalMetadata,
  questionActionId,
  SUBMIT_ACTION_ID_PATTERN,
  selectedCheckboxIndexes,
  selectedRadioIndex,
} from './action-ids.js';

describe('parseActionId', () => {
  it.each([
    ['hp.option.0.0', { kind: 'option', questionIndex: 0, optionIndex: 0 }],
    ['hp.option.2.3', { kind: 'option', questionIndex: 2, optionIndex: 3 }],
    ['hp.other.1', { kind: 'other', questionIndex: 1, optionIndex: null }],
    ['hp.answer.0', { kind: 'answer', questionIndex: 0, optionIndex: null }],
    ['hp.checks.2', { kind: 'checks', questionIndex: 2, optionIndex: null }],
    ['hp.submit.0', { kind: 'submit', questionIndex: 0, optionIndex: null }],
    ['hp.radio.1', { kind: 'radio', questionIndex: 1, optionIndex: null }],
    ['hp.radio.3', null],
    ['hp.more', { kind: 'more', questionIndex: null, optionIndex: null }],
    // Messages posted before Cancel moved into the menu still carry it.
    ['hp.cancel', { kind: 'cancel', questionIndex: null, optionIndex: null }],
    ['hp.option.3.0', null],
    ['hp.option.0.4', null],
    ['hp.option.01.0', null],
    ['hp.option.0', null],
    ['hp.answer.text', null],
    ['hp.other.', null],
    ['question_answer:0', null],
    ['hp.cancel.0', null],
    [42, null],
    [null, null],
  ])('%j -> %j', (input, expected) => {
    expect(parseActionId(input)).toEqual(expected);
  });

  it('builders and patterns agree', () => {
    expect(optionActionId(1, 2)).toBe('hp.option.1.2');
    expect(questionActionId('submit', 2)).toBe('hp.submit.2');
    expect(OPTION_ACTION_ID_PATTERN.test('hp.option.1.2')).toBe(true);
    expect(SUBMIT_ACTION_ID_PATTERN.test('hp.submit.2')).toBe(true);
    expect(OPENS_MODAL_ACTION_ID_PATTERN.test('hp.other.0')).toBe(true);
    expect(OPENS_MODAL_ACTION_ID_PATTERN.test('hp.answer.0')).toBe(true);
    expect(OPENS_MODAL_ACTION_ID_PATTERN.test('hp.answer.text')).toBe(false);
    expect(ACTION_ID_PATTERN.test('hp.cancel')).toBe(true);
    expect(() => optionActionId(3, 0)).toThrow(StateError);
    expect(() => optionActionId(0, 4)).toThrow(StateError);
  });
});

describe('action values', () => {
  it.each([
    [{ turnId: 't1', askId: 'a1', questionIndex: 0, optionIndex: 2 }, 'v1|t1|a1|0|2'],
    [{ turnId: 't1', askId: 'a1', questionIndex: 1, optionIndex: null }, 'v1|t1|a1|1|-'],
    [{ turnId: 'turn:x', askId: 'ask.y', questionIndex: null, optionIndex: null }, 'v1|turn:x|ask.y|-|-'],
  ])('%j <-> %s', (ref, encoded) => {
    expect(encodeActionValue(ref)).toBe(encoded);
    expect(parseActionValue(encoded)).toEqual(ref);
  });

  it.each([
    ['v2|t|a|0|0'],
    ['v1|t|a|0'],
    ['v1|t|a|0|0|x'],
    ['v1||a|0|0'],
    ['v1|t||0|0'],
    ['v1|t|a|3|0'],
    ['v1|t|a|0|4'],
    ['v1|t|a|00|0'],
    ['v1|t|a|x|0'],
    ['Q0001|0'],
    [''],
    [`v1|${'t'.repeat(2000)}|a|0|0`],
    [undefined],
    [{ turnId: 't' }],
  ])('rejects %j', (value) => {
    expect(parseActionValue(value)).toBeNull();
  });

  it('refuses ids that cannot be encoded', () => {
    expect(() => encodeActionValue({ turnId: 'a|b', askId: 'a', questionIndex: 0, optionIndex: 0 })).toThrow(
      StateError,
    );
    expect(() => encodeActionValue({ turnId: '', askId: 'a', questionIndex: 0, optionIndex: 0 })).toThrow(
      StateError,
    );
    expect(() =>
      encodeActionValue({ turnId: 't', askId: 'x'.repeat(501), questionIndex: 0, optionIndex: 0 }),
    ).toThrow(StateError);
  });
});

describe('blockId', () => {
  it('carries ids only and stays within 255', () => {
    expect(blockId('ask_01JD', 2, 1, 'act')).toBe('hp.ask_01JD.r2.1.act');
    expect(blockId('a:b/c', 0, 'x', 'cancel')).toBe('hp.abc.r0.x.cancel');
    expect(blockId('z'.repeat(1000), 99, 'x', 'cancel').length).toBeLessThanOrEqual(255);
  });
});

describe('modal metadata', () => {
  const metadata = {
    v: 1 as const,
    turnId: 't1',
    askId: 'a1',
    q: 2,
    channel: 'C0OPS',
    messageTs: '1780000065.000300',
  };

  it('round-trips', () => {
    expect(parseModalMetadata(encodeModalMetadata(metadata))).toEqual(metadata);
  });

  it.each([
    ['not json'],
    ['{"v":2,"turnId":"t","askId":"a","q":0,"channel":"C","messageTs":"1"}'],
    ['{"v":1,"turnId":"t","askId":"a","q":3,"channel":"C","messageTs":"1"}'],
    ['{"v":1,"turnId":"","askId":"a","q":0,"channel":"C","messageTs":"1"}'],
    ['{"questionId":"Q0001","channel":"C0OPS"}'],
    ['null'],
    [42],
    [undefined],
  ])('rejects %j', (text) => {
    expect(parseModalMetadata(text)).toBeNull();
  });
});

describe('selectedCheckboxIndexes', () => {
  const state = {
    'hp.ask.r0.1.act': {
      'hp.checks.1': {
        type: 'checkboxes',
        selected_options: [{ value: '2' }, { value: '0' }, { value: '0' }, { value: 'x' }, { value: '9' }],
      },
    },
  };
  it.each([
    [state, 1, [0, 2]],
    [state, 0, null],
    [{ b: { 'hp.checks.0': { type: 'checkboxes', selected_options: [] } } }, 0, []],
    [{ b: { 'hp.checks.0': { type: 'checkboxes' } } }, 0, []],
    [null, 0, null],
    ['x', 0, null],
  ])('%j q%i -> %j', (values, q, expected) => {
    expect(selectedCheckboxIndexes(values, q)).toEqual(expected);
  });
});

describe('menu values', () => {
  it.each([
    [{ kind: 'extend' as const, index: 2 }, 'm1|t1|a1|x2'],
    [{ kind: 'delegate' as const }, 'm1|t1|a1|d'],
    [{ kind: 'cancel' as const }, 'm1|t1|a1|c'],
  ])('%j <-> %s', (item, encoded) => {
    expect(encodeMenuValue('t1', 'a1', item)).toBe(encoded);
    expect(parseMenuValue(encoded)).toEqual({ turnId: 't1', askId: 'a1', item });
  });

  it.each([['m1|t1|a1|C'], ['m1|t1|a1|c|'], ['m2|t1|a1|c'], ['m1||a1|c'], [42]])('%j -> null', (value) => {
    expect(parseMenuValue(value)).toBeNull();
  });
});

describe('selectedRadioIndex', () => {
  const state = (value: unknown) => ({
    'hp.x.r0.0.act': { 'hp.radio.0': { type: 'radio_buttons', selected_option: value } },
  });
  it.each<[unknown, number, number | null]>([
    [state({ value: '2' }), 0, 2],
    [state({ value: '0' }), 0, 0],
    [state(null), 0, null],
    [state({ value: '4' }), 0, null],
    [state({ value: '01' }), 0, null],
    [state({ value: '1' }), 1, null],
    [{}, 0, null],
    [null, 0, null],
  ])('%j, question %i -> %j', (values, q, expected) => {
    expect(selectedRadioIndex(values, q)).toBe(expected);
  });
});
