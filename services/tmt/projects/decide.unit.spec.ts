import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { projectDecider, projectKeyDecider } from './decide.js';

const spec = deciderSpec(projectDecider);
const keys = deciderSpec(projectKeyDecider);
const created = { projectId: 'p-1', companyId: 1, workspaceId: 2, name: 'Web', key: 'WEB', description: '' };
const Created = { type: 'ProjectCreated' as const, payload: created };
const Deleted = { type: 'ProjectDeleted' as const, payload: { projectId: 'p-1' } };

describe('project decider', () => {
  it('creates a project once', () => {
    spec.given([]).when({ type: 'CreateProject', ...created }).then([Created]);
    spec.given([Created]).when({ type: 'CreateProject', ...created }).thenRefused('ALREADY_EXISTS');
  });

  it('records only the fields that change', () => {
    spec.given([Created]).when({ type: 'UpdateProject', changes: { name: 'Web 2', key: 'WEB' } }).then([{ type: 'ProjectUpdated', payload: { projectId: 'p-1', changes: { name: 'Web 2' } } }]);
    spec.given([Created]).when({ type: 'UpdateProject', changes: { name: 'Web', description: '' } }).then([]);
  });

  it('deletes once; a missing or deleted project is not found', () => {
    spec.given([Created]).when({ type: 'DeleteProject' }).then([Deleted]);
    spec.given([Created, Deleted]).when({ type: 'DeleteProject' }).thenRefused('NOT_FOUND');
    spec.given([Created, Deleted]).when({ type: 'UpdateProject', changes: { name: 'x' } }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'UpdateProject', changes: { name: 'x' } }).thenRefused('NOT_FOUND');
  });
});

describe('project key decider', () => {
  const claim = { companyId: 1, key: 'WEB', projectId: 'p-1' };
  const Claimed = { type: 'ProjectKeyClaimed' as const, payload: claim };
  const Released = { type: 'ProjectKeyReleased' as const, payload: claim };

  it('a key is held by one project at a time', () => {
    keys.given([]).when({ type: 'ClaimProjectKey', ...claim }).then([Claimed]);
    keys.given([Claimed]).when({ type: 'ClaimProjectKey', ...claim }).then([]);
    keys.given([Claimed]).when({ type: 'ClaimProjectKey', ...claim, projectId: 'p-2' }).thenRefused('PROJECT_KEY_TAKEN');
  });

  it('only the holder releases it, and a released key can be claimed again', () => {
    keys.given([Claimed]).when({ type: 'ReleaseProjectKey', ...claim, projectId: 'p-2' }).then([]);
    keys.given([Claimed]).when({ type: 'ReleaseProjectKey', ...claim }).then([Released]);
    keys.given([Claimed, Released]).when({ type: 'ClaimProjectKey', ...claim, projectId: 'p-2' }).then([{ type: 'ProjectKeyClaimed', payload: { ...claim, projectId: 'p-2' } }]);
  });
});
