import { describe, expect, it } from 'vitest';
import { checkSlackEnvelope } from './envelope.js';

const user = { id: 'U0ALICE', team_id: 'T0TEST' };
const action = { type: 'button', action_id: 'hp.option.0.0', value: 'x' };
const event = { type: 'app_mention', channel: 'C0OPS', ts: '1.2', user: 'U0ALICE', text: 'hi' };

describe('checkSlackEnvelope', () => {
  const accepted: Array<[string, unknown, string]> = [
    ['block_actions', { type: 'block_actions', user, actions: [action], team: { id: 'T' } }, 'block_actions'],
    [
      'block_actions of an org-wide install (team null)',
      { type: 'block_actions', user, actions: [action], team: null },
      'block_actions',
    ],
    [
      'view_submission',
      { type: 'view_submission', user, view: { id: 'V1', state: { values: {} } } },
      'view_submission',
    ],
    ['view_closed', { type: 'view_closed', user, view: { id: 'V1' } }, 'view_closed'],
    ['shortcut', { type: 'shortcut', user, callback_id: 'x' }, 'shortcut'],
    ['event_callback', { type: 'event_callback', event_id: 'Ev1', event }, 'event_callback'],
    [
      'event with channel object',
      { event_id: 'Ev9', event: { type: 'channel_created', channel: { id: 'C1' } } },
      'event_callback',
    ],
    [
      'event with authorizations',
      { event_id: 'Ev9', event, authorizations: [{ team_id: 'T' }] },
      'event_callback',
    ],
    ['a slash command', { command: '/holdpoint', text: 'asks', user_id: 'U0ALICE' }, 'command'],
    ['an unknown type (Bolt dispatches nothing)', { type: 'something_new' }, 'something_new'],
    [
      'extra fields pass',
      { type: 'block_actions', user, actions: [action], extra: { a: 1 } },
      'block_actions',
    ],
  ];
  for (const [name, body, kind] of accepted) {
    it(`accepts ${name}`, () => {
      expect(checkSlackEnvelope(body)).toEqual({ ok: true, kind });
    });
  }

  const refused: Array<[string, unknown, string, string]> = [
    ['null', null, 'unknown', '(body): expected a JSON object, got null'],
    ['a string', 'x', 'unknown', '(body): expected a JSON object, got string'],
    ['a number', 42, 'unknown', '(body): expected a JSON object, got number'],
    ['an array', [], 'unknown', '(body): expected a JSON object, got an array'],
    ['actions an object', { type: 'block_actions', user, actions: {} }, 'block_actions', 'actions:'],
    ['actions a string', { type: 'block_actions', user, actions: 'x' }, 'block_actions', 'actions:'],
    ['actions empty', { type: 'block_actions', user, actions: [] }, 'block_actions', 'actions:'],
    ['actions [null]', { type: 'block_actions', user, actions: [null] }, 'block_actions', 'actions.0:'],
    ['block_actions without actions', { type: 'block_actions', user }, 'block_actions', 'actions:'],
    ['block_actions without user', { type: 'block_actions', actions: [action] }, 'block_actions', 'user:'],
    ['user a string', { type: 'block_actions', user: 'U1', actions: [action] }, 'block_actions', 'user:'],
    [
      'team a string',
      { type: 'block_actions', user, team: 'T', actions: [action] },
      'block_actions',
      'team:',
    ],
    [
      'container a number',
      { type: 'block_actions', user, actions: [action], container: 5 },
      'block_actions',
      'container:',
    ],
    ['actions without a type says action', { user, actions: 'x' }, 'actions', 'actions:'],
    ['a slash command without a user', { command: '/holdpoint', text: 'asks' }, 'command', 'user_id:'],
    [
      'a slash command by a made-up user',
      { command: '/holdpoint', user_id: 'x'.repeat(70) },
      'command',
      'user_id:',
    ],
    ['view_submission without view', { type: 'view_submission', user }, 'view_submission', 'view:'],
    ['view_submission view null', { type: 'view_submission', user, view: null }, 'view_submission', 'view:'],
    [
      'view state a string',
      { type: 'view_submission', user, view: { state: 'x' } },
      'view_submission',
      'view.state:',
    ],
    ['view_closed without user', { type: 'view_closed', view: { id: 'V' } }, 'view_closed', 'user:'],
    ['shortcut user null', { type: 'shortcut', user: null }, 'shortcut', 'user:'],
    ['message_action without user', { type: 'message_action' }, 'message_action', 'user:'],
    ['block_suggestion without user', { type: 'block_suggestion' }, 'block_suggestion', 'user:'],
    ['event_callback without event', { type: 'event_callback', event_id: 'Ev1' }, 'event_callback', 'event:'],
    ['event null', { type: 'event_callback', event_id: 'Ev9', event: null }, 'event_callback', 'event:'],
    ['event a string', { event_id: 'Ev9', event: 'app_mention' }, 'event_callback', 'event:'],
    ['event without type', { event_id: 'Ev9', event: { channel: 'C1' } }, 'event_callback', 'event.type:'],
    [
      'event channel a number',
      { event_id: 'Ev9', event: { ...event, channel: 5 } },
      'event_callback',
      'event.channel:',
    ],
    [
      'event item a string',
      { event_id: 'Ev9', event: { type: 'reaction_added', item: 'x' } },
      'event_callback',
      'event.item:',
    ],
    [
      'authorizations a string',
      { event_id: 'Ev9', event, authorizations: 'x' },
      'event_callback',
      'authorizations:',
    ],
    [
      'authorizations [null]',
      { event_id: 'Ev9', event, authorizations: [null] },
      'event_callback',
      'authorizations.0:',
    ],
    [
      'action_id null',
      { type: 'block_actions', user, actions: [{ action_id: null }] },
      'block_actions',
      'actions.0.action_id:',
    ],
    [
      'action_id a number',
      { type: 'block_actions', user, actions: [{ action_id: 5 }] },
      'block_actions',
      'actions.0.action_id:',
    ],
    [
      'block_id an object',
      { type: 'block_actions', user, actions: [{ ...action, block_id: {} }] },
      'block_actions',
      'actions.0.block_id:',
    ],
    [
      'callback_id a number',
      { type: 'view_submission', user, view: { callback_id: 5 } },
      'view_submission',
      'view.callback_id:',
    ],
    [
      'user id not a Slack id',
      { type: 'block_actions', user: { id: 'x'.repeat(70_000) }, actions: [action] },
      'block_actions',
      'user.id:',
    ],
    ['event_callback without event_id', { type: 'event_callback', event }, 'event_callback', 'event_id:'],
    ['event_id a number', { type: 'event_callback', event_id: 5, event }, 'event_callback', 'event_id:'],
    [
      'team_id a number',
      { type: 'event_callback', event_id: 'Ev1', team_id: 5, event },
      'event_callback',
      'team_id:',
    ],
    [
      'event user not a Slack id',
      { event_id: 'Ev1', event: { ...event, user: 'x'.repeat(100) } },
      'event_callback',
      'event.user:',
    ],
  ];
  for (const [name, body, kind, problemStart] of refused) {
    it(`refuses ${name}, naming the field`, () => {
      const checked = checkSlackEnvelope(body);
      expect(checked.ok).toBe(false);
      expect(checked.kind).toBe(kind);
      expect(checked.ok ? '' : checked.problem).toContain(problemStart);
    });
  }
});
