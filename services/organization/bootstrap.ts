import { findUserByLogin } from '#projections/org-directory/index.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../platform.js';
import type { AuthService } from './auth/index.js';

/**
 * `BOOTSTRAP_ADMIN_EMAIL` / `BOOTSTRAP_ADMIN_PASSWORD`: on start, create once a company "Default",
 * its "Default" workspace with every module, and that administrator (docs/api-conventions.md). Starting again,
 * or several replicas starting together, creates nothing more: the e-mail claim admits one.
 */
export async function bootstrapAdmin(platform: Platform, auth: AuthService): Promise<void> {
  const { BOOTSTRAP_ADMIN_EMAIL: email, BOOTSTRAP_ADMIN_PASSWORD: password } = platform.config;
  if (!email || !password) return;
  if (await findUserByLogin(platform.db, email)) return;
  try {
    const created = await auth.createCompanyWithAdmin({ email, password, name: 'Administrator', companyName: 'Default' });
    platform.logger.info({ userId: created.userId, companyId: created.companyId }, 'bootstrap administrator created');
  } catch (err) {
    if (err instanceof AppError && err.code === 'EMAIL_TAKEN') return;
    throw err;
  }
}
