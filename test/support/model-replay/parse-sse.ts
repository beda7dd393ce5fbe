/** One server-sent event: the `event:` name if any and the `data:` payload (parsed JSON, or the raw text). */
export interface ParsedSseEvent {
  event: string | undefined;
  data: unknown;
}

/**
 * Parses an SSE body into events (blank-line separated; `event:` and `data:` lines; multiple `data:`
 * lines joined by `\n`). Data that is not JSON (e.g. `[DONE]`) is kept as a string.
 * @throws Error if the body does not end with a blank line (a truncated stream) or a line is not a field.
 */
export function parseSse(body: string): ParsedSseEvent[] {
  if (body !== '' && !body.endsWith('\n\n')) throw new Error('SSE body does not end with a blank line');
  const events: ParsedSseEvent[] = [];
  for (const block of body.split('\n\n')) {
    if (block === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice('event: '.length);
      else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
      else throw new Error(`unexpected SSE line: ${line}`);
    }
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep the raw text, e.g. [DONE]
    }
    events.push({ event, data: parsed });
  }
  return events;
}
