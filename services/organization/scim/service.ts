import { randomUUID } from 'node:crypto';
import { getUser, getUserByEmail, listTeams, listUsers, type TeamView, type UserView } from '#projections/org-directory/index.js';
import { activeScimToken, findScimToken, type ScimTokenView } from '#projections/org-scim/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { aggregate } from '#shared/es/index.js';
import { credentialNeedsApproval } from '#shared/http/key-verifier.js';
import type { CommandContext } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { scimTokenStream } from '#events/organization/scim.js';
import type { Platform } from '../../platform.js';
import { credentialApprovals } from '../../credential-approvals.js';
import { requireOwnAddress } from '../domains/index.js';
import { TeamService } from '../teams/index.js';
import { deleteUser, registerUser, setUserStatus, updateUser, type TokenRevocations } from '../users/index.js';
import { scimTokenDecider } from './decide.js';
import { groupPatch, groupResource, listResponse, ScimError, userResource, type EqFilter, type PersonInput } from './protocol.js';

/** SCIM tokens: `scim_` and 43 base64url characters (256 random bits). */
export const SCIM_TOKEN_PREFIX = 'scim_';

/** Who a `/scim/v2` request acts for: the company of its token, and the roles its users are given. */
export interface ScimCaller {
  tokenId: string;
  companyId: number;
  roleIds: number[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The write and read side of SCIM provisioning for one company: tokens, Users as the company's users
 * and Groups as its teams. Every change goes through the same commands the administration routes use,
 * with the token as the actor's company and the request id as correlation id.
 */
export class ScimService {
  private readonly tokens;
  private readonly teams: TeamService;

  private readonly approveCredential;

  constructor(
    private readonly platform: Platform,
    private readonly revocations: TokenRevocations,
    /** Whether a token waits for an administrator's approval (single sign-on required: docs/modules/identity.md, "What enforcement ends"). */
    private readonly held: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean> = async () => false,
  ) {
    this.tokens = aggregate(platform, { decider: scimTokenDecider, stream: scimTokenStream, readModels: ['org-scim'] });
    this.approveCredential = credentialApprovals(platform);
    this.teams = new TeamService(platform);
  }

  // ------------------------------------------------------------------------------------------ tokens

  /** A new token for the company; its value is answered once and never stored. */
  async createToken(
    companyId: number,
    createdBy: number,
    input: { name: string; roleIds: number[]; signIn: 'password' | 'sso' },
    ctx: CommandContext,
  ): Promise<{ token: string; view: ScimTokenView }> {
    const token = `${SCIM_TOKEN_PREFIX}${randomToken(32)}`;
    const tokenId = randomUUID();
    const command = { type: 'CreateScimToken', tokenId, companyId, name: input.name, tokenHash: hashToken(token), prefix: token.slice(0, 13), createdBy, roleIds: input.roleIds, signIn: input.signIn } as const;
    await this.tokens.run(tokenId, command, ctx);
    return { token, view: (await findScimToken(this.platform.db, companyId, tokenId))! };
  }

  /** Revokes a token of the company (404 for another's); requests with it are refused from the answer on. */
  async revokeToken(companyId: number, tokenId: string, revokedBy: number, ctx: CommandContext): Promise<void> {
    await this.tokens.run(tokenId, { type: 'RevokeScimToken', companyId, revokedBy }, ctx);
  }

  /** The caller of `Authorization: Bearer scim_...`, or 401 in SCIM's shape. */
  async verify(authorization: string | undefined): Promise<ScimCaller> {
    const m = /^Bearer\s+(scim_[A-Za-z0-9_-]{20,100})\s*$/i.exec(authorization ?? '');
    const found = m ? await activeScimToken(this.platform.db, hashToken(m[1]!)) : null;
    if (!found) throw new ScimError(401, 'A valid SCIM token is required (Authorization: Bearer scim_...)');
    if (await this.held({ credentialId: found.tokenId, userId: found.createdBy, signIn: found.signIn })) throw credentialNeedsApproval();
    return found;
  }

  /** Whether the token waits for an administrator's approval. */
  needsApproval(token: ScimTokenView): Promise<boolean> {
    return this.held({ credentialId: token.id, userId: token.createdBy, signIn: token.signIn });
  }

  /** Records an administrator's approval of a token single sign-on holds. */
  async approveToken(token: ScimTokenView, approvedBy: number, ctx: CommandContext): Promise<void> {
    await this.approveCredential({ credentialId: token.id, kind: 'scim-token', userId: token.createdBy }, approvedBy, ctx);
  }

  // ------------------------------------------------------------------------------------------- users

  async userOr404(caller: ScimCaller, id: string): Promise<UserView> {
    const userId = Number(id);
    const user = Number.isSafeInteger(userId) && userId > 0 ? await getUser(this.platform.db, caller.companyId, userId) : null;
    if (!user) throw new ScimError(404, `User ${id} not found`);
    return user;
  }

  /** Users of the company, filtered by `userName`/`emails.value` (one at most) or paged. */
  async listUsers(caller: ScimCaller, filter: EqFilter | null, startIndex: number, count: number, base: string) {
    if (filter) {
      const user = EMAIL.test(filter.value) ? await getUserByEmail(this.platform.db, caller.companyId, filter.value) : null;
      const hits = user && startIndex === 1 && count > 0 ? [userResource(user, base)] : [];
      return listResponse(hits, user ? 1 : 0, startIndex);
    }
    const offset = startIndex - 1;
    // Directories page by whole pages (startIndex = 1 + k·count); another start reads from the page before.
    const aligned = count > 0 && offset % count === 0;
    const size = aligned ? count : Math.min(offset + count, 10_000);
    const page = await listUsers(this.platform.db, caller.companyId, { sortBy: 'id', sortDir: 'asc', page: aligned ? offset / count : 0, size: Math.max(size, 1) });
    const rows = aligned ? page.content : page.content.slice(offset);
    return listResponse(rows.slice(0, count).map((u) => userResource(u, base)), page.totalElements, startIndex);
  }

  /**
   * Creates a user of the company (409 `uniqueness` when the address is taken); `active: false` creates
   * them deactivated. Only at addresses of the company's verified domains: any other is 403
   * DOMAIN_NOT_OWNED before anything is looked up, so the answer never tells whether it has an account elsewhere.
   */
  async createUser(caller: ScimCaller, person: PersonInput, ctx: CommandContext): Promise<UserView> {
    const email = this.email(person.email);
    await requireOwnAddress(this.platform.db, caller.companyId, email);
    if (await getUserByEmail(this.platform.db, caller.companyId, email)) throw new ScimError(409, `A user with userName ${email} exists`, 'uniqueness');
    const created = { status: 'active', origin: 'scim', companyId: caller.companyId, email, name: person.name ?? email.split('@')[0]!, roleIds: caller.roleIds } as const;
    const { userId } = await this.unique(() => registerUser(this.platform, created, ctx));
    const user = await this.userOr404(caller, String(userId));
    const extra = { title: person.title ?? undefined, phone: person.phone ?? undefined };
    const changed = extra.title !== undefined || extra.phone !== undefined;
    if (changed) await updateUser(this.platform, ctx, user, extra);
    if (person.active === false) await setUserStatus(this.platform, this.revocations, ctx, user, 'deactivated');
    return changed || person.active === false ? this.userOr404(caller, String(userId)) : user;
  }

  /** Applies what a PUT or PATCH says of a user: name, title, phone, active. The address cannot change (400 `mutability`). */
  async changeUser(caller: ScimCaller, user: UserView, person: PersonInput, ctx: CommandContext): Promise<UserView> {
    if (person.email !== undefined && person.email.toLowerCase() !== user.email.toLowerCase()) {
      throw new ScimError(400, 'userName is the sign-in address and cannot be changed through SCIM', 'mutability');
    }
    const changes = { name: person.name, title: person.title, phone: person.phone };
    if (Object.values(changes).some((v) => v !== undefined)) await updateUser(this.platform, ctx, user, changes);
    const active = user.status !== 'deactivated';
    if (person.active !== undefined && person.active !== active) {
      if (user.status === 'passive') throw new ScimError(400, 'The user has not accepted their invitation yet', 'mutability');
      await setUserStatus(this.platform, this.revocations, ctx, user, person.active ? 'active' : 'deactivated');
    }
    return this.userOr404(caller, String(user.id));
  }

  async deleteUser(user: UserView, ctx: CommandContext): Promise<void> {
    await deleteUser(this.platform, this.revocations, ctx, user);
  }

  // ------------------------------------------------------------------------------------------ groups

  async groupOr404(caller: ScimCaller, id: string): Promise<TeamView> {
    const teamId = Number(id);
    if (!Number.isSafeInteger(teamId) || teamId <= 0) throw new ScimError(404, `Group ${id} not found`);
    return this.teams.teamOr404(caller.companyId, teamId).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? new ScimError(404, `Group ${id} not found`) : err;
    });
  }

  /** Teams of the company as groups, filtered by `displayName` or paged. */
  async listGroups(caller: ScimCaller, filter: EqFilter | null, startIndex: number, count: number, base: string) {
    let teams = await listTeams(this.platform.db, caller.companyId);
    if (filter) teams = teams.filter((t) => t.name.toLowerCase() === filter.value.toLowerCase());
    return listResponse(teams.slice(startIndex - 1, startIndex - 1 + count).map((t) => groupResource(t, base)), teams.length, startIndex);
  }

  /** Creates a team with its members (users of the company: another's id is 400 `invalidValue`, nothing created). */
  async createGroup(caller: ScimCaller, name: string, members: number[], ctx: CommandContext): Promise<TeamView> {
    await this.members(caller, members);
    const team = await this.unique(() => this.teams.create(caller.companyId, { name, description: '' }, ctx));
    return members.length > 0 ? this.teams.changeMembers(team, caller.companyId, { add: members }, ctx) : team;
  }

  /** Renames a team and sets, adds or removes its members. */
  async changeGroup(caller: ScimCaller, team: TeamView, change: ReturnType<typeof groupPatch>, ctx: CommandContext): Promise<TeamView> {
    await this.members(caller, [...change.add, ...(change.replace ?? [])]);
    if (change.name !== undefined && change.name !== team.name) team = await this.unique(() => this.teams.update(team, caller.companyId, { name: change.name }, ctx));
    const target = new Set(change.replace ?? team.memberIds);
    for (const id of change.add) target.add(id);
    for (const id of change.remove) target.delete(id);
    const add = [...target].filter((id) => !team.memberIds.includes(id));
    const remove = team.memberIds.filter((id) => !target.has(id));
    return add.length + remove.length > 0 ? this.teams.changeMembers(team, caller.companyId, { add, remove }, ctx) : team;
  }

  async deleteGroup(caller: ScimCaller, team: TeamView, ctx: CommandContext): Promise<void> {
    await this.teams.delete(team, caller.companyId, ctx);
  }

  // ----------------------------------------------------------------------------------------- helpers

  private email(value: string | undefined): string {
    if (!value || !EMAIL.test(value)) throw new ScimError(400, 'userName (or a primary e-mail) must be an e-mail address', 'invalidValue');
    return value.toLowerCase();
  }

  /** Every id is a user of the company, or 400 before anything changes. */
  private async members(caller: ScimCaller, ids: number[]): Promise<void> {
    for (const id of new Set(ids)) {
      if (!(await getUser(this.platform.db, caller.companyId, id))) throw new ScimError(400, `Member ${id} is not a user of this directory`, 'invalidValue');
    }
  }

  /** A name or address another holds answers 409 `uniqueness`, as SCIM clients expect. */
  private async unique<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof AppError && (err.code === 'NAME_TAKEN' || err.statusCode === 409)) throw new ScimError(409, err.message, 'uniqueness');
      throw err;
    }
  }
}
