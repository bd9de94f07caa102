import { getWorkspace } from '#projections/org-directory/index.js';
import { checkByTokenHash, findCheck, type CheckRecord, type Scope } from '#projections/hc-checks/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { handleCommand, type CommandContext } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { healthCheckDecider, type HealthCheckCommand } from './decide.js';
import { healthCheckStream } from '#events/healthcheck/checks.js';
import type { Liveness, PulseStore, PulseTarget } from './pulse-store.js';

export const PUSH_TOKEN_PREFIX = 'hct_';
const PUSH_TOKEN = /^hct_[A-Za-z0-9_-]{16,200}$/;

/** A new push token, its hash and the prefix shown in lists. */
export function newPushToken(): { token: string; tokenHash: string; tokenPrefix: string } {
  const token = `${PUSH_TOKEN_PREFIX}${randomToken(24)}`;
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, PUSH_TOKEN_PREFIX.length + 6) };
}

/** A check as the API shows it: its record and its liveness. */
export interface CheckView extends CheckRecord {
  lastHeartbeatAt: string | null;
  heartbeatCount: number;
  /** When the next heartbeat is expected at the latest before the check goes down (`up` only). */
  dueBy: string | null;
}

export function toCheckView(record: CheckRecord, liveness: Liveness | undefined): CheckView {
  const last = liveness?.lastHeartbeatAt ?? null;
  const dueBy =
    record.status === 'up' && last ? new Date(Date.parse(last) + (record.intervalSeconds + record.graceSeconds) * 1000).toISOString() : null;
  return { ...record, lastHeartbeatAt: last, heartbeatCount: liveness?.heartbeats ?? 0, dueBy };
}

/** Commands on checks and the push-token look-up, shared by the routes and the reaper. */
export function createCheckService(platform: Platform, pulses: PulseStore) {
  const settle = async (position: bigint | null) => {
    if (position !== null) await platform.readModels.waitFor(position, { names: ['hc-checks'] });
  };
  return {
    /** Runs one command on a check's stream and waits for the read model when asked. */
    async execute(checkId: string, command: HealthCheckCommand, context: CommandContext, options: { wait?: boolean } = {}) {
      const result = await handleCommand({ store: platform.store, streamId: healthCheckStream(checkId), decider: healthCheckDecider, command, context });
      if (options.wait !== false) await settle(result.position);
      return result;
    },

    /** A live check of the workspace with its liveness, or 404. */
    async view(scope: Scope, checkId: string): Promise<CheckView> {
      const record = found(await findCheck(platform.db, scope, checkId), 'Health check not found');
      const liveness = await pulses.liveness(scope, [record.id]);
      return toCheckView(record, liveness.get(record.id));
    },

    /** The live check a push token names; null for a malformed, unknown, rotated-away or deleted token. */
    /**
     * The check a push token belongs to — only while its workspace still exists and has the
     * HEALTHCHECK module (the push paths are public, so the gateway's entitlement check does not run
     * there); an archived workspace is read-only and refuses pushes.
     */
    async byPushToken(token: string): Promise<PulseTarget | null> {
      if (!PUSH_TOKEN.test(token)) return null;
      const target = await checkByTokenHash(platform.db, hashToken(token));
      if (!target) return null;
      const workspace = await getWorkspace(platform.db, target.companyId, target.workspaceId);
      if (!workspace || !workspace.modules.includes('HEALTHCHECK')) return null;
      if (workspace.archived) throw new AppError('WORKSPACE_ARCHIVED', `Workspace ${workspace.id} is archived and read-only`);
      return target;
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
