import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import type { SharingEvent } from '#events/df/sharing.js';
import { accessOf, sharingDecider } from './decide.js';

const spec = deciderSpec(sharingDecider);
const sessionId = 's-1';
const base = { sessionId, tokenHash: 'h', companyId: 1, workspaceId: 1, createdBy: 7, email: null };
const link = { ...base, invitationId: 'l-1', type: 'link' as const, access: 'control' as const, userId: null, expiresAt: '2026-01-02T00:00:00.000Z', maxUses: 2 };
const forUser = { ...base, invitationId: 'u-1', type: 'user' as const, access: 'view' as const, userId: 9, email: 'nine@x.test', expiresAt: '2026-01-08T00:00:00.000Z', maxUses: null };
const linkCreated: SharingEvent = { type: 'DeviceSessionInvitationCreated', payload: link };
const userCreated: SharingEvent = { type: 'DeviceSessionInvitationCreated', payload: forUser };
const before = '2026-01-01T12:00:00.000Z';
const accepted = (invitationId: string, userId: number, access: 'view' | 'control', uses: number): SharingEvent => ({
  type: 'DeviceSessionInvitationAccepted',
  payload: { sessionId, invitationId, userId, access, uses },
});
const accept = (invitationId: string, userId: number, at = before) => ({ type: 'AcceptInvitation' as const, sessionId, invitationId, userId, at });
const disconnected: SharingEvent = { type: 'DeviceSessionViewerDisconnected', payload: { sessionId, userId: 9 } };
const revoked = (invitationId: string): SharingEvent => ({ type: 'DeviceSessionInvitationRevoked', payload: { sessionId, invitationId } });

describe('session sharing decider', () => {
  it('creates an invitation once', () => {
    spec.given([]).when({ type: 'CreateInvitation', invitation: link }).then([linkCreated]);
    spec.given([linkCreated]).when({ type: 'CreateInvitation', invitation: link }).thenRefused('ALREADY_EXISTS');
  });

  it('lets a link be accepted until maxUses users have; the same user again counts once', () => {
    spec.given([linkCreated]).when(accept('l-1', 3)).then([accepted('l-1', 3, 'control', 1)]);
    spec.given([linkCreated, accepted('l-1', 3, 'control', 1)]).when(accept('l-1', 3)).then([]);
    spec.given([linkCreated, accepted('l-1', 3, 'control', 1)]).when(accept('l-1', 4)).then([accepted('l-1', 4, 'control', 2)]);
    spec.given([linkCreated, accepted('l-1', 3, 'control', 1), accepted('l-1', 4, 'control', 2)]).when(accept('l-1', 5)).thenRefused('INVITATION_EXHAUSTED');
  });

  it('refuses an expired, revoked or unknown invitation', () => {
    spec.given([linkCreated]).when(accept('l-1', 3, '2026-01-02T00:00:00.000Z')).thenRefused('INVITATION_EXPIRED');
    spec.given([linkCreated, revoked('l-1')]).when(accept('l-1', 3)).thenRefused('INVITATION_REVOKED');
    spec.given([linkCreated]).when(accept('nope', 3)).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'RevokeInvitation', sessionId, invitationId: 'nope' }).thenRefused('NOT_FOUND');
    spec.given([linkCreated, revoked('l-1')]).when({ type: 'RevokeInvitation', sessionId, invitationId: 'l-1' }).then([]);
  });

  it('lets only the named user accept a user invitation', () => {
    spec.given([userCreated]).when(accept('u-1', 10)).thenRefused('NOT_FOUND');
    spec.given([userCreated]).when(accept('u-1', 9)).then([accepted('u-1', 9, 'view', 1)]);
  });

  it('gives the strongest access of the invitations a user accepted, and revoking takes it away', () => {
    const state = [linkCreated, userCreated, accepted('u-1', 9, 'view', 1), accepted('l-1', 9, 'control', 1)].reduce(sharingDecider.evolve, sharingDecider.initialState());
    expect(accessOf(state, 9)).toBe('control');
    expect(accessOf(state, 3)).toBeNull();
    expect(accessOf(sharingDecider.evolve(state, revoked('l-1')), 9)).toBe('view');
  });

  it('withdraws every access of a disconnected viewer and refuses links to them, until a new user invitation names them', () => {
    const history = [linkCreated, userCreated, accepted('u-1', 9, 'view', 1), disconnected];
    const state = history.reduce(sharingDecider.evolve, sharingDecider.initialState());
    expect(accessOf(state, 9)).toBeNull();
    spec.given(history).when(accept('l-1', 9)).thenRefused('SESSION_ACCESS_WITHDRAWN');
    spec.given(history).when(accept('u-1', 9)).thenRefused('SESSION_ACCESS_WITHDRAWN');
    const again: SharingEvent = { type: 'DeviceSessionInvitationCreated', payload: { ...forUser, invitationId: 'u-2' } };
    spec.given([...history, again]).when(accept('u-2', 9)).then([accepted('u-2', 9, 'view', 1)]);
    spec.given([]).when({ type: 'DisconnectViewer', sessionId, userId: 9 }).then([disconnected]);
  });
});
