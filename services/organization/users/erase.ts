import { loadSecretBox } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { forgetAnswersNaming } from '#shared/http/idempotency.js';
import type { CommandContext } from '#shared/es/index.js';
import { migrationPendingThrough, personalDataOf, userPerson } from '#shared/pii/index.js';
import type { Platform } from '../../platform.js';
import { getUser } from '#projections/org-directory/index.js';
import { deleteUser, userWrites, type TokenRevocations } from './service.js';

/**
 * The read models that keep personal data, made to hold the erased person's placeholders after an
 * erasure (rewritten in place, or rebuilt): `done` once they have, `rebuilding` when they had not within
 * the wait (they go on in the background).
 */
export interface PersonalReadModels {
  rebuild(userId: number): Promise<{ state: 'done' | 'rebuilding'; rewritten: string[]; rebuilt: string[] }>;
}

export interface Erasure {
  userId: number;
  /** The erasure's time (the first one's, when the person was erased before). */
  erasedAt: string;
  readModels: 'done' | 'rebuilding';
  /** Read models whose rows of the person were rewritten in place, and read models rebuilt. */
  rewritten: string[];
  rebuilt: string[];
}

/**
 * Erases a person of the caller's company (permission and self checks by the caller): a user still there
 * is deleted first (tokens end, address and username freed); `UserErased` is recorded on their stream;
 * their key is destroyed, so every sealed name, address and note of theirs reads as an erased person's
 * ever after; the idempotent answers kept that name them are kept no longer; the read models that keep
 * personal data are rebuilt. Erasing again changes nothing.
 * Refused (409 PII_MIGRATION_PENDING) while events from before sealing may hold personal data in clear.
 */
export async function eraseUser(
  platform: Platform,
  revocations: TokenRevocations,
  ctx: CommandContext,
  target: { companyId: number; userId: number },
  readModels: PersonalReadModels | undefined,
): Promise<Erasure> {
  const data = personalDataOf(platform.store);
  if (!data) throw new Error('The event store does not seal personal data (services/open-platform.ts)');
  if ((await migrationPendingThrough(platform.db)) !== null) {
    throw new AppError('PII_MIGRATION_PENDING', 'Events recorded before personal data was sealed still hold it in clear: run `npm run pii:migrate` first (docs/operations.md, "Erasing a person")');
  }
  const present = await getUser(platform.db, target.companyId, target.userId);
  if (present) await deleteUser(platform, revocations, ctx, present);
  const { users } = userWrites(platform);
  const result = await users.run(target.userId, { type: 'EraseUser', companyId: target.companyId }, ctx, { settle: false });
  const by = ctx.actorId === null || ctx.actorId === undefined ? 'system' : `user:${String(ctx.actorId)}`;
  await data.keys.erase(userPerson(target.userId), target.companyId, by, ctx.now);
  await users.settle(result);
  // Kept idempotent answers that name them (their own requests', others' that showed their name or address).
  const { config } = platform;
  const box = loadSecretBox({ key: config.SECRETS_KEY, previousKeys: config.SECRETS_PREVIOUS_KEYS, dataDir: config.DATA_DIR });
  await forgetAnswersNaming(platform.db, box, { companyId: target.companyId, userId: target.userId, texts: present ? [present.email, present.name, present.username] : [] });
  const models = readModels ? await readModels.rebuild(target.userId) : { state: 'done' as const, rewritten: [], rebuilt: [] };
  const erasedAt = (await data.keys.erasedAt(userPerson(target.userId))) ?? ctx.now;
  return { userId: target.userId, erasedAt: erasedAt.toISOString(), readModels: models.state, rewritten: models.rewritten, rebuilt: models.rebuilt };
}
