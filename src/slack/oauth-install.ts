import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InstallationStore } from '@slack/bolt';
import { type CodedError, type Installation, InstallProvider, type OrgInstallation } from '@slack/oauth';
import { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { REQUIRED_BOT_SCOPES } from '../config/slack-scopes.js';
import { slackLogger } from './slack-logger.js';
import { slackClientOptions } from './web-client.js';

/** Where a browser starts an install. */
export const SLACK_INSTALL_PATH = '/slack/install';
/** Where Slack sends the browser back with the code (the app's Redirect URL). */
export const SLACK_OAUTH_REDIRECT_PATH = '/slack/oauth_redirect';

/** Options of {@link createSlackInstaller}. */
export interface SlackInstallerOptions {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  installationStore: InstallationStore;
  /** `SLACK_API_URL`, or undefined for Slack itself. */
  apiUrl: string | undefined;
  logger: Logger;
  /** `SLACK_ALLOWED_WORKSPACES`: the team ids (T…) and enterprise ids (E…) that may install. */
  allowedWorkspaces: ReadonlySet<string>;
}

/**
 * Whether a workspace may use holdpoint: its team id or its Enterprise Grid id is in `allowed`
 * (`SLACK_ALLOWED_WORKSPACES`). Pure.
 */
export function workspaceAllowed(
  allowed: ReadonlySet<string>,
  workspace: { teamId?: string | undefined; enterpriseId?: string | undefined },
): boolean {
  return (
    (workspace.teamId !== undefined && allowed.has(workspace.teamId)) ||
    (workspace.enterpriseId !== undefined && allowed.has(workspace.enterpriseId))
  );
}

/** OAuth install mode's HTTP side: the two routes, and `authorize` for Bolt. */
export interface SlackInstaller {
  provider: InstallProvider;
  /** `GET` routes by path: {@link SLACK_INSTALL_PATH} and {@link SLACK_OAUTH_REDIRECT_PATH}. */
  routes: ReadonlyMap<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>;
}

/**
 * Slack's authorize page for `apiUrl`: `https://slack.com/oauth/v2/authorize`, or beside a
 * `SLACK_API_URL` (`http://h/api/` -> `http://h/oauth/v2/authorize`), so a proxy or a test server serves both.
 */
export function authorizationUrlFor(apiUrl: string | undefined): string {
  if (!apiUrl) return 'https://slack.com/oauth/v2/authorize';
  return new URL('../oauth/v2/authorize', apiUrl).toString();
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
  );
}

/**
 * Builds `@slack/oauth`'s {@link InstallProvider} over `installationStore`: `GET /slack/install` sets a
 * signed state (cookie and query, verified on the way back: CSRF) and redirects to Slack's authorize page
 * with holdpoint's bot scopes; `GET /slack/oauth_redirect` checks the state, exchanges the code
 * (`oauth.v2.access`), stores the installation and answers with a page naming the installed workspace.
 * Neither logs a token or a code.
 */
export function createSlackInstaller(options: SlackInstallerOptions): SlackInstaller {
  const log = options.logger;
  const provider = new InstallProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    stateSecret: options.stateSecret,
    installationStore: options.installationStore,
    stateVerification: true,
    directInstall: true,
    authorizationUrl: authorizationUrlFor(options.apiUrl),
    installUrlOptions: { scopes: [...REQUIRED_BOT_SCOPES] },
    logger: slackLogger(log),
    clientOptions: slackClientOptions(options.apiUrl),
  });
  const success = (installation: Installation | OrgInstallation, res: ServerResponse) => {
    const name = installation.isEnterpriseInstall
      ? (installation.enterprise?.name ?? installation.enterprise?.id ?? 'your organization')
      : (installation.team?.name ?? installation.team?.id ?? 'your workspace');
    log.info(
      {
        teamId: installation.team?.id,
        enterpriseId: installation.enterprise?.id,
        orgWide: installation.isEnterpriseInstall === true,
      },
      'holdpoint installed in a Slack workspace',
    );
    page(
      res,
      200,
      'holdpoint is installed',
      `holdpoint is installed in ${name}. Mention @holdpoint in a channel it is in, or write to it in a DM.`,
    );
  };
  const failure = (error: CodedError, res: ServerResponse) => {
    log.warn({ code: error.code, reason: error.message }, 'a Slack install failed');
    page(
      res,
      400,
      'holdpoint was not installed',
      `The install did not complete (${error.code}). Start again from ${SLACK_INSTALL_PATH} in the same browser.`,
    );
  };
  // Before the installation is stored: one from a workspace outside SLACK_ALLOWED_WORKSPACES is refused, and
  // the token Slack just issued for it is revoked (best effort).
  const afterInstallation = async (
    installation: Installation | OrgInstallation,
    _options: unknown,
    _req: IncomingMessage,
    res: ServerResponse,
  ): Promise<boolean> => {
    const workspace = { teamId: installation.team?.id, enterpriseId: installation.enterprise?.id };
    if (workspaceAllowed(options.allowedWorkspaces, workspace)) return true;
    log.warn(workspace, 'an install from a workspace outside SLACK_ALLOWED_WORKSPACES was refused');
    const token = installation.bot?.token;
    if (token)
      await new WebClient(token, slackClientOptions(options.apiUrl)).auth.revoke().catch((error: unknown) => {
        log.warn({ err: error, ...workspace }, 'could not revoke the refused install token');
      });
    page(
      res,
      403,
      'holdpoint was not installed',
      'This Slack workspace may not install holdpoint here. Ask the people who run it to add its id to SLACK_ALLOWED_WORKSPACES.',
    );
    return false;
  };
  return {
    provider,
    routes: new Map([
      [
        SLACK_INSTALL_PATH,
        (req: IncomingMessage, res: ServerResponse) => provider.handleInstallPath(req, res),
      ],
      [
        SLACK_OAUTH_REDIRECT_PATH,
        (req: IncomingMessage, res: ServerResponse) =>
          provider.handleCallback(req, res, {
            afterInstallation,
            success: (installation, _options, _req, response) => success(installation, response),
            failure: (error, _options, _req, response) => failure(error, response),
          }),
      ],
    ]),
  };
}
