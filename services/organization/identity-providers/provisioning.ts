import { getUserByEmail, type UserView } from '#projections/org-directory/index.js';
import type { IdentityMapping } from '#events/organization/identity-providers.js';
import { hashPassword, randomToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { CommandContext } from '#shared/es/decider.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { OrgWriter } from '../service.js';
import { teamDecider, teamStream } from '../teams/index.js';
import { emailClaimDecider, emailClaimStream, userDecider, userStream } from '../users/index.js';
import { claimFreeUsername } from '../users/usernames.js';
import { workspaceDecider, workspaceStream } from '../workspaces/index.js';

/** Who an identity provider or a directory says a person is. */
export interface ExternalIdentity {
  email: string;
  name: string | null;
  /** Group names or DNs (OIDC `groups` claim, SAML group attribute, LDAP groups). */
  groups: string[];
  /** Every claim or attribute, for mappings by claim value. */
  claims: Record<string, unknown>;
}

/** What the mappings that match an identity grant, each list unique and sorted. */
export interface Grants {
  roleIds: number[];
  teamIds: number[];
  workspaceIds: number[];
}

const lower = (s: string) => s.trim().toLowerCase();

/** Whether one mapping applies to an identity: by group (DN or cn, case-insensitive), by claim value, or to everyone. */
export function mappingMatches(m: IdentityMapping, identity: Pick<ExternalIdentity, 'groups' | 'claims'>): boolean {
  if (m.group !== undefined) {
    const want = lower(m.group);
    return identity.groups.some((g) => lower(g) === want || lower(cnOf(g) ?? '') === want);
  }
  if (m.claim !== undefined) {
    const v = identity.claims[m.claim];
    const values = Array.isArray(v) ? v : [v];
    return values.some((x) => (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') && String(x) === (m.value ?? ''));
  }
  return true;
}

/** The `cn` of a distinguished name (`cn=qa-admins,ou=groups,dc=example,dc=test` → `qa-admins`). */
function cnOf(dn: string): string | null {
  const m = /^\s*cn=((?:\\,|[^,])+)/i.exec(dn);
  return m ? m[1]!.replace(/\\,/g, ',').trim() : null;
}

/** The union of what the matching mappings grant. */
export function grantsOf(mappings: readonly IdentityMapping[], identity: Pick<ExternalIdentity, 'groups' | 'claims'>): Grants {
  const roles = new Set<number>();
  const teams = new Set<number>();
  const workspaces = new Set<number>();
  for (const m of mappings) {
    if (!mappingMatches(m, identity)) continue;
    for (const id of m.roleIds) roles.add(id);
    for (const id of m.teamIds) teams.add(id);
    for (const id of m.workspaceIds) workspaces.add(id);
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { roleIds: sorted(roles), teamIds: sorted(teams), workspaceIds: sorted(workspaces) };
}

/**
 * Creates an active user of the company from an identity (just-in-time provisioning, SCIM): the
 * address claimed first (the address of another account: refused by its claim), a free
 * username, and a password nobody knows — they sign in through their provider, or set one by a reset.
 */
export async function provisionUser(
  platform: Platform,
  companyId: number,
  person: { email: string; name: string; roleIds: number[]; username?: string },
  context: CommandContext,
): Promise<{ userId: number; position: bigint | null }> {
  const { db } = platform;
  const writer = new OrgWriter(platform);
  const userId = await allocateId(db, 'user');
  const ctx = { ...context, companyId };
  await writer.run(emailClaimStream(person.email), emailClaimDecider, { type: 'ClaimEmail', email: person.email, userId }, ctx);
  let username: string;
  if (person.username) {
    await writer.claimName('username', person.username, userId, 'Username', ctx);
    username = person.username;
  } else {
    username = await claimFreeUsername(db, writer, person.email, userId, ctx);
  }
  const result = await writer.run(
    userStream(userId),
    userDecider,
    {
      type: 'RegisterUser',
      userId,
      companyId,
      email: person.email,
      username,
      name: person.name.trim() || username,
      passwordHash: await hashPassword(randomToken(32)),
      isAdmin: false,
      roles: [],
      roleIds: person.roleIds,
    },
    ctx,
  );
  return { userId, position: result.position };
}

/**
 * Gives a user what the mappings grant, adding to what they have (nothing is taken away: an
 * administrator or SCIM removes). A team or workspace deleted or archived since the mapping was made is
 * skipped and logged.
 */
export async function applyGrants(platform: Platform, user: Pick<UserView, 'id' | 'companyId' | 'roleIds'>, grants: Grants, context: CommandContext): Promise<void> {
  const writer = new OrgWriter(platform);
  const results: ({ position: bigint | null } | null)[] = [];
  const missing = grants.roleIds.filter((id) => !user.roleIds.includes(id));
  if (missing.length > 0) {
    results.push(await writer.run(userStream(user.id), userDecider, { type: 'ReplaceRoles', companyId: user.companyId, roleIds: [...user.roleIds, ...missing] }, context));
  }
  const skipped = async (what: string, id: number, run: () => Promise<{ position: bigint | null }>) => {
    try {
      results.push(await run());
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      platform.logger.warn({ userId: user.id, [what]: id, code: err.code }, 'an identity provider mapping names something that can no longer be granted; skipped');
    }
  };
  for (const teamId of grants.teamIds) {
    await skipped('teamId', teamId, () => writer.run(teamStream(teamId), teamDecider, { type: 'AddMember', companyId: user.companyId, userId: user.id }, context));
  }
  for (const workspaceId of grants.workspaceIds) {
    const command = { type: 'GrantAccess', companyId: user.companyId, grantee: { kind: 'user', userId: user.id } } as const;
    await skipped('workspaceId', workspaceId, () => writer.run(workspaceStream(workspaceId), workspaceDecider, command, context));
  }
  await writer.settle(...results);
}

/** The user of the company with this address, as the directory shows them after the latest writes. */
export async function userOfCompany(platform: Platform, companyId: number, email: string): Promise<UserView | null> {
  return getUserByEmail(platform.db, companyId, email);
}
