import { getUserByEmail, type UserView } from '#projections/org-directory/index.js';
import type { IdentityMapping } from '#events/organization/identity-providers.js';
import { AppError } from '#shared/errors.js';
import type { CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { lastWrite, orgAggregate } from '../service.js';
import { teamDecider, teamStream } from '../teams/index.js';
import { userDecider, userStream } from '../users/index.js';
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
 * Gives a user what the mappings grant, adding to what they have (nothing is taken away: an
 * administrator or SCIM removes). A team or workspace deleted or archived since the mapping was made is
 * skipped and logged.
 */
export async function applyGrants(platform: Platform, user: Pick<UserView, 'id' | 'companyId' | 'roleIds'>, grants: Grants, context: CommandContext): Promise<void> {
  const users = orgAggregate(platform, userDecider, userStream);
  const teams = orgAggregate(platform, teamDecider, teamStream);
  const workspaces = orgAggregate(platform, workspaceDecider, workspaceStream);
  const results: ({ position: bigint | null } | null)[] = [];
  const missing = grants.roleIds.filter((id) => !user.roleIds.includes(id));
  if (missing.length > 0) {
    results.push(await users.run(user.id, { type: 'ReplaceRoles', companyId: user.companyId, roleIds: [...user.roleIds, ...missing] }, context, { settle: false }));
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
    await skipped('teamId', teamId, () => teams.run(teamId, { type: 'AddMember', companyId: user.companyId, userId: user.id }, context, { settle: false }));
  }
  for (const workspaceId of grants.workspaceIds) {
    const command = { type: 'GrantAccess', companyId: user.companyId, grantee: { kind: 'user', userId: user.id } } as const;
    await skipped('workspaceId', workspaceId, () => workspaces.run(workspaceId, command, context, { settle: false }));
  }
  await users.settle(lastWrite(...results));
}

/** The user of the company with this address, as the directory shows them after the latest writes. */
export async function userOfCompany(platform: Platform, companyId: number, email: string): Promise<UserView | null> {
  return getUserByEmail(platform.db, companyId, email);
}
