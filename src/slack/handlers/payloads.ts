import { z } from 'zod';

/** The parts of a `block_actions` payload holdpoint reads (Slack interaction payload docs). Unknown fields pass. */
export const blockActionBodySchema = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().min(1) }),
  trigger_id: z.string().optional(),
  channel: z.object({ id: z.string() }).optional(),
  container: z
    .object({
      // `message` (is_ephemeral true for an ephemeral one) or `view` (a Home tab or modal).
      type: z.string().optional(),
      is_ephemeral: z.boolean().optional(),
      view_id: z.string().optional(),
      channel_id: z.string().optional(),
      message_ts: z.string().optional(),
      thread_ts: z.string().optional(),
    })
    .optional(),
  message: z.object({ ts: z.string().optional(), thread_ts: z.string().optional() }).optional(),
  // A click in a view (the Home tab) carries the view.
  view: z.object({ type: z.string().optional(), callback_id: z.string().optional() }).loose().optional(),
  actions: z
    .array(
      z.object({
        action_id: z.string(),
        block_id: z.string().optional(),
        value: z.string().optional(),
        type: z.string(),
        // Overflow menus send the chosen option.
        selected_option: z.object({ value: z.string() }).optional(),
      }),
    )
    .min(1),
  state: z.object({ values: z.record(z.string(), z.unknown()) }).optional(),
});

/** The parts of a `view_submission` payload for the answer modal. */
export const viewSubmissionBodySchema = z.object({
  type: z.literal('view_submission'),
  user: z.object({ id: z.string().min(1) }),
  view: z.object({
    callback_id: z.string(),
    private_metadata: z.string().optional(),
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), z.object({ value: z.string().nullish() }).loose())),
    }),
  }),
});

/** The parts of an Events API envelope holdpoint reads. */
export const eventEnvelopeSchema = z.object({ event_id: z.string().min(1), team_id: z.string().optional() });

/** The envelope fields of an `app_uninstalled` / `tokens_revoked` event that name the workspace. */
export const uninstallEnvelopeSchema = z.object({
  team_id: z.string().nullish(),
  enterprise_id: z.string().nullish(),
  is_enterprise_install: z.boolean().nullish(),
  authorizations: z
    .array(
      z.object({
        team_id: z.string().nullish(),
        enterprise_id: z.string().nullish(),
        is_enterprise_install: z.boolean().nullish(),
      }),
    )
    .nullish(),
});

/** An `app_mention` event or a `message` event (DM or thread reply). */
export const messageEventSchema = z.object({
  type: z.string(),
  subtype: z.string().optional(),
  channel: z.string().min(1),
  channel_type: z.string().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  text: z.string().optional(),
  ts: z.string().min(1),
  thread_ts: z.string().optional(),
});

export type BlockActionBody = z.infer<typeof blockActionBodySchema>;
export type ViewSubmissionBody = z.infer<typeof viewSubmissionBodySchema>;
export type MessageEvent = z.infer<typeof messageEventSchema>;
