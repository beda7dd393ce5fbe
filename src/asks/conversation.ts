/**
 * Where a turn lives on a surface. For Slack: the channel and the thread's parent `ts`.
 * JSON-safe: stored inside turn records.
 */
export interface ConversationRef {
  /** Surface name, e.g. `slack` or `memory` (tests). */
  surface: string;
  /** Slack channel id (`C…`, `D…`) or the surface's equivalent. */
  channel: string;
  /**
   * Thread parent timestamp (Slack `thread_ts`); the turn's replies go into this thread. Empty for an ask a
   * program posts as a new message.
   */
  threadTs: string;
  /** Slack team id, when known. */
  teamId?: string | undefined;
  /**
   * OAuth install mode (many workspaces): the workspace whose installation serves the conversation (its team
   * id). Set, it scopes the thread's keys, so equal channel ids of two workspaces never share a thread.
   * Unset in single-workspace mode, whose keys stay as they were.
   */
  workspace?: string | undefined;
}

/**
 * A stable, colon-free key for a conversation thread: `<surface>-<channel>-<threadTs>` with `.` kept, or
 * `<surface>-<workspace>-<channel>-<threadTs>` when the conversation names its workspace (OAuth install mode).
 */
export function conversationKey(conversation: ConversationRef): string {
  const workspace = conversation.workspace ? `${conversation.workspace}-` : '';
  return `${conversation.surface}-${workspace}${conversation.channel}-${conversation.threadTs}`.replaceAll(
    ':',
    '_',
  );
}
