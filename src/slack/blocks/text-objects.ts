/**
 * Text-object builders that keep Slack's limits and safety rules by construction. Pure.
 */
import type { MrkdwnElement, PlainTextElement } from '@slack/types';
import { neutralizePlainText } from '../mrkdwn.js';
import { ELLIPSIS, truncateText } from './truncate.js';

/**
 * A `plain_text` object from model (or bot) text: `<`/`>` neutralized ({@link neutralizePlainText}),
 * truncated to `limit` UTF-16 code units on a grapheme boundary, `emoji: true`. An empty text becomes
 * the placeholder `-` (Slack rejects empty text objects).
 */
export function plainText(text: string, limit: number): PlainTextElement {
  const safe = truncateText(neutralizePlainText(text), limit);
  return { type: 'plain_text', text: safe.length > 0 ? safe : '-', emoji: true };
}

/**
 * A `mrkdwn` object from text that is already safe mrkdwn (model parts escaped by the caller). As a last
 * guard it is truncated to `limit` on a grapheme boundary without leaving half an entity (`&am…`);
 * renderers size their parts so this guard does not cut in practice.
 */
export function mrkdwnText(text: string, limit: number): MrkdwnElement {
  return { type: 'mrkdwn', text: clampMrkdwn(text.length > 0 ? text : '-', limit) };
}

/** Truncates safe mrkdwn to `limit` UTF-16 code units, dropping an entity or `<…>` token that the cut would split. */
export function clampMrkdwn(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let cut = truncateText(text, limit);
  cut = cut.slice(0, -ELLIPSIS.length);
  cut = cut.replace(/&[a-z]{0,3}$/, '');
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open);
  return cut + ELLIPSIS;
}
