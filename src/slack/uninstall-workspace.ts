import type { AskService } from '../asks/ask-service.js';
import type { EngineLogger } from '../asks/logger.js';
import type { AskRecord } from '../asks/types.js';
import type { RedisInstallationStore } from '../store/redis-installation-store.js';
import type { UninstalledTeam } from './handlers/handler-deps.js';
import type { SlackClients } from './slack-clients.js';

/** Most open asks one uninstall looks at (the ask index's open band, oldest first). */
export const UNINSTALL_SCAN_LIMIT = 10_000;

/** What {@link uninstallWorkspace} needs. */
export interface UninstallDeps {
  installations: Pick<RedisInstallationStore, 'deleteInstallation'>;
  clients: Pick<SlackClients, 'forget'>;
  store: {
    listOpenAsks(limit: number): Promise<Array<{ turnId: string; askId: string }>>;
    getAsk(turnId: string, askId: string): Promise<AskRecord | null>;
  };
  asks: Pick<AskService, 'cancelUninstalled'>;
  log: EngineLogger;
}

/**
 * A workspace uninstalled holdpoint (`app_uninstalled`) or revoked its bot token (`tokens_revoked`): its
 * installation (the sealed tokens) is deleted first, so no later call reaches Slack for it, then every open
 * ask of its conversations is resolved as canceled (one Lua script each), so their turns go on and end at
 * their next Slack call (`slack_not_installed`: the job ends with one log line). Running it twice is harmless.
 */
export async function uninstallWorkspace(deps: UninstallDeps, team: UninstalledTeam): Promise<void> {
  await deps.installations.deleteInstallation({
    teamId: team.teamId,
    enterpriseId: team.enterpriseId,
    isEnterpriseInstall: team.isEnterpriseInstall,
  });
  deps.clients.forget({ teamId: team.teamId, enterpriseId: team.enterpriseId });
  let canceled = 0;
  for (const ref of await deps.store.listOpenAsks(UNINSTALL_SCAN_LIMIT)) {
    try {
      const ask = await deps.store.getAsk(ref.turnId, ref.askId);
      if (ask?.status !== 'open' || !belongsTo(ask, team)) continue;
      const result = await deps.asks.cancelUninstalled(ref.turnId, ref.askId);
      if (result.status === 'completed') canceled += 1;
    } catch (error) {
      deps.log.warn({ askId: ref.askId, err: error }, 'uninstall: an open ask could not be canceled');
    }
  }
  deps.log.info(
    { teamId: team.teamId, enterpriseId: team.enterpriseId, reason: team.reason, canceledAsks: canceled },
    'a Slack workspace removed holdpoint: its installation is deleted and its open asks are canceled',
  );
}

function belongsTo(ask: AskRecord, team: UninstalledTeam): boolean {
  // An org-wide install serves many teams, and a conversation names its team only: its asks cannot be told
  // apart from another install's here, so they are left to their timeouts (their Slack calls end quietly).
  if (team.isEnterpriseInstall) return false;
  return team.teamId !== undefined && ask.conversation.teamId === team.teamId;
}
