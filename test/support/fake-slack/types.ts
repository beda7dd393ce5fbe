/** Types of the fake Slack Web API used by tests (see start-fake-slack.ts). */

/** One recorded Web API call (every call, including rejected and rate-limited ones). */
export interface FakeSlackCall {
  /** Web API method, e.g. `chat.postMessage`. */
  method: string;
  /** Arguments: form fields (JSON fields such as `blocks`, `metadata`, `view` parsed) or the JSON body. */
  args: Record<string, unknown>;
  /** Bearer token or `token` argument; null when none was sent. */
  token: string | null;
  /** Epoch ms when the request arrived. */
  time: number;
  /** HTTP status the fake answered with. */
  status: number;
  /** JSON body the fake answered with. */
  response: Record<string, unknown>;
  /** The workspace whose bot token made the call (absent: no token, or an unknown one). */
  teamId?: string;
}

/** A message as the fake stores it (bot posts and seeded human messages). */
export interface FakeSlackMessage {
  channel: string;
  ts: string;
  /** Thread parent ts; absent for a top-level message. A thread parent has `thread_ts === ts` once it has replies. */
  thread_ts?: string;
  /** Author user id (the bot user for bot posts). */
  user: string;
  /** Set on bot posts. */
  bot_id?: string;
  text: string;
  blocks?: unknown[];
  /** Message metadata (`{event_type, event_payload}`) as posted. */
  metadata?: unknown;
  reactions: Array<{ name: string; users: string[] }>;
  /** Set after chat.update. */
  edited?: { user: string; ts: string };
  /** True from `chat.startStream` until `chat.stopStream` (or until the stream expires). */
  streaming?: boolean;
  /** The `task_update` chunks of a streamed message, latest state per task id, in first-seen order. */
  tasks?: Array<{ id: string; title: string; status: string }>;
}

/** An ephemeral message sent with chat.postEphemeral. */
export interface FakeSlackEphemeral {
  channel: string;
  user: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  message_ts: string;
}

/** A POST to a local `response_url` (see {@link FakeSlack.responseUrl}). */
export interface FakeResponseUrlPost {
  path: string;
  body: unknown;
  time: number;
}

/** How the next call to a method fails. */
export type FakeSlackFailure =
  | { status: 429; retryAfterSec: number }
  | { error: string; status?: number }
  | { httpStatus: number };

/** Options of startFakeSlack. */
export interface FakeSlackOptions {
  /** The first workspace's bot token (`addTeam` adds more). @defaultValue `xoxb-fake-token` */
  botToken?: string;
  /** @defaultValue `U0BOT` */
  botUserId?: string;
  /** @defaultValue `B0BOT` */
  botId?: string;
  /** @defaultValue `T0TEST` */
  teamId?: string;
  /**
   * Time the fake takes before it handles a call of `method`, in ms (default none). A random latency on
   * `chat.update` lets two concurrent updates land in either order, as they can at Slack.
   */
  latencyMs?: (method: string) => number;
  /** The only app-level token `apps.connections.open` accepts. @defaultValue `xapp-fake-token` */
  appToken?: string;
  /** Whether the Socket Mode endpoint says `hello` when a client connects (false: it never does). @defaultValue true */
  socketHello?: boolean;
  /**
   * The Slack app that may install through the fake authorize page and exchange codes with
   * `oauth.v2.access` (its client id and secret, and the Redirect URL configured for it).
   */
  oauthApp?: { clientId: string; clientSecret: string; redirectUrl?: string; scopes?: string };
}

/** What a workspace of the fake holds and how a test reads and seeds it (the fake's first one, or another). */
export interface FakeSlackWorkspace {
  teamId: string;
  botToken: string;
  botUserId: string;
  botId: string;
  /** The parent and replies of a thread, oldest first (deleted messages excluded). */
  messagesIn(channel: string, threadTs: string): FakeSlackMessage[];
  /** One stored message, or undefined. */
  message(channel: string, ts: string): FakeSlackMessage | undefined;
  /** Adds a human message (e.g. a thread parent or a reply); returns it with its assigned `ts`. */
  seedMessage(input: {
    channel: string;
    user: string;
    text: string;
    ts?: string;
    threadTs?: string;
    blocks?: unknown[];
  }): FakeSlackMessage;
  /** The Home tab view last published for `userId` (`views.publish`), or undefined. */
  homeView(userId: string): Record<string, unknown> | undefined;
}

/** One workspace of the fake (see {@link FakeSlack.addTeam}). */
export interface FakeSlackTeam extends FakeSlackWorkspace {
  /** The app was uninstalled from this workspace: its bot token answers `token_revoked` from now on. */
  revokeTokens(): void;
  /** Every call made with this workspace's bot token. */
  callsWithToken(): FakeSlackCall[];
}

/** A running fake Slack Web API; its own fields are those of its first workspace. */
export interface FakeSlack extends FakeSlackWorkspace {
  /** The `slackApiUrl` for @slack/web-api / Bolt `clientOptions`: `http://127.0.0.1:<port>/api/`. */
  url: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every call in arrival order. */
  calls: FakeSlackCall[];
  /** Calls to one method, in order. */
  callsTo(method: string): FakeSlackCall[];
  /** Web API requests received and not answered yet. */
  inFlight(): number;
  /** The app-level token `apps.connections.open` accepts (Socket Mode). */
  appToken: string;
  /** Socket Mode connections open now. */
  socketConnections(): number;
  /** From now on `apps.connections.open` refuses the app token (`invalid_auth`), as after a revocation. */
  revokeAppToken(): void;
  /** Closes every Socket Mode connection (the client reconnects). */
  dropSockets(): void;
  /** Makes the next call to `method` fail (queued; each failure is used once). */
  failNext(method: string, failure: FakeSlackFailure): void;
  /** Resolves with the first call (past or future) to `method` matching `predicate`; rejects after `timeoutMs` (default 5000). */
  waitForCall(
    method: string,
    predicate?: (call: FakeSlackCall) => boolean,
    timeoutMs?: number,
  ): Promise<FakeSlackCall>;
  /** Ends every open stream, as Slack does to a stream left too long without appends; returns how many. */
  expireStreams(): number;
  /** Sets the members of a user group for usergroups.users.list. */
  seedUserGroup(groupId: string, userIds: string[]): void;
  /** Sets what users.info returns for a user (`display_name` goes into `profile`). */
  seedUser(user: {
    id: string;
    name?: string;
    real_name?: string;
    display_name?: string;
    is_bot?: boolean;
  }): void;
  /** Ephemerals sent so far. */
  ephemerals: FakeSlackEphemeral[];
  /** A local response_url whose POSTs are recorded in {@link responseUrlPosts}. */
  responseUrl(id?: string): string;
  responseUrlPosts: FakeResponseUrlPost[];
  /** Stops the server and drops open connections. */
  /** Adds a workspace with its own bot token (default `xoxb-fake-<team id lowercased>`), messages and views. */
  addTeam(input: {
    teamId: string;
    teamName?: string;
    botToken?: string;
    botUserId?: string;
    botId?: string;
  }): FakeSlackTeam;
  /** A workspace of the fake (the first one is `teamId`). */
  team(teamId: string): FakeSlackTeam;
  close(): Promise<void>;
}
