import { randomUUID, timingSafeEqual } from 'node:crypto';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { fold, handleCommand, type CommandContext } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { hostIdOfToken, hostToken, hostTokenPrefix } from '#shared/wire/index.js';
import { hostStream } from '#events/df/hosts.js';
import { hostDecider, type HostCommand, type HostState } from './decide.js';

/** Where a host's devices belong: one company (and some or all of its workspaces), or the shared pool. */
export interface HostScope {
  companyId: number | null;
  workspaceIds: number[] | null;
}

/** Why a hello is refused; the agent logs the code and the message. */
export type HostRefusal = 'HOST_TOKEN_MISSING' | 'HOST_TOKEN_INVALID' | 'HOST_REVOKED';

/** `firstConnection`: an enrolled host that has never connected before (the registry records it). */
export type HostVerdict = ({ ok: true; firstConnection: boolean } & HostScope) | { ok: false; code: HostRefusal; message: string };

const equalHashes = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Host enrolments: the only way a host's devices enter a company. Enrolling answers the token once;
 * a hello is accepted only with the token of a live enrolment whose id it announces itself as, or, when
 * the operator configured a shared pool, with the pool's token.
 */
export class HostEnrolments {
  constructor(private readonly deps: { store: EventStore; sharedPoolToken?: string | undefined }) {}

  private run(command: HostCommand, context: CommandContext) {
    return handleCommand({ store: this.deps.store, streamId: hostStream(command.hostId), decider: hostDecider, command, context });
  }

  private static issue(hostId: string) {
    const token = hostToken(hostId, randomToken());
    return { token, tokenHash: hashToken(token), tokenPrefix: hostTokenPrefix(hostId) };
  }

  /** Enrols a host into a company; its token is in the answer and nowhere else. */
  async enrol(input: { hostId?: string; name: string; companyId: number; workspaceIds: number[] | null }, context: CommandContext) {
    const hostId = input.hostId ?? randomUUID();
    const { token, tokenHash, tokenPrefix } = HostEnrolments.issue(hostId);
    const result = await this.run({ type: 'EnrolHost', hostId, name: input.name, companyId: input.companyId, workspaceIds: input.workspaceIds, tokenHash, tokenPrefix }, context);
    return { hostId, token, position: result.position };
  }

  /** A new token for the host; the old one stops working at once. */
  async rotate(hostId: string, context: CommandContext) {
    const { token, tokenHash, tokenPrefix } = HostEnrolments.issue(hostId);
    const result = await this.run({ type: 'RotateHostToken', hostId, tokenHash, tokenPrefix }, context);
    return { token, position: result.position };
  }

  rename(hostId: string, name: string, context: CommandContext) {
    return this.run({ type: 'RenameHost', hostId, name }, context);
  }

  rescope(hostId: string, workspaceIds: number[] | null, context: CommandContext) {
    return this.run({ type: 'RescopeHost', hostId, workspaceIds }, context);
  }

  revoke(hostId: string, reason: string, context: CommandContext) {
    return this.run({ type: 'RevokeHost', hostId, reason }, context);
  }

  /** Records the host's first accepted hello (nothing when it connected before). */
  firstConnection(hostId: string, nodeName: string, context: CommandContext) {
    return this.run({ type: 'RecordFirstConnection', hostId, nodeName }, context);
  }

  /** The enrolment as its own stream has it (never a lagging read model: this decides who may connect). */
  async state(hostId: string): Promise<HostState> {
    return fold(hostDecider, await this.deps.store.readStream(hostStream(hostId)));
  }

  /** Where a connected host's devices belong now; `null` when it may no longer connect (revoked, or no pool). */
  async scopeOf(hostId: string): Promise<HostScope | null> {
    const state = await this.state(hostId);
    if (state.hostId !== null) return state.revoked ? null : { companyId: state.companyId, workspaceIds: state.workspaceIds };
    return this.deps.sharedPoolToken ? { companyId: null, workspaceIds: null } : null;
  }

  /** Whether a host announcing itself as `hostId` with `token` may connect, and where its devices belong. */
  async verify(hostId: string, token: string | undefined): Promise<HostVerdict> {
    if (!token) return { ok: false, code: 'HOST_TOKEN_MISSING', message: 'The host has no token: enrol it (POST /df/api/hosts) and put the token in its config (hostToken)' };
    const invalid: HostVerdict = { ok: false, code: 'HOST_TOKEN_INVALID', message: 'The host token is not valid for this host; enrol the host again or check its config' };
    const enrolled = hostIdOfToken(token);
    if (enrolled !== null) {
      if (enrolled !== hostId) return invalid;
      const state = await this.state(hostId);
      if (state.hostId === null || state.tokenHash === null) return invalid;
      if (state.revoked) return { ok: false, code: 'HOST_REVOKED', message: 'This host was revoked by an administrator; enrol it again to bring it back' };
      if (!equalHashes(hashToken(token), state.tokenHash)) return invalid;
      return { ok: true, companyId: state.companyId, workspaceIds: state.workspaceIds, firstConnection: !state.connected };
    }
    const pool = this.deps.sharedPoolToken;
    if (pool && equalHashes(hashToken(token), hashToken(pool))) {
      // A pool host may not take the identity of an enrolled one.
      if ((await this.state(hostId)).hostId !== null) return invalid;
      return { ok: true, companyId: null, workspaceIds: null, firstConnection: false };
    }
    return invalid;
  }
}
