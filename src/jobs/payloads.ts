import { z } from 'zod';

/** Job names on the holdpoint queue. */
export const JOB_NAMES = {
  turn: 'turn',
  resume: 'resume',
  timeout: 'timeout',
  webhook: 'webhook',
  nudge: 'nudge',
  /** Sweeps the due set of timers in batches (`due-timer-lane.ts`); no payload. */
  sweepDue: 'sweep-due',
} as const;

const conversationSchema = z.object({
  surface: z.string().min(1),
  channel: z.string().min(1),
  threadTs: z.string().min(1),
  teamId: z.string().optional(),
  workspace: z.string().optional(),
});

/** Payload of a `turn` job: a {@link import('../agent/scheduler.js').TurnStart}. */
export const turnJobSchema = z.object({
  turnId: z.string().min(1),
  conversation: conversationSchema,
  requestedBy: z.string(),
  trigger: z.object({
    text: z.string(),
    ts: z.string(),
    userId: z.string(),
    synthetic: z.boolean().optional(),
  }),
});

/** Payload of `resume` and `timeout` jobs. */
export const askJobSchema = z.object({ turnId: z.string().min(1), askId: z.string().min(1) });

/**
 * Payload of a `webhook` job: the ask to report (its scope and id) and what happened: resolved (no
 * `questionIndex`), or the assumed answer of question `questionIndex` was changed (`ask.overridden`).
 */
export const webhookJobSchema = z.object({
  scope: z.string().min(1),
  askId: z.string().min(1),
  questionIndex: z.number().int().min(0).max(2).optional(),
});

export type TurnJobData = z.infer<typeof turnJobSchema>;
export type AskJobData = z.infer<typeof askJobSchema>;
