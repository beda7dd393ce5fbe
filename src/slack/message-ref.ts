import { z } from 'zod';

/** Where a posted Slack message lives. Stored as JSON in `AskRecord.messageRef`. */
export interface SlackMessageRef {
  channel: string;
  ts: string;
}

const refSchema = z.object({ channel: z.string().min(1), ts: z.string().min(1) });

/** Serializes a message reference. */
export function encodeMessageRef(ref: SlackMessageRef): string {
  return JSON.stringify({ channel: ref.channel, ts: ref.ts });
}

/** Parses a stored message reference; null when it is not one. Never throws. */
export function parseMessageRef(text: string | null | undefined): SlackMessageRef | null {
  if (!text) return null;
  try {
    const parsed = refSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
