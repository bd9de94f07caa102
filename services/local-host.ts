import type { Logger } from 'pino';
import { findUserByLogin, firstCompanyId } from '#projections/org-directory/index.js';
import type { Sql } from '#shared/db/index.js';
import type { Config } from '#shared/config.js';
import type { HostEnrolments } from './df/hosts/enrolments.js';
import { commandContext } from '#shared/es/index.js';

/**
 * The company the in-process device host serves: the bootstrap administrator's, or else the first
 * company created on this installation. `null` while there is none.
 */
async function installationCompany(db: Sql, config: Pick<Config, 'BOOTSTRAP_ADMIN_EMAIL'>): Promise<number | null> {
  if (config.BOOTSTRAP_ADMIN_EMAIL) {
    const admin = await findUserByLogin(db, config.BOOTSTRAP_ADMIN_EMAIL);
    if (admin) return admin.companyId;
  }
  return firstCompanyId(db);
}

/**
 * Enrols the host that runs inside the server process (`npm start`) and answers its token: the
 * enrolment is made once, into the installation's company with every workspace; each start rotates
 * its token (only the hash is stored, so the token of an earlier start cannot be read back). Waits
 * until a company exists. A host an administrator revoked stays revoked: `null`.
 */
export async function enrolLocalHost(options: {
  db: Sql;
  config: Pick<Config, 'BOOTSTRAP_ADMIN_EMAIL'>;
  enrolments: HostEnrolments;
  hostId: string;
  name: string;
  logger: Logger;
  now: () => Date;
  signal: AbortSignal;
  /** How often to look for the first company while there is none. */
  pollMs?: number;
}): Promise<string | null> {
  const { enrolments, hostId, logger, signal } = options;
  let waiting = false;
  for (;;) {
    if (signal.aborted) return null;
    const companyId = await installationCompany(options.db, options.config);
    if (companyId !== null) {
      const context = commandContext(options, { actorId: 'system:local-host', companyId });
      const state = await enrolments.state(hostId);
      if (state.revoked) {
        logger.warn({ hostId }, 'the in-process device host was revoked by an administrator; it does not connect');
        return null;
      }
      if (state.hostId === null) {
        const { token } = await enrolments.enrol({ hostId, name: options.name, companyId, workspaceIds: null }, context);
        logger.info({ hostId, companyId }, 'in-process device host enrolled');
        return token;
      }
      return (await enrolments.rotate(hostId, context)).token;
    }
    if (!waiting) logger.info('the in-process device host waits for the first company (sign-up or BOOTSTRAP_ADMIN_EMAIL) to serve');
    waiting = true;
    // One abort listener per look, taken off again when the look comes: an installation waiting for its
    // first company for hours would otherwise gather four listeners a second.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, options.pollMs ?? 250);
      timer.unref();
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
