/**
 * Builders of correctly signed Slack HTTP requests (Events API and interactivity) from the recorded
 * samples in test/fixtures/slack/, and a helper to POST them to a running app.
 *
 * Transport as Slack does it (FACTS.md §3): events are `application/json`; interactivity is
 * `application/x-www-form-urlencoded` (exactly, no charset: Bolt compares the string) with body
 * `payload=<urlencoded JSON>`; every request carries `x-slack-request-timestamp` and `x-slack-signature`;
 * event retries add `x-slack-retry-num` and `x-slack-retry-reason`.
 */
import { readFileSync } from 'node:fs';
import { slackSignatureHeaders } from './slack-signing.js';

/** A request ready to send: the exact raw body and its headers (content-type and signature included). */
export interface SignedSlackRequest {
  body: string;
  headers: Record<string, string>;
}

/** How to sign: the app's signing secret and the request time (unix seconds, default now). */
export interface SigningOptions {
  secret: string;
  timestampSec?: number;
}

type Json = Record<string, unknown>;

/** Names of the recorded samples in test/fixtures/slack/ (without `.json`). */
export type SlackFixtureName =
  | 'url_verification'
  | 'event_callback.app_mention.thread'
  | 'event_callback.message_im'
  | 'block_actions.button.thread'
  | 'block_actions.checkboxes.change'
  | 'block_actions.checkboxes.submit'
  | 'view_submission.plain_text_input'
  | 'signature.test_vectors';

/** A fresh deep copy of a recorded sample. */
export function loadSlackFixture(name: SlackFixtureName): Json {
  const url = new URL(`../fixtures/slack/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Json;
}

function nowSec(): number {
  return Math.floor(Date.now() / 1000);
}

function signed(
  body: string,
  contentType: string,
  options: SigningOptions,
  extra: Record<string, string> = {},
): SignedSlackRequest {
  const timestampSec = options.timestampSec ?? nowSec();
  return {
    body,
    headers: {
      'content-type': contentType,
      ...slackSignatureHeaders(options.secret, body, timestampSec),
      ...extra,
    },
  };
}

/** A signed `url_verification` handshake (JSON). */
export function urlVerificationRequest(options: SigningOptions & { challenge?: string }): SignedSlackRequest {
  const body = loadSlackFixture('url_verification');
  if (options.challenge !== undefined) body.challenge = options.challenge;
  return signed(JSON.stringify(body), 'application/json', options);
}

/** Options of {@link eventRequest}. */
export interface EventRequestOptions extends SigningOptions {
  /** Envelope `event_id` (what the app deduplicates on). */
  eventId: string;
  /** Adds `x-slack-retry-num` (1..3), as on a Slack redelivery. */
  retryNum?: number;
  /** Adds `x-slack-retry-reason`, e.g. `http_timeout`. @defaultValue `http_timeout` when retryNum is set */
  retryReason?: string;
  /** Which sample to start from. @defaultValue `app_mention` (a mention inside thread 1780000000.000100 of C0OPS) */
  template?: 'app_mention' | 'message_im';
  /** Fields merged over the envelope (e.g. `event_time`). */
  envelope?: Json;
}

/**
 * A signed Events API `event_callback` (JSON body). `eventOverrides` are merged over the sample's `event`
 * (set a key to `undefined` to drop it, e.g. `{ thread_ts: undefined }` for a top-level mention). When
 * `text` is overridden and `blocks` is not, the sample's rich_text blocks are dropped so they cannot
 * contradict the text. Remember: inbound `text` is entity-escaped by Slack (`&lt;`, `&amp;`).
 */
export function eventRequest(eventOverrides: Json, options: EventRequestOptions): SignedSlackRequest {
  const envelope = loadSlackFixture(
    options.template === 'message_im' ? 'event_callback.message_im' : 'event_callback.app_mention.thread',
  );
  const event = { ...(envelope.event as Json), ...eventOverrides };
  if ('text' in eventOverrides && !('blocks' in eventOverrides)) delete event.blocks;
  const body = { ...envelope, ...options.envelope, event, event_id: options.eventId };
  const retry: Record<string, string> =
    options.retryNum === undefined
      ? {}
      : {
          'x-slack-retry-num': String(options.retryNum),
          'x-slack-retry-reason': options.retryReason ?? 'http_timeout',
        };
  return signed(JSON.stringify(body), 'application/json', options, retry);
}

function formBody(payload: Json): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function userObject(user: string | Json): Json {
  if (typeof user !== 'string') return user;
  const name = user.toLowerCase();
  return { id: user, username: name, name, team_id: 'T0TEST' };
}

/** Input of {@link blockActionRequest}. Omitted parts come from the button sample. */
export interface BlockActionInput {
  /** Who clicked: a user id or a full user object. */
  user: string | Json;
  /** The `actions` array (see {@link buttonActionFromBlocks}). */
  actions: Json[];
  /** Merged over the sample message: at least `ts`, and the posted `blocks`/`text`/`thread_ts`. */
  message?: Json;
  /** Merged over a container derived from `channel` and `message` (`channel_id`, `message_ts`, `thread_ts`). */
  container?: Json;
  /** Channel id of the message. @defaultValue `C0OPS` */
  channel?: string;
  /** `state` of the message, e.g. from {@link checkboxStateFromBlocks}. @defaultValue `{ values: {} }` */
  state?: Json;
  /** A response_url (use the fake Slack's `responseUrl()` to keep it local). */
  responseUrl?: string;
  /** @defaultValue a fake trigger id */
  triggerId?: string;
}

/** The unsigned `block_actions` payload of {@link blockActionRequest}. */
export function blockActionPayload(input: BlockActionInput): Json {
  const sample = loadSlackFixture('block_actions.button.thread');
  const channel = input.channel ?? 'C0OPS';
  const message = { ...(sample.message as Json), ...input.message };
  const container: Json = {
    type: 'message',
    message_ts: message.ts,
    channel_id: channel,
    is_ephemeral: false,
    ...(message.thread_ts !== undefined ? { thread_ts: message.thread_ts } : {}),
    ...input.container,
  };
  return {
    ...sample,
    user: userObject(input.user),
    container,
    channel: { id: channel, name: channel === 'C0OPS' ? 'ops' : channel.toLowerCase() },
    message,
    state: input.state ?? { values: {} },
    response_url: input.responseUrl ?? sample.response_url,
    trigger_id: input.triggerId ?? sample.trigger_id,
    actions: input.actions,
  };
}

/** A signed `block_actions` interaction (form body `payload=…`, content-type exactly `application/x-www-form-urlencoded`). */
export function blockActionRequest(input: BlockActionInput, options: SigningOptions): SignedSlackRequest {
  return signed(formBody(blockActionPayload(input)), 'application/x-www-form-urlencoded', options);
}

/** Input of {@link viewSubmissionRequest}. Omitted parts come from the view_submission sample. */
export interface ViewSubmissionInput {
  user: string | Json;
  callbackId: string;
  privateMetadata: string;
  /** `view.state.values`, e.g. `{ 'hp.answer': { 'hp.answer.text': { type: 'plain_text_input', value: 'text' } } }`. */
  values: Json;
  /** Merged over the sample view (e.g. the rendered modal's `blocks` and `title`). */
  view?: Json;
  /** @defaultValue `V0MODAL0001` */
  viewId?: string;
}

/** The unsigned `view_submission` payload of {@link viewSubmissionRequest}. */
export function viewSubmissionPayload(input: ViewSubmissionInput): Json {
  const sample = loadSlackFixture('view_submission.plain_text_input');
  const view: Json = {
    ...(sample.view as Json),
    ...input.view,
    id: input.viewId ?? 'V0MODAL0001',
    callback_id: input.callbackId,
    private_metadata: input.privateMetadata,
    state: { values: input.values },
  };
  return { ...sample, user: userObject(input.user), view };
}

/** A signed `view_submission` (form body). */
export function viewSubmissionRequest(
  input: ViewSubmissionInput,
  options: SigningOptions,
): SignedSlackRequest {
  return signed(formBody(viewSubmissionPayload(input)), 'application/x-www-form-urlencoded', options);
}

/** The `view.state.values` of the holdpoint answer modal holding `text`. */
export function answerModalValues(text: string): Json {
  return { 'hp.answer': { 'hp.answer.text': { type: 'plain_text_input', value: text } } };
}

function findElement(blocks: unknown, actionId: string): { blockId: string; element: Json } | null {
  if (!Array.isArray(blocks)) return null;
  for (const block of blocks as Json[]) {
    const elements = Array.isArray(block.elements) ? (block.elements as Json[]) : [];
    const candidates = block.accessory !== undefined ? [...elements, block.accessory as Json] : elements;
    for (const element of candidates) {
      if (element.action_id === actionId) return { blockId: String(block.block_id), element };
    }
  }
  return null;
}

/**
 * The `actions[0]` Slack sends when the button `actionId` in `blocks` (as posted) is clicked:
 * `{type:'button', action_id, block_id, value, text, style?, action_ts}`.
 *
 * @throws Error when no button with that action_id is in the blocks.
 */
export function buttonActionFromBlocks(
  blocks: unknown,
  actionId: string,
  actionTs = `${nowSec()}.000001`,
): Json {
  const found = findElement(blocks, actionId);
  if (found === null || found.element.type !== 'button')
    throw new Error(`no button ${actionId} in the blocks`);
  const { element } = found;
  return {
    type: 'button',
    action_id: actionId,
    block_id: found.blockId,
    text: element.text,
    ...(element.value !== undefined ? { value: element.value } : {}),
    ...(element.style !== undefined ? { style: element.style } : {}),
    action_ts: actionTs,
  };
}

/**
 * The message `state` Slack sends with a click after the checkboxes `actionId` in `blocks` were ticked
 * for `selectedValues` (option values, e.g. `['0', '2']`).
 *
 * @throws Error when no checkboxes element with that action_id is in the blocks.
 */
export function checkboxStateFromBlocks(blocks: unknown, actionId: string, selectedValues: string[]): Json {
  const found = findElement(blocks, actionId);
  if (found === null || found.element.type !== 'checkboxes')
    throw new Error(`no checkboxes ${actionId} in the blocks`);
  const options = Array.isArray(found.element.options) ? (found.element.options as Json[]) : [];
  const selected = options.filter((option) => selectedValues.includes(String(option.value)));
  return { values: { [found.blockId]: { [actionId]: { type: 'checkboxes', selected_options: selected } } } };
}

/** The `actions[0]` of a checkbox tick (ack-only in holdpoint). */
export function checkboxesActionFromBlocks(
  blocks: unknown,
  actionId: string,
  selectedValues: string[],
): Json {
  const state = checkboxStateFromBlocks(blocks, actionId, selectedValues);
  const [blockId, byAction] = Object.entries(state.values as Json)[0] as [string, Json];
  const element = byAction[actionId] as Json;
  return { ...element, action_id: actionId, block_id: blockId, action_ts: `${nowSec()}.000002` };
}

/**
 * The message `state` Slack sends with a click after the radio buttons `actionId` in `blocks` were set to
 * the option whose value is `value` (an option index, e.g. `'1'`).
 *
 * @throws Error when no radio buttons with that action_id, or no such option, is in the blocks.
 */
export function radioStateFromBlocks(blocks: unknown, actionId: string, value: string): Json {
  const found = findElement(blocks, actionId);
  if (found === null || found.element.type !== 'radio_buttons')
    throw new Error(`no radio buttons ${actionId} in the blocks`);
  const options = Array.isArray(found.element.options) ? (found.element.options as Json[]) : [];
  const selected = options.find((option) => String(option.value) === value);
  if (!selected) throw new Error(`no option ${value} in radio buttons ${actionId}`);
  return {
    values: { [found.blockId]: { [actionId]: { type: 'radio_buttons', selected_option: selected } } },
  };
}

/**
 * The `actions[0]` Slack sends when the option whose text is `optionText` is picked in the overflow menu
 * `actionId` of `blocks` (`{type:'overflow', action_id, block_id, selected_option, action_ts}`), or, when
 * the menu is a lone button (one option left), that button's click.
 *
 * @throws Error when no such menu or option is in the blocks.
 */
export function overflowActionFromBlocks(blocks: unknown, actionId: string, optionText: string): Json {
  const found = findElement(blocks, actionId);
  if (found === null) throw new Error(`no menu ${actionId} in the blocks`);
  if (found.element.type === 'button') {
    if ((found.element.text as Json | undefined)?.text !== optionText)
      throw new Error(`the menu ${actionId} is a lone button, not "${optionText}"`);
    return buttonActionFromBlocks(blocks, actionId);
  }
  const options = Array.isArray(found.element.options) ? (found.element.options as Json[]) : [];
  const selected = options.find((option) => (option.text as Json | undefined)?.text === optionText);
  if (found.element.type !== 'overflow' || !selected)
    throw new Error(`no option "${optionText}" in the menu ${actionId}`);
  return {
    type: 'overflow',
    action_id: actionId,
    block_id: found.blockId,
    selected_option: selected,
    action_ts: `${nowSec()}.000003`,
  };
}

/** Response of {@link postToSlackApp}. */
export interface SlackAppResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** POSTs a signed request to the app (e.g. `http://127.0.0.1:<port>/slack/events`) and returns status, body and headers. */
export async function postToSlackApp(url: string, request: SignedSlackRequest): Promise<SlackAppResponse> {
  const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body });
  return {
    status: response.status,
    body: await response.text(),
    headers: Object.fromEntries(response.headers),
  };
}

/** A signed `app_home_opened` event (JSON) for `user` opening the Home tab (`tab: 'home'`, or `messages`). */
export function appHomeOpenedRequest(
  user: string,
  options: SigningOptions & { eventId: string; tab?: 'home' | 'messages' },
): SignedSlackRequest {
  const envelope = loadSlackFixture('event_callback.app_mention.thread');
  const body = {
    ...envelope,
    event_id: options.eventId,
    event: {
      type: 'app_home_opened',
      user,
      channel: `D${user.slice(1)}`,
      tab: options.tab ?? 'home',
      event_ts: `${nowSec()}.000100`,
    },
  };
  return signed(JSON.stringify(body), 'application/json', options);
}

/** Input of {@link slashCommandRequest}. */
export interface SlashCommandInput {
  user: string;
  /** @defaultValue `/holdpoint` */
  command?: string;
  text: string;
  /** @defaultValue `C0OPS` */
  channel?: string;
  /** Use the fake Slack's `responseUrl()` to keep it local. */
  responseUrl: string;
}

/**
 * A signed slash command as Slack sends it: a form body (`application/x-www-form-urlencoded`, no `payload=`)
 * with `command`, `text`, `user_id`, `channel_id`, `response_url`, `trigger_id` …
 */
export function slashCommandRequest(input: SlashCommandInput, options: SigningOptions): SignedSlackRequest {
  const channel = input.channel ?? 'C0OPS';
  const fields = {
    token: 'deprecated-verification-token',
    team_id: 'T0TEST',
    team_domain: 'test-workspace',
    channel_id: channel,
    channel_name: channel === 'C0OPS' ? 'ops' : channel.toLowerCase(),
    user_id: input.user,
    user_name: input.user.toLowerCase(),
    command: input.command ?? '/holdpoint',
    text: input.text,
    api_app_id: 'A0APP',
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: `${nowSec()}.1234.fakecommandtrigger`,
  };
  return signed(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', options);
}

/**
 * A signed `block_actions` from a published Home tab view (`container.type: 'view'`, the `view` as Slack
 * stored it, no channel or message): the click on the button `actionId` in the row of the ask whose
 * block_ids carry `askShort` (`hp.inbox.<askShort>.…`).
 */
export function homeViewActionRequest(
  input: { user: string; view: Json; askShort: string; actionId: string; triggerId?: string },
  options: SigningOptions,
): SignedSlackRequest {
  const sample = loadSlackFixture('block_actions.button.thread');
  const blocks = Array.isArray(input.view.blocks) ? (input.view.blocks as Json[]) : [];
  const row = blocks.filter((block) => String(block.block_id).startsWith(`hp.inbox.${input.askShort}.`));
  const action = buttonActionFromBlocks(row, input.actionId);
  const payload = {
    type: 'block_actions',
    user: userObject(input.user),
    api_app_id: sample.api_app_id,
    token: sample.token,
    team: sample.team,
    container: { type: 'view', view_id: input.view.id },
    trigger_id: input.triggerId ?? sample.trigger_id,
    view: input.view,
    actions: [action],
  };
  return signed(formBody(payload), 'application/x-www-form-urlencoded', options);
}
