import { describe, expect, it } from 'vitest';
import {
  ASK_EXAMPLE_CALL,
  ASK_TOOL_NAME,
  askToolDefinition,
  askToolDescription,
  askToolDescriptionFor,
  askToolInputSchema,
  askToolJsonSchema,
} from './ask-schema.js';
import { decodeAskArguments } from './decode-ask-arguments.js';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every object schema in the tree. */
function objectSchemas(node: unknown, found: Node[] = []): Node[] {
  if (Array.isArray(node)) {
    for (const child of node) objectSchemas(child, found);
  } else if (isNode(node)) {
    if (node.type === 'object') found.push(node);
    for (const child of Object.values(node)) objectSchemas(child, found);
  }
  return found;
}

function at(node: unknown, ...keys: string[]): unknown {
  let current = node;
  for (const key of keys) {
    current = isNode(current) ? current[key] : undefined;
  }
  return current;
}

describe('ask_question tool schema', () => {
  it('is named ask_question', () => {
    expect(ASK_TOOL_NAME).toBe('ask_question');
    expect(askToolDefinition.name).toBe('ask_question');
    expect(askToolDefinition.inputSchema).toBe(askToolJsonSchema);
  });

  it('sets additionalProperties false on every object', () => {
    const objects = objectSchemas(askToolJsonSchema);
    expect(objects).toHaveLength(3); // arguments, question, option
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
    }
  });

  const question = ['properties', 'questions', 'items', 'properties'];
  const option = [...question, 'options', 'items', 'properties'];
  it.each([
    [['properties', 'questions', 'minItems'], 1],
    [['properties', 'questions', 'maxItems'], 3],
    [[...question, 'header', 'maxLength'], 60],
    [[...question, 'question', 'maxLength'], 200],
    [[...question, 'purpose', 'maxLength'], 200],
    [[...question, 'options', 'minItems'], 2],
    [[...question, 'options', 'maxItems'], 4],
    [[...option, 'label', 'maxLength'], 48],
    [[...option, 'description', 'maxLength'], 200],
    [[...question, 'multiSelect', 'type'], 'boolean'],
    [[...option, 'recommended', 'type'], 'boolean'],
  ])('%j is %j', (path, expected) => {
    expect(at(askToolJsonSchema, ...path)).toBe(expected);
  });

  it('requires questions, question and label, and leaves options, multiSelect, purpose and recommended optional', () => {
    expect(at(askToolJsonSchema, 'required')).toEqual(['questions']);
    const questionRequired = at(askToolJsonSchema, 'properties', 'questions', 'items', 'required');
    expect(questionRequired).toEqual(expect.arrayContaining(['question']));
    expect(questionRequired).not.toEqual(expect.arrayContaining(['options']));
    expect(questionRequired).not.toEqual(expect.arrayContaining(['multiSelect']));
    expect(questionRequired).not.toEqual(expect.arrayContaining(['purpose']));
    const optionRequired = at(askToolJsonSchema, ...question, 'options', 'items', 'required');
    expect(optionRequired).toEqual(expect.arrayContaining(['label']));
    expect(optionRequired).not.toEqual(expect.arrayContaining(['recommended']));
  });

  it('describes when to ask, batching, no Other option, the timeout assumption, and an example call', () => {
    expect(askToolDescription).toMatch(/only when a decision really needs a person/i);
    expect(askToolDescription).toMatch(/ONE call/);
    expect(askToolDescription).toMatch(/Never write an "Other"/);
    expect(askToolDescription).toMatch(/recommended option \(else its first option\)/);
    expect(askToolDescription).toMatch(/assumption/);
    expect(askToolDescription).toContain(JSON.stringify(ASK_EXAMPLE_CALL));
  });

  it('has an example call that the strict schema and the decoder both accept', () => {
    expect(askToolInputSchema.safeParse(ASK_EXAMPLE_CALL).success).toBe(true);
    const decoded = decodeAskArguments(ASK_EXAMPLE_CALL);
    expect(decoded).toMatchObject({ ok: true, ignoredKeys: [] });
  });
});

describe('askToolDescriptionFor', () => {
  it.each([
    ['recommended-or-first', /recommended option \(else its first option\)/],
    ['recommended-only', /recommended option, or to no answer when none is recommended/],
    ['no-answer', /resolves to no answer \(no option is picked for you\)/],
  ] as const)('tells the model what a timeout does under %s', (policy, pattern) => {
    const description = askToolDescriptionFor(policy);
    expect(description).toMatch(pattern);
    for (const other of ['recommended-or-first', 'recommended-only', 'no-answer'] as const) {
      if (other !== policy) expect(askToolDescriptionFor(other)).not.toBe(description);
    }
  });
});
