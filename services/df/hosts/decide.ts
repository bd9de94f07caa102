import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { HostEvent } from '#events/df/hosts.js';
import { sameJson } from '#shared/canonical.js';

export interface HostState {
  hostId: string | null;
  name: string;
  companyId: number | null;
  workspaceIds: number[] | null;
  tokenHash: string | null;
  revoked: boolean;
  /** Whether the host has ever connected (its first accepted hello is recorded). */
  connected: boolean;
}

type Enrolled = Extract<HostEvent, { type: 'HostEnrolled' }>['payload'];

export type HostCommand =
  | ({ type: 'EnrolHost' } & Enrolled)
  | { type: 'RenameHost'; hostId: string; name: string }
  | { type: 'RescopeHost'; hostId: string; workspaceIds: number[] | null }
  | { type: 'RotateHostToken'; hostId: string; tokenHash: string; tokenPrefix: string }
  | { type: 'RevokeHost'; hostId: string; reason: string }
  /** An accepted hello: the first one is recorded, later ones change nothing. */
  | { type: 'RecordFirstConnection'; hostId: string; nodeName: string };

const same = (a: number[] | null, b: number[] | null) => sameJson(a, b);

/** A live enrolment, or 404; a revoked host can no longer be changed (409). */
function live(state: HostState): HostState & { hostId: string } {
  if (state.hostId === null) throw new AppError('NOT_FOUND', 'Host not found');
  if (state.revoked) throw new AppError('HOST_REVOKED', 'The host is revoked; enrol it again');
  return state as HostState & { hostId: string };
}

/** One host enrolment: enrolled once, renamed, re-scoped, its token rotated, revoked at most once. */
export const hostDecider = defineDecider<HostCommand, HostEvent, HostState>({
  initialState: () => ({ hostId: null, name: '', companyId: null, workspaceIds: null, tokenHash: null, revoked: false, connected: false }),
  evolve: {
    HostEnrolled: (s, e) => ({ ...s, hostId: e.payload.hostId, name: e.payload.name, companyId: e.payload.companyId, workspaceIds: e.payload.workspaceIds, tokenHash: e.payload.tokenHash }),
    HostRenamed: (s, e) => ({ ...s, name: e.payload.name }),
    HostRescoped: (s, e) => ({ ...s, workspaceIds: e.payload.workspaceIds }),
    HostTokenRotated: (s, e) => ({ ...s, tokenHash: e.payload.tokenHash }),
    HostRevoked: (s) => ({ ...s, revoked: true }),
    HostFirstConnected: (s) => ({ ...s, connected: true }),
  },
  decide: {
    EnrolHost: (command, state) => [firstEvent(state.hostId, 'Host', 'HostEnrolled', command)],
    RenameHost: (command, state) => (live(state).name === command.name ? [] : [{ type: 'HostRenamed', payload: { hostId: command.hostId, name: command.name } }]),
    RescopeHost: (command, state) =>
      same(live(state).workspaceIds, command.workspaceIds) ? [] : [{ type: 'HostRescoped', payload: { hostId: command.hostId, workspaceIds: command.workspaceIds } }],
    RotateHostToken: (command, state) => {
      live(state);
      const { type: _type, ...payload } = command;
      return [{ type: 'HostTokenRotated', payload }];
    },
    RevokeHost: (command, state) => {
      if (state.hostId === null) throw new AppError('NOT_FOUND', 'Host not found');
      return state.revoked ? [] : [{ type: 'HostRevoked', payload: { hostId: command.hostId, reason: command.reason } }];
    },
    RecordFirstConnection: (command, state) =>
      state.hostId === null || state.revoked || state.connected ? [] : [{ type: 'HostFirstConnected', payload: { hostId: command.hostId, nodeName: command.nodeName } }],
  },
});
