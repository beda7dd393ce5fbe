/** Helpers that walk rendered Block Kit JSON in tests. */

/** Every string value anywhere in `value`, with its JSON pointer. */
export function allStrings(value: unknown, pointer = ''): Array<{ pointer: string; text: string }> {
  if (typeof value === 'string') return [{ pointer, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => allStrings(item, `${pointer}/${index}`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => allStrings(item, `${pointer}/${key}`));
  }
  return [];
}

/** True when `text` holds a high surrogate without its low half or a low surrogate without its high half. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** The `elements` of every actions block. */
export function actionsElements(blocks: unknown[]): Array<Array<Record<string, unknown>>> {
  return blocks
    .filter((block): block is { type: string; elements: Array<Record<string, unknown>> } => {
      return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'actions';
    })
    .map((block) => block.elements);
}

/** Every text object (`{type, text}`) with type mrkdwn, anywhere in `value`. */
export function mrkdwnTexts(value: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record.type === 'mrkdwn' && typeof record.text === 'string') found.push(record.text);
    for (const item of Object.values(record)) walk(item);
  };
  walk(value);
  return found;
}

/** Strings Slack would turn into a broadcast, a group ping, a user mention or a link. */
export const FORBIDDEN_SEQUENCES = [
  '<!channel',
  '<!here',
  '<!everyone',
  '<!subteam',
  '<@U',
  '<@W',
  '<http',
  '<#C',
];

/** The forbidden sequences found in `serialized` after removing the mentions the renderer was allowed to build. */
export function forbiddenSequences(serialized: string, allowedMentions: string[]): string[] {
  let rest = serialized;
  for (const mention of allowedMentions) rest = rest.replaceAll(mention, '');
  return FORBIDDEN_SEQUENCES.filter((sequence) => rest.includes(sequence));
}
