/**
 * The "Show all" modal of an approval: a gated call's whole arguments, which the approval message cut.
 * Pure; every modal limit holds by construction.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import type { AskRecord } from '../../asks/types.js';
import { escapeMrkdwn } from '../mrkdwn.js';
import { blockId } from './action-ids.js';
import { SLACK_LIMITS } from './limits.js';
import { argumentsJson, codeBlock } from './render-ask-message.js';
import { mrkdwnText, plainText } from './text-objects.js';
import { escapeAndTruncate } from './truncate.js';

/** Escaped characters per code-block section (a section holds 3,000 with the fences). */
const CHUNK = 2900;
/** Code-block sections at most (the modal holds 100 blocks). */
const MAX_CHUNKS = 90;

/**
 * Renders the arguments of the gated call of question `questionIndex` of an approval ask: its server and
 * tool, then the pretty JSON in code blocks of whole lines (a line longer than a block is split), cut after
 * {@link MAX_CHUNKS} blocks with a note. Null when the question is not an approval's.
 */
export function renderArgumentsModal(ask: AskRecord, questionIndex: number): ModalView | null {
  const call = ask.approval?.calls[questionIndex];
  if (!call) return null;
  const name = call.server ? `${call.server}.${call.tool}` : call.tool;
  const chunks: string[] = [];
  let current = '';
  for (const line of argumentsJson(call.input).split('\n')) {
    for (const piece of splitEscaped(line)) {
      if (current !== '' && escapeMrkdwn(`${current}\n${piece}`).length > CHUNK) {
        chunks.push(current);
        current = piece;
      } else current = current === '' ? piece : `${current}\n${piece}`;
    }
  }
  if (current !== '') chunks.push(current);
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      block_id: blockId(ask.askId, 0, questionIndex, 'ah'),
      text: mrkdwnText(`*${escapeAndTruncate(name, 500)}*`, SLACK_LIMITS.sectionText),
    },
  ];
  chunks.slice(0, MAX_CHUNKS).forEach((chunk, index) => {
    blocks.push({
      type: 'section',
      block_id: blockId(ask.askId, 0, questionIndex, `a${index}`),
      text: mrkdwnText(codeBlock(chunk, CHUNK + 50), SLACK_LIMITS.sectionText),
    });
  });
  if (chunks.length > MAX_CHUNKS)
    blocks.push({
      type: 'context',
      block_id: blockId(ask.askId, 0, questionIndex, 'acut'),
      elements: [mrkdwnText(`Cut after ${MAX_CHUNKS} parts of ${chunks.length}.`, SLACK_LIMITS.textObject)],
    });
  return {
    type: 'modal',
    title: plainText('Arguments', SLACK_LIMITS.modalTitle),
    close: plainText('Close', SLACK_LIMITS.modalButton),
    blocks,
  };
}

/** A line cut into pieces whose escaped text fits one block. */
function splitEscaped(line: string): string[] {
  if (escapeMrkdwn(line).length <= CHUNK) return [line];
  const pieces: string[] = [];
  let piece = '';
  for (const character of line) {
    if (escapeMrkdwn(piece + character).length > CHUNK) {
      pieces.push(piece);
      piece = '';
    }
    piece += character;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
