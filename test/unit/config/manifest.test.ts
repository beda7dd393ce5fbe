import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { REQUIRED_BOT_EVENTS, REQUIRED_BOT_SCOPES } from '../../../src/config/slack-scopes.js';

const manifestSchema = z.object({
  _metadata: z.object({ major_version: z.literal(1) }),
  display_information: z.object({ name: z.string().min(1).max(35), description: z.string().min(1).max(140) }),
  features: z.object({
    app_home: z.object({
      home_tab_enabled: z.boolean(),
      messages_tab_enabled: z.boolean(),
      messages_tab_read_only_enabled: z.boolean(),
    }),
    bot_user: z.object({ display_name: z.string().min(1).max(80) }),
    slash_commands: z
      .array(
        z.object({
          command: z.string().regex(/^\/[a-z0-9_-]{1,31}$/),
          description: z.string().min(1).max(2000),
          usage_hint: z.string().max(1000).optional(),
          url: z.string().optional(),
          should_escape: z.boolean().optional(),
        }),
      )
      .optional(),
  }),
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
  settings: z.object({
    event_subscriptions: z.object({ bot_events: z.array(z.string()), request_url: z.string().optional() }),
    interactivity: z.object({ is_enabled: z.boolean(), request_url: z.string().optional() }),
    socket_mode_enabled: z.boolean(),
  }),
});

const text = readFileSync(new URL('../../../manifest.yml', import.meta.url), 'utf8');
const manifest = manifestSchema.parse(parse(text));

describe('manifest.yml', () => {
  it('is named holdpoint', () => {
    expect(manifest.display_information.name).toBe('holdpoint');
    expect(manifest.features.bot_user.display_name).toBe('holdpoint');
  });

  it('grants exactly the bot scopes holdpoint doctor checks', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...REQUIRED_BOT_SCOPES].sort());
  });

  it('subscribes to the bot events holdpoint handles', () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(
      [...REQUIRED_BOT_EVENTS].sort(),
    );
  });

  it('lets people DM the bot', () => {
    expect(manifest.features.app_home.messages_tab_enabled).toBe(true);
    expect(manifest.features.app_home.messages_tab_read_only_enabled).toBe(false);
  });

  it('enables interactivity and Socket Mode, with no request URLs', () => {
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.interactivity.request_url).toBeUndefined();
    expect(manifest.settings.event_subscriptions.request_url).toBeUndefined();
  });

  it('explains how to switch to HTTP mode, and to OAuth install mode', () => {
    expect(text).toContain('redirect_urls: [https://<your-host>/slack/oauth_redirect]');
    expect(text).toContain('https://<your-host>/slack/install');
    expect(text).toContain('socket_mode_enabled: false');
    expect(text).toContain('request_url: https://<your-host>/slack/events');
    expect(text).toContain('SLACK_SIGNING_SECRET');
  });

  it('every event has the scope it needs', () => {
    const needs: Record<string, string | null> = {
      app_home_opened: null,
      app_mention: 'app_mentions:read',
      'message.im': 'im:history',
      'message.channels': 'channels:history',
      'message.groups': 'groups:history',
      'message.mpim': 'mpim:history',
      app_uninstalled: null,
      tokens_revoked: null,
    };
    for (const event of manifest.settings.event_subscriptions.bot_events) {
      expect(needs, event).toHaveProperty([event]);
      const scope = needs[event];
      if (scope) expect(manifest.oauth_config.scopes.bot, event).toContain(scope);
    }
  });

  it('has the Home tab and the /holdpoint command (with the commands scope), with no URL in Socket Mode', () => {
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    const commands = manifest.features.slash_commands ?? [];
    expect(commands.map((command) => command.command)).toEqual(['/holdpoint']);
    expect(commands[0]?.url).toBeUndefined();
    expect(manifest.oauth_config.scopes.bot).toContain('commands');
  });
});
