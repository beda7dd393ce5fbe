/**
 * Deterministic BullMQ jobIds. BullMQ rejects custom ids containing `:` (unless they split into exactly
 * three parts) and all-digit ids, and silently ignores an add whose id it still retains; so every id
 * here is `<kind>-<id>` with any `:` replaced, never all digits, and unique per ask (a second ask in the
 * same turn gets its own timer).
 */
function safe(id: string): string {
  return id.replaceAll(':', '_');
}

/** jobId of the job that starts (and first advances) a turn. */
export function turnJobId(turnId: string): string {
  return `turn-${safe(turnId)}`;
}

/** jobId of the job that resumes a turn after its ask resolved. */
export function resumeJobId(askId: string): string {
  return `resume-${safe(askId)}`;
}

/** jobId of the delayed job that resolves an ask at its deadline. */
export function timeoutJobId(askId: string): string {
  return `timeout-${safe(askId)}`;
}

/** jobId of the job that delivers an ask's `ask.resolved` webhook (an ask resolves once: one delivery). */
export function webhookJobId(askId: string): string {
  return `webhook-${safe(askId)}`;
}

/** jobId of the job that delivers the `ask.overridden` webhook of question `questionIndex` (changed once: one delivery). */
export function overrideWebhookJobId(askId: string, questionIndex: number): string {
  return `override-${safe(askId)}-q${questionIndex}`;
}

/** jobId of the delayed job that sends an ask's reminders and escalation (one job per ask; it moves itself to the next point). */
export function nudgeJobId(askId: string): string {
  return `nudge-${safe(askId)}`;
}

/**
 * jobId of the sweep of the due set that runs at the end of 100 ms bucket `bucket` (epoch ms / bucket
 * length): every process that schedules a timer into that bucket adds the same job, so one sweep runs.
 */
export function sweepJobId(bucket: number): string {
  return `sweep-${bucket}`;
}
