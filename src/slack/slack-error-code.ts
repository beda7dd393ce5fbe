/** Slack's error code of a failed Web API call (`data.error` of a platform error), or null for other errors. Pure. */
export function slackErrorCode(error: unknown): string | null {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === 'string' ? data.error : null;
}
