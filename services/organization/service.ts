import type { FastifyRequest } from 'fastify';
import { handleCommand, type CommandActor, type CommandContext, type CommandResult, type Decider, type DomainEvent } from '#shared/es/decider.js';
import { renameClaimed } from '#shared/es/name-claim-decider.js';
import type { Platform } from '../platform.js';
import { nameClaimDecider, nameClaimStream, type NameScope } from './claims/index.js';

/** The read models the organization's own answers are read from after a write. */
export const ORG_READ_MODELS = ['org-directory'] as const;

/**
 * Who a request's commands act for: the signed-in principal (or `actor`'s ids, when given) in their
 * company and active workspace. `commandContext(platform, requestActor(request))` adds the time and the
 * request's id as the correlation id.
 */
export function requestActor(request: FastifyRequest, actor: { userId?: number | null; companyId?: number | null } = {}): CommandActor {
  const p = request.principal ?? null;
  return {
    actorId: actor.userId !== undefined ? actor.userId : (p?.userId ?? null),
    companyId: actor.companyId !== undefined ? actor.companyId : (p?.companyId ?? null),
    workspaceId: request.workspace?.id ?? null,
  };
}

/**
 * How the organization's routes write: `handleCommand` on a decider with a command's context
 * (`requestActor`), name claims, and read-your-writes before answering from a projection.
 */
export class OrgWriter {
  /** `readModels`: what `settle` waits for (the organization's directory unless told). */
  constructor(
    private readonly platform: Platform,
    private readonly readModels: readonly string[] = ORG_READ_MODELS,
  ) {}

  /** Runs one command on one stream. */
  run<C, E extends DomainEvent, S>(streamId: string, decider: Decider<C, E, S>, command: C, context: CommandContext): Promise<CommandResult<E, S>> {
    return handleCommand({ store: this.platform.store, streamId, decider, command, context });
  }

  /** Holds `name` in `scope` for `ownerId`; 409 NAME_TAKEN when another holds it. */
  async claimName(scope: NameScope, name: string, ownerId: number, what: string, context: CommandContext): Promise<void> {
    await this.run(nameClaimStream(scope, name), nameClaimDecider, { type: 'ClaimName', scope, name, ownerId, what }, context);
  }

  /** Frees `name` in `scope` if `ownerId` holds it. */
  async releaseName(scope: NameScope, name: string, ownerId: number, context: CommandContext): Promise<void> {
    await this.run(nameClaimStream(scope, name), nameClaimDecider, { type: 'ReleaseName', scope, name, ownerId }, context);
  }

  /**
   * A rename: claim the new name first (so a clash changes nothing), apply the change, then release
   * the old name. When the change itself fails, the new claim is given back.
   */
  renamed<T>(scope: NameScope, what: string, ownerId: number, oldName: string, newName: string | undefined, context: CommandContext, change: () => Promise<T>): Promise<T> {
    const names = { claim: (name: string) => this.claimName(scope, name, ownerId, what, context), release: (name: string) => this.releaseName(scope, name, ownerId, context) };
    return renameClaimed(names, oldName, newName, change);
  }

  /** Waits until the read models this writer answers from show these writes. */
  async settle(...results: ({ position: bigint | null } | null | undefined)[]): Promise<void> {
    let max: bigint | null = null;
    for (const r of results) if (r?.position != null && (max === null || r.position > max)) max = r.position;
    if (max !== null) await this.platform.readModels.waitFor(max, { names: this.readModels });
  }
}
