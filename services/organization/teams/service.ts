import { getTeam, type TeamView } from '#projections/org-directory/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { found } from '#shared/errors.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { OrgNames } from '../claims/index.js';
import { lastWrite, orgAggregate } from '../service.js';
import { teamStream } from '#events/organization/teams.js';
import { teamDecider } from './decide.js';

/**
 * The write side of teams, for the administration routes and SCIM groups alike: names unique per
 * company (claimed before the change, so a clash changes nothing), members of the team's company only
 * (checked by the callers against the directory), answers read after the directory shows the change.
 */
export class TeamService {
  private readonly names: OrgNames;
  private readonly teams;

  constructor(private readonly platform: Platform) {
    this.names = new OrgNames(platform);
    this.teams = orgAggregate(platform, teamDecider, teamStream);
  }

  private scope = (companyId: number) => `team-name:${companyId}` as const;

  /** The company's team, or 404 (also for another company's id). */
  async teamOr404(companyId: number, teamId: number): Promise<TeamView> {
    return found(await getTeam(this.platform.db, companyId, teamId), 'Team not found');
  }

  async create(companyId: number, input: { name: string; description: string }, ctx: CommandContext): Promise<TeamView> {
    const teamId = await allocateId(this.platform.db, 'team');
    await this.names.claim(this.scope(companyId), input.name, teamId, 'Team', ctx);
    await this.teams.run(teamId, { type: 'CreateTeam', teamId, companyId, ...input }, ctx);
    return this.teamOr404(companyId, teamId);
  }

  async update(team: TeamView, companyId: number, changes: { name?: string | undefined; description?: string | undefined }, ctx: CommandContext): Promise<TeamView> {
    const { name, description } = changes;
    const result = await this.names.renamed(this.scope(companyId), 'Team', team.id, team.name, name, ctx, () =>
      this.teams.run(
        team.id,
        { type: 'UpdateTeam', companyId, ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) },
        ctx,
        { settle: false },
      ),
    );
    await this.teams.settle(result);
    return this.teamOr404(companyId, team.id);
  }

  async delete(team: TeamView, companyId: number, ctx: CommandContext): Promise<void> {
    const result = await this.teams.run(team.id, { type: 'DeleteTeam', companyId }, ctx, { settle: false });
    await this.names.release(this.scope(companyId), team.name, team.id, ctx);
    await this.teams.settle(result);
  }

  /** Adds and removes members (users of the company, checked by the caller); answers the team as it now is. */
  async changeMembers(team: TeamView, companyId: number, change: { add?: number[]; remove?: number[] }, ctx: CommandContext): Promise<TeamView> {
    const results = [];
    for (const userId of change.add ?? []) results.push(await this.teams.run(team.id, { type: 'AddMember', companyId, userId }, ctx, { settle: false }));
    for (const userId of change.remove ?? []) results.push(await this.teams.run(team.id, { type: 'RemoveMember', companyId, userId }, ctx, { settle: false }));
    await this.teams.settle(lastWrite(...results));
    return this.teamOr404(companyId, team.id);
  }
}
