import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { mockServiceDecider } from './decide.js';
import { matchRoute, MockDefinitionInput, pathPatternProblem, pathSegments } from './definition.js';
import type { MockServiceEvent } from '#events/tmt/mock-services.js';

const spec = deciderSpec(mockServiceDecider);
const routes = [{ method: 'GET', path: '/users/:id', status: 200, headers: {}, body: { id: 1 }, delayMs: 0 }];
const createdPayload = { mockId: 'm-1', companyId: 1, workspaceId: 4, publicId: 'p', enabled: true, createdBy: 7, name: 'Users', module: 'api', routes };
const created: MockServiceEvent = { type: 'MockServiceCreated', payload: createdPayload };
const tenant = { companyId: 1, workspaceId: 4 };

describe('mock service decider', () => {
  it('creates once', () => {
    spec.given([]).when({ type: 'CreateMockService', ...createdPayload }).then([created]);
    spec.given([created]).when({ type: 'CreateMockService', ...createdPayload }).thenRefused('ALREADY_EXISTS');
  });

  it('redefines only when the definition changes', () => {
    spec.given([created]).when({ type: 'RedefineMockService', ...tenant, name: 'Users', module: 'api', routes }).then([]);
    spec
      .given([created])
      .when({ type: 'RedefineMockService', ...tenant, name: 'Users', module: 'v2', routes })
      .then([{ type: 'MockServiceRedefined', payload: { mockId: 'm-1', name: 'Users', module: 'v2', routes } }]);
  });

  it('switches off and on, each only when it changes something', () => {
    const disabled: MockServiceEvent = { type: 'MockServiceDisabled', payload: { mockId: 'm-1' } };
    spec.given([created]).when({ type: 'EnableMockService', ...tenant }).then([]);
    spec.given([created]).when({ type: 'DisableMockService', ...tenant }).then([disabled]);
    spec.given([created, disabled]).when({ type: 'DisableMockService', ...tenant }).then([]);
    spec.given([created, disabled]).when({ type: 'EnableMockService', ...tenant }).then([{ type: 'MockServiceEnabled', payload: { mockId: 'm-1' } }]);
  });

  it("is not found in another workspace or company, and after deletion", () => {
    const deleted: MockServiceEvent = { type: 'MockServiceDeleted', payload: { mockId: 'm-1', name: 'Users' } };
    spec.given([created]).when({ type: 'DeleteMockService', companyId: 1, workspaceId: 5 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'EnableMockService', companyId: 2, workspaceId: 4 }).thenRefused('NOT_FOUND');
    spec.given([created]).when({ type: 'DeleteMockService', ...tenant }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'RedefineMockService', ...tenant, name: 'x', module: 'api', routes }).thenRefused('NOT_FOUND');
  });
});

describe('mock definitions', () => {
  it('accepts patterns of literals, parameters and a final "*", and refuses others', () => {
    for (const ok of ['*', '/', '/users', '/users/:id', '/users/:id/*', '/a.b/c-d~e']) expect(pathPatternProblem(ok)).toBeNull();
    for (const bad of ['users', '/a/*/b', '/:1x', '/a b', '/a?b']) expect(pathPatternProblem(bad)).not.toBeNull();
  });

  it('matches the first route by method and path; GET also answers HEAD; ANY answers everything', () => {
    const table = [
      { method: 'GET', path: '/users/:id', n: 1 },
      { method: 'POST', path: '/users', n: 2 },
      { method: 'ANY', path: '/files/*', n: 3 },
      { method: 'DELETE', path: '*', n: 4 },
    ];
    const n = (method: string, rest: string) => matchRoute(table, method, pathSegments(rest)!)?.n ?? null;
    expect(n('GET', '/users/7')).toBe(1);
    expect(n('HEAD', '/users/7')).toBe(1);
    expect(n('GET', '/users/7/')).toBe(1);
    expect(n('GET', '/users')).toBeNull();
    expect(n('GET', '/users/7/x')).toBeNull();
    expect(n('POST', '/users')).toBe(2);
    expect(n('PUT', '/files/a/b')).toBe(3);
    expect(n('PATCH', '/files')).toBe(3);
    expect(n('DELETE', '/anything/at/all')).toBe(4);
    expect(n('GET', '')).toBeNull();
    expect(pathSegments('/%E0%A4%A')).toBeNull();
  });

  it('refuses statuses outside 200–599, bad or forbidden header names, big bodies, long delays and unknown fields', () => {
    const base = { name: 'M', module: 'api' };
    const route = { method: 'get', path: '/', status: 200 };
    expect(MockDefinitionInput.safeParse({ ...base, routes: [route] }).data?.routes[0]).toEqual({ method: 'GET', path: '/', status: 200, headers: {}, delayMs: 0 });
    const accepted = (r: Record<string, unknown>, extra: Record<string, unknown> = {}) => MockDefinitionInput.safeParse({ ...base, ...extra, routes: [{ ...route, ...r }] }).success;
    expect(accepted({ status: 199 })).toBe(false);
    expect(accepted({ status: 600 })).toBe(false);
    expect(accepted({ headers: { 'bad name': 'x' } })).toBe(false);
    expect(accepted({ headers: { 'Set-Cookie': 'a=b' } })).toBe(false);
    expect(accepted({ headers: { 'X-A': 'a\r\nb' } })).toBe(false);
    expect(accepted({ headers: { 'x-a': '1', 'X-A': '2' } })).toBe(false);
    expect(accepted({ body: 'x'.repeat(64 * 1024 + 1) })).toBe(false);
    expect(accepted({ status: 204, body: 'x' })).toBe(false);
    expect(accepted({ delayMs: 10_001 })).toBe(false);
    expect(accepted({ method: 'FETCH' })).toBe(false);
    expect(accepted({ extra: 1 })).toBe(false);
    expect(accepted({}, { module: 'download' })).toBe(false);
    expect(accepted({}, { module: 'a/b' })).toBe(false);
    expect(accepted({ headers: { 'X-Trace': 'ok' }, body: { a: [1] }, delayMs: 10_000, method: '*' })).toBe(true);
  });
});
