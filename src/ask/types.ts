/**
 * The normalized `ask_question` contract: what the decoder produces, what the store keeps,
 * what the surfaces render and what the result formatter reports back to the model.
 * Pure types; no runtime code.
 */

/** Caps of the model-facing contract, counted in Unicode code points after trimming (as JSON Schema `maxLength`). */
export const ASK_LIMITS = {
  /** Questions per ask. */
  minQuestions: 1,
  maxQuestions: 3,
  /** Options per choice question (after dropping model-authored "Other" options). */
  minOptions: 2,
  maxOptions: 4,
  headerMax: 60,
  questionMax: 200,
  labelMax: 48,
  descriptionMax: 200,
  purposeMax: 200,
} as const;

/** One option of a choice question, after normalization. */
export interface AskOption {
  /** 1-48 code points, trimmed, unique within its question (compared trimmed and case-folded). */
  label: string;
  /** 0-200 code points, or null when the model gave none. */
  description: string | null;
  /** Marked as recommended by the model (flag or `(Recommended)` label suffix). */
  recommended: boolean;
}

/** `choice`: the person picks among options. `free_text`: the person types an answer. */
export type QuestionKind = 'choice' | 'free_text';

/** One normalized question. */
export interface AskQuestion {
  /** Short title, 1-60 code points, or null (rendered without one). */
  header: string | null;
  /** The question itself, 1-200 code points. */
  question: string;
  kind: QuestionKind;
  /** Several options may be picked. Always false for `free_text`. */
  multiSelect: boolean;
  /** Why the agent asks (shown as context), 1-200 code points, or null. */
  purpose: string | null;
  /**
   * Options in display order: single-select shows its one recommended option first;
   * multi-select keeps the model's order. Null for `free_text`.
   */
  options: AskOption[] | null;
}

/** A decoded, validated, normalized `ask_question` call: 1-3 questions. */
export interface NormalizedAsk {
  questions: AskQuestion[];
}

/** How a question ended. */
export type ResolutionStatus = 'answered' | 'assumed' | 'canceled';

/**
 * Where a resolution came from.
 * - `button`, `modal`, `thread_reply`: a person answered on the surface.
 * - `timeout`: nobody answered before the deadline; the timeout policy picked (or gave no answer).
 * - `not_shown`: the ask could not be shown to anyone (posting failed); resolved at once like a timeout.
 * - `cancel`: the person who started the turn canceled the ask.
 */
export type AnswerSource = 'button' | 'modal' | 'thread_reply' | 'timeout' | 'not_shown' | 'cancel';

/** For an `assumed` resolution: what the policy picked. */
export type AssumptionBasis = 'recommended' | 'first_option' | 'no_answer';

/** The one resolution of one question. */
export interface QuestionResolution {
  status: ResolutionStatus;
  /** Option labels chosen by the person, or picked by the timeout policy. Empty for free text and "no answer". */
  selected: string[];
  /** Free text typed by a person (Other… or a free-text question), else null. */
  other: string | null;
  /** Slack user id of the person who answered or canceled; null for `assumed`. */
  answeredBy: string | null;
  /** ISO 8601 time of the resolution. */
  answeredAt: string;
  source: AnswerSource;
  /** Set when `status` is `assumed`: what the policy based the pick on. */
  assumption: AssumptionBasis | null;
  /**
   * For an ask with a quorum: every person whose vote counted for this resolution, in the order they voted
   * (`answeredBy` is the one whose vote completed it). Absent otherwise.
   */
  voters?: string[];
  /**
   * For a quorum question that timed out: the votes given, not enough to agree (who, and what they chose).
   * Absent otherwise.
   */
  votes?: Array<{ by: string; selected: string[]; other: string | null }>;
}

/**
 * What happens to unanswered questions at the deadline.
 * - `recommended-or-first` (default): recommended option(s), else the first option; free text: no answer.
 * - `recommended-only`: recommended option(s), else no answer.
 * - `no-answer`: always no answer.
 */
export type TimeoutPolicy = 'recommended-or-first' | 'recommended-only' | 'no-answer';

/** Every timeout policy, for config validation and tests. */
export const TIMEOUT_POLICIES: readonly TimeoutPolicy[] = [
  'recommended-or-first',
  'recommended-only',
  'no-answer',
];
