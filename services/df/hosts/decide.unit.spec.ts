import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { hostDecider } from './decide.js';

describe('host decider', () => {
  const spec = deciderSpec(hostDecider);
  const enrolment = { hostId: 'h1', name: 'rack-1', companyId: 2, workspaceIds: [5], tokenHash: 'hash-1', tokenPrefix: 'dfh_ab' };
  const enrolled = { type: 'HostEnrolled' as const, payload: enrolment };
  const revoked = { type: 'HostRevoked' as const, payload: { hostId: 'h1', reason: 'retired' } };

  it('enrols a host once; enrolling it again is refused, revoked or not', () => {
    spec.given([]).when({ type: 'EnrolHost', ...enrolment }).then([enrolled]);
    spec.given([enrolled]).when({ type: 'EnrolHost', ...enrolment }).thenRefused('ALREADY_EXISTS');
    spec.given([enrolled, revoked]).when({ type: 'EnrolHost', ...enrolment }).thenRefused('ALREADY_EXISTS');
  });

  it('renames a host, and records nothing for its current name', () => {
    spec.given([enrolled]).when({ type: 'RenameHost', hostId: 'h1', name: 'rack-2' }).then([{ type: 'HostRenamed', payload: { hostId: 'h1', name: 'rack-2' } }]);
    spec.given([enrolled]).when({ type: 'RenameHost', hostId: 'h1', name: 'rack-1' }).then([]);
    spec.given([enrolled, { type: 'HostRenamed', payload: { hostId: 'h1', name: 'rack-2' } }]).when({ type: 'RenameHost', hostId: 'h1', name: 'rack-2' }).then([]);
  });

  it('re-scopes a host to other workspaces or to every workspace of its company, and records nothing for the same scope', () => {
    spec.given([enrolled]).when({ type: 'RescopeHost', hostId: 'h1', workspaceIds: [5, 6] }).then([{ type: 'HostRescoped', payload: { hostId: 'h1', workspaceIds: [5, 6] } }]);
    spec.given([enrolled]).when({ type: 'RescopeHost', hostId: 'h1', workspaceIds: null }).then([{ type: 'HostRescoped', payload: { hostId: 'h1', workspaceIds: null } }]);
    spec.given([enrolled]).when({ type: 'RescopeHost', hostId: 'h1', workspaceIds: [5] }).then([]);
    spec.given([enrolled, { type: 'HostRescoped', payload: { hostId: 'h1', workspaceIds: null } }]).when({ type: 'RescopeHost', hostId: 'h1', workspaceIds: null }).then([]);
  });

  it('rotates the token every time it is asked', () => {
    const rotated = { type: 'HostTokenRotated' as const, payload: { hostId: 'h1', tokenHash: 'hash-2', tokenPrefix: 'dfh_cd' } };
    spec.given([enrolled]).when({ type: 'RotateHostToken', hostId: 'h1', tokenHash: 'hash-2', tokenPrefix: 'dfh_cd' }).then([rotated]);
    spec.given([enrolled, rotated]).when({ type: 'RotateHostToken', hostId: 'h1', tokenHash: 'hash-3', tokenPrefix: 'dfh_ef' }).then([
      { type: 'HostTokenRotated', payload: { hostId: 'h1', tokenHash: 'hash-3', tokenPrefix: 'dfh_ef' } },
    ]);
  });

  it('revokes a host once: revoking it again changes nothing', () => {
    spec.given([enrolled]).when({ type: 'RevokeHost', hostId: 'h1', reason: 'retired' }).then([revoked]);
    spec.given([enrolled, revoked]).when({ type: 'RevokeHost', hostId: 'h1', reason: 'again' }).then([]);
  });

  it('refuses to rename, re-scope or rotate a revoked host', () => {
    spec.given([enrolled, revoked]).when({ type: 'RenameHost', hostId: 'h1', name: 'rack-2' }).thenRefused('HOST_REVOKED');
    spec.given([enrolled, revoked]).when({ type: 'RescopeHost', hostId: 'h1', workspaceIds: null }).thenRefused('HOST_REVOKED');
    spec.given([enrolled, revoked]).when({ type: 'RotateHostToken', hostId: 'h1', tokenHash: 'hash-2', tokenPrefix: 'dfh_cd' }).thenRefused('HOST_REVOKED');
  });

  it('records the first connection once, and none for a revoked or unknown host', () => {
    const first = { type: 'HostFirstConnected' as const, payload: { hostId: 'h1', nodeName: 'node-a' } };
    const record = { type: 'RecordFirstConnection' as const, hostId: 'h1', nodeName: 'node-a' };
    spec.given([enrolled]).when(record).then([first]);
    spec.given([enrolled, first]).when({ ...record, nodeName: 'node-b' }).then([]);
    spec.given([enrolled, revoked]).when(record).then([]);
    spec.given([]).when(record).then([]);
  });

  it('finds no host that was never enrolled', () => {
    spec.given([]).when({ type: 'RenameHost', hostId: 'h1', name: 'rack-2' }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'RescopeHost', hostId: 'h1', workspaceIds: null }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'RotateHostToken', hostId: 'h1', tokenHash: 'hash-2', tokenPrefix: 'dfh_cd' }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'RevokeHost', hostId: 'h1', reason: 'retired' }).thenRefused('NOT_FOUND');
  });
});
