import { parseArgs } from 'node:util';
import { type NormalizedAsk, TIMEOUT_POLICIES, type TimeoutPolicy } from '../ask/types.js';
import { ASK_RECORD_VERSION, type AskRecord, NO_FOLLOW_UP, openAskState } from '../asks/types.js';
import { formatDuration, parseDuration } from '../config/durations.js';
import { ASK_TIMEOUT_BOUNDS } from '../config/env-schema.js';
import { renderAnswerModal } from '../slack/blocks/render-answer-modal.js';
import { renderAskMessage } from '../slack/blocks/render-ask-message.js';
import { readAndDecodeAsk } from './ask-input.js';
import type { CliCommand } from './commands.js';

/** Placeholder ids and places of the preview ask (they show up in block_ids, values and modal metadata). */
export const PREVIEW_IDS = {
  askId: 'preview-ask',
  turnId: 'preview-turn',
  toolCallId: 'preview-call',
  channel: 'C0PREVIEW',
  threadTs: '1700000000.000100',
  messageTs: '1700000000.000200',
  requestedBy: 'U0PREVIEW',
} as const;

/** Defaults of the preview: the product defaults of `ASK_TIMEOUT` and `ASK_TIMEOUT_POLICY`. */
export const PREVIEW_DEFAULTS = { timeoutMs: 30 * 60_000, policy: 'recommended-or-first' } as const;

/** What `--timeout`, `--policy` and `--modal` asked for. */
interface PreviewOptions {
  source: string;
  timeoutMs: number;
  policy: TimeoutPolicy;
  /** 1-based question number whose answer modal to print, or null for the message. */
  modal: number | null;
}

const USAGE =
  'holdpoint preview-ask [--timeout 30m] [--policy recommended-or-first|recommended-only|no-answer] [--modal N] [FILE|-]';

/**
 * `holdpoint preview-ask [FILE|-]`: decodes raw `ask_question` arguments like `check-ask` and prints the
 * Slack message of that ask as open, `{"text", "blocks"}` JSON for Slack's Block Kit Builder (placeholder
 * ids, no deadline date: the text says "within 30m"). `--modal N` prints the answer modal view of question N
 * (1-based) instead. Exit 0; invalid arguments: the error tool result the model would get, exit 1; bad
 * flags or unreadable input: one line on stderr, exit 2.
 */
export const previewAskCommand: CliCommand = {
  summary: 'Render ask_question arguments as the Slack message JSON (for the Block Kit Builder).',
  usage: `${USAGE}
    --timeout D   how long the ask waits, e.g. 90s, 30m, 2h (default 30m)
    --policy P    what a timeout picks (default recommended-or-first)
    --modal N     print the answer modal of question N (1-based) instead of the message`,
  async run(argv, io) {
    const parsed = parseOptions(argv);
    if (typeof parsed === 'string') {
      io.stderr(`holdpoint preview-ask: ${parsed}\nUsage: ${USAGE}\n`);
      return 2;
    }
    const read = await readAndDecodeAsk('preview-ask', parsed.source, io);
    if (!read.ok) return read.exitCode;
    const result = read.decoded;
    const ask = previewAskRecord(result.ask, parsed.timeoutMs, parsed.policy);
    if (parsed.modal !== null) {
      if (parsed.modal > ask.questions.length) {
        io.stderr(
          `holdpoint preview-ask: --modal ${parsed.modal}: the ask has ${ask.questions.length} question${ask.questions.length === 1 ? '' : 's'}\n`,
        );
        return 2;
      }
      const view = renderAnswerModal(ask, parsed.modal - 1, {
        channel: PREVIEW_IDS.channel,
        messageTs: PREVIEW_IDS.messageTs,
      });
      io.stdout(`${JSON.stringify(view, null, 2)}\n`);
      return 0;
    }
    const message = renderAskMessage(ask);
    io.stdout(`${JSON.stringify({ text: message.text, blocks: message.blocks }, null, 2)}\n`);
    return 0;
  },
};

/** Parses the flags; a string is the usage error. */
function parseOptions(argv: readonly string[]): PreviewOptions | string {
  let values: { timeout?: string; policy?: string; modal?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        timeout: { type: 'string' },
        policy: { type: 'string' },
        modal: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : String(error);
  }
  if (positionals.length > 1) return `expected at most one FILE, got ${positionals.length}`;
  let timeoutMs: number = PREVIEW_DEFAULTS.timeoutMs;
  if (values.timeout !== undefined) {
    const ms = parseDuration(values.timeout);
    if (ms === null || ms < ASK_TIMEOUT_BOUNDS.minMs || ms > ASK_TIMEOUT_BOUNDS.maxMs) {
      return `--timeout ${JSON.stringify(values.timeout)} is not a duration from ${formatDuration(ASK_TIMEOUT_BOUNDS.minMs)} to ${formatDuration(ASK_TIMEOUT_BOUNDS.maxMs)} (e.g. 90s, 30m, 2h)`;
    }
    timeoutMs = ms;
  }
  let policy: TimeoutPolicy = PREVIEW_DEFAULTS.policy;
  if (values.policy !== undefined) {
    const found = TIMEOUT_POLICIES.find((candidate) => candidate === values.policy);
    if (found === undefined) {
      return `--policy ${JSON.stringify(values.policy)} is not a timeout policy: use ${TIMEOUT_POLICIES.join(', ')}`;
    }
    policy = found;
  }
  let modal: number | null = null;
  if (values.modal !== undefined) {
    if (!/^[1-9]\d*$/.test(values.modal)) {
      return `--modal ${JSON.stringify(values.modal)} is not a question number (1, 2 or 3)`;
    }
    modal = Number(values.modal);
  }
  return { source: positionals[0] ?? '-', timeoutMs, policy, modal };
}

/**
 * An open, never-shown ask of the decoded questions with the placeholder ids of {@link PREVIEW_IDS}:
 * what the store would hold right after the turn paused, with the default follow-ups (no reminders, no
 * snooze, no quorum), so its menu is the default one ("Ask someone else…", "Cancel…").
 */
export function previewAskRecord(ask: NormalizedAsk, timeoutMs: number, policy: TimeoutPolicy): AskRecord {
  return {
    version: ASK_RECORD_VERSION,
    askId: PREVIEW_IDS.askId,
    scope: PREVIEW_IDS.turnId,
    waiter: { kind: 'turn', turnId: PREVIEW_IDS.turnId, toolCallId: PREVIEW_IDS.toolCallId },
    ordinal: 0,
    questions: ask.questions,
    conversation: { surface: 'slack', channel: PREVIEW_IDS.channel, threadTs: PREVIEW_IDS.threadTs },
    requestedBy: PREVIEW_IDS.requestedBy,
    answerers: { mode: 'anyone' },
    timeoutMs,
    policy,
    createdAt: '2023-11-14T22:13:20.000Z',
    followUp: NO_FOLLOW_UP,
    ...openAskState(ask),
  };
}
