import { z } from 'zod';
import { StateError } from '../errors.js';
import { formatAskSuccessNote } from './format-ask-success-note.js';
import type {
  AnswerSource,
  AskQuestion,
  AssumptionBasis,
  QuestionResolution,
  ResolutionStatus,
} from './types.js';

/** One entry of the JSON block of an `ask_question` tool result. */
export interface AskResultAnswer {
  header: string | null;
  question: string;
  status: ResolutionStatus;
  /** Option labels chosen by a person or picked by default; never typed text. */
  selected: string[];
  /** Text typed by the person (through "Other…" or a free-text question), else null. */
  other: string | null;
  /** Slack user id of whoever answered or canceled; null when assumed. */
  answeredBy: string | null;
  source: AnswerSource;
  /** ISO 8601. */
  answeredAt: string;
  /** Present only when `status` is `assumed`. */
  assumption?: AssumptionBasis;
  /** Present only for a quorum: everyone whose equal answer counted, in order (`answeredBy` is the last). */
  voters?: string[];
  /** Present only for a quorum question that timed out with votes: who chose what. */
  votes?: Array<{ by: string; selected: string[]; other: string | null }>;
}

/** The JSON block of an `ask_question` tool result. */
export interface AskResultJson {
  answers: AskResultAnswer[];
}

/** Options of {@link formatAskResult}. */
export interface FormatAskResultOptions {
  /** The ask's timeout in ms; when given, assumed answers name the limit in minutes. */
  timeoutMs?: number;
  /** Unknown keys dropped when the call was decoded; adds the success note (see `formatAskSuccessNote`). */
  ignoredKeys?: readonly string[];
}

const FENCE_OPEN = '```json\n';
const FENCE_CLOSE = '\n```';

/**
 * The tool result text of a resolved `ask_question` call: one summary line per question (who answered
 * what; or, for an assumed answer, that nobody answered in time and what was picked by default, which the
 * model must present as an assumption; or that the question was canceled), an optional note on ignored
 * keys, then a fenced ```json block {@link AskResultJson}.
 * @param questions the ask's normalized questions
 * @param resolutions one resolution per question, same order
 * @throws StateError (`ask_resolution_mismatch`) when the two lists differ in length
 */
export function formatAskResult(
  questions: readonly AskQuestion[],
  resolutions: readonly QuestionResolution[],
  options: FormatAskResultOptions = {},
): string {
  if (questions.length !== resolutions.length) {
    throw new StateError('ask_resolution_mismatch', 'an ask must have exactly one resolution per question', {
      fields: { questions: questions.length, resolutions: resolutions.length },
    });
  }
  const answers: AskResultAnswer[] = [];
  const lines = ['Result of your ask_question call:'];
  questions.forEach((question, index) => {
    const resolution = resolutions[index] as QuestionResolution;
    lines.push(`${index + 1}. ${oneLine(question.question)} -> ${summarize(resolution, options.timeoutMs)}`);
    answers.push(askResultAnswer(question, resolution));
  });
  const note = formatAskSuccessNote(options.ignoredKeys ?? []);
  if (note !== null) {
    lines.push('', note);
  }
  const json: AskResultJson = { answers };
  return `${lines.join('\n')}\n\n${FENCE_OPEN}${JSON.stringify(json, null, 2)}${FENCE_CLOSE}`;
}

/** One entry of the JSON block for a question and its resolution (also what the ask API returns). Pure. */
export function askResultAnswer(question: AskQuestion, resolution: QuestionResolution): AskResultAnswer {
  const answer: AskResultAnswer = {
    header: question.header,
    question: question.question,
    status: resolution.status,
    selected: [...resolution.selected],
    other: resolution.other,
    answeredBy: resolution.answeredBy,
    source: resolution.source,
    answeredAt: resolution.answeredAt,
  };
  if (resolution.voters && resolution.voters.length > 0) answer.voters = [...resolution.voters];
  if (resolution.votes && resolution.votes.length > 0)
    answer.votes = resolution.votes.map((vote) => ({ ...vote }));
  if (resolution.status === 'assumed') {
    answer.assumption =
      resolution.assumption ?? (resolution.selected.length > 0 ? 'recommended' : 'no_answer');
  }
  return answer;
}

function summarize(resolution: QuestionResolution, timeoutMs: number | undefined): string {
  switch (resolution.status) {
    case 'answered':
      if (resolution.voters && resolution.voters.length > 1)
        return `${answerText(resolution)} (agreed by ${resolution.voters.length} people: ${resolution.voters.map(person).join(', ')})`;
      return `${answerText(resolution)} (answered by ${person(resolution.answeredBy)} via ${resolution.source.replace('_', ' ')})`;
    case 'canceled':
      return `canceled by ${person(resolution.answeredBy)}: the requester canceled this question; do not act on it.`;
    case 'assumed':
      return assumedText(resolution, timeoutMs);
  }
}

function answerText(resolution: QuestionResolution): string {
  const parts = resolution.selected.map(quoteText);
  if (resolution.other !== null) {
    parts.push(`typed by the person: ${quoteText(resolution.other)}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'nothing selected';
}

function assumedText(resolution: QuestionResolution, timeoutMs: number | undefined): string {
  const limit = timeoutMs === undefined ? '' : ` (${minutes(timeoutMs)})`;
  const votes = resolution.votes ?? [];
  const reason =
    resolution.source === 'not_shown'
      ? 'the question could not be shown to anyone, so NOBODY answered it'
      : votes.length > 0
        ? `not enough people agreed within the time limit${limit} (the votes: ${votes.map((vote) => `${person(vote.by)} chose ${[...vote.selected.map(quoteText), ...(vote.other ? [quoteText(vote.other)] : [])].join(' and ') || 'nothing'}`).join('; ')})`
        : `NOBODY answered within the time limit${limit}`;
  const caveat = 'This is an assumption, not a decision by a person: say so when you act on it.';
  const picked = resolution.selected.map(quoteText).join(', ');
  const basis = resolution.assumption ?? (resolution.selected.length > 0 ? 'recommended' : 'no_answer');
  if (basis === 'no_answer' || resolution.selected.length === 0) {
    return `no answer: ${reason}, and no option was chosen. Any choice you make here is an assumption you must state explicitly.`;
  }
  if (basis === 'first_option') {
    return `${picked}: ${reason}; no option was marked recommended, so the first option was picked by default. ${caveat}`;
  }
  const what = resolution.selected.length > 1 ? 'the recommended options were' : 'the recommended option was';
  return `${picked}: ${reason}, so ${what} picked by default. ${caveat}`;
}

function minutes(timeoutMs: number): string {
  const value = Math.round((timeoutMs / 60_000) * 10) / 10;
  return `${value} ${value === 1 ? 'minute' : 'minutes'}`;
}

function person(userId: string | null): string {
  return userId === null ? 'an unknown person' : `<@${userId}>`;
}

function quoteText(text: string): string {
  return JSON.stringify(oneLine(text));
}

/** Collapses whitespace (newlines included) so model or person text cannot break the layout. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const answerSchema = z.object({
  header: z.string().nullable(),
  question: z.string(),
  status: z.enum(['answered', 'assumed', 'canceled']),
  selected: z.array(z.string()),
  other: z.string().nullable(),
  answeredBy: z.string().nullable(),
  source: z.enum(['button', 'modal', 'thread_reply', 'timeout', 'not_shown', 'cancel']),
  answeredAt: z.string(),
  assumption: z.enum(['recommended', 'first_option', 'no_answer']).optional(),
  voters: z.array(z.string()).optional(),
  votes: z
    .array(z.object({ by: z.string(), selected: z.array(z.string()), other: z.string().nullable() }))
    .optional(),
});
const resultSchema = z.object({ answers: z.array(answerSchema) });

/**
 * Reads the JSON block back from a text made by {@link formatAskResult} (tests, replay tooling).
 * @returns the parsed block, or null when the text has no valid block
 */
export function parseAskResultJson(text: string): AskResultJson | null {
  const start = text.lastIndexOf(FENCE_OPEN);
  const end = text.lastIndexOf(FENCE_CLOSE);
  if (start < 0 || end < start + FENCE_OPEN.length) {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start + FENCE_OPEN.length, end));
  } catch {
    return null;
  }
  const parsed = resultSchema.safeParse(value);
  if (!parsed.success) {
    return null;
  }
  return {
    answers: parsed.data.answers.map(({ assumption, voters, votes, ...rest }) => ({
      ...rest,
      ...(assumption === undefined ? {} : { assumption }),
      ...(voters === undefined ? {} : { voters }),
      ...(votes === undefined ? {} : { votes }),
    })),
  };
}
