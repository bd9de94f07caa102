import { randomUUID } from 'node:crypto';
import { usernameTaken } from '#projections/org-directory/index.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import type { CommandContext } from '#shared/es/index.js';
import type { OrgNames } from '../claims/index.js';

/** Usernames: letters, digits, dot, dash and underscore; no `@`, so they never look like an e-mail. */
export const USERNAME_PATTERN = /^[a-z0-9._-]{2,64}$/i;

/**
 * Claims the e-mail's local part as the user's username, made unique with a suffix when taken. The
 * read-model check skips names known to be taken; the claim stream is what decides.
 */
export async function claimFreeUsername(db: Sql, names: OrgNames, email: string, userId: number, context: CommandContext): Promise<string> {
  const local = (email.split('@')[0] ?? 'user').toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 40);
  const base = local.length >= 2 ? local : `user${local}`;
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = attempt === 0 ? base : `${base}${randomUUID().slice(0, 6)}`;
    if (await usernameTaken(db, candidate)) continue;
    try {
      await names.claim('username', candidate, userId, 'Username', context);
      return candidate;
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'NAME_TAKEN')) throw err;
    }
  }
  throw new AppError('CONFLICT', 'Could not find a free username; try again');
}
