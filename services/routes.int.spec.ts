import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

// Route specs: validation and refusals of every module, through `app.inject` on one server with the
// embedded adapters (PGlite, in-process bus and key-value store). Each answer is checked for its
// status and its error `code` (and the field, for validation errors).

let server: TestServer;
let app: FastifyInstance;
let a: SignedUpCompany;
let b: SignedUpCompany;

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false' });
  app = server.process.app;
  a = await signUpCompany(server.url, 'routes-a');
  b = await signUpCompany(server.url, 'routes-b');
});

afterAll(async () => {
  await server?.stop();
});

type Caller = SignedUpCompany | null;
async function call(who: Caller, method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    headers: { ...(who ? { authorization: `Bearer ${who.token}`, 'x-workspace-id': String(who.workspaceId) } : {}), ...headers },
  });
  const body = res.body ? (JSON.parse(res.body) as Record<string, any>) : {};
  return { status: res.statusCode, body, code: (body.code ?? body.error?.code) as string | undefined, details: (body.details ?? body.error?.details) as { path: string }[] | undefined };
}

const refused = (res: Awaited<ReturnType<typeof call>>, status: number, code: string, field?: string) => {
  expect({ status: res.status, code: res.code }).toEqual({ status, code });
  if (field) expect(res.details?.map((d) => d.path)).toContain(field);
};

describe('organization routes', () => {
  it('refuses a call without a token, and a workspace the caller cannot enter', async () => {
    refused(await call(null, 'GET', '/api/v1/users/me'), 401, 'UNAUTHORIZED');
    refused(await call(a, 'GET', '/api/v1/roles', undefined, { 'x-workspace-id': String(b.workspaceId) }), 403, 'INVALID_WORKSPACE');
  });

  it('names the field of a bad body and of a bad path id', async () => {
    refused(await call(a, 'POST', '/api/v1/workspaces', { name: 'x' }), 400, 'VALIDATION_FAILED', 'name');
    refused(await call(a, 'POST', '/api/v1/users/invite', { email: 'not-an-address', roleIds: [] }), 400, 'VALIDATION_FAILED', 'email');
    refused(await call(a, 'GET', '/api/v1/users/abc'), 400, 'VALIDATION_FAILED', 'params.id');
  });

  it('answers 404 for another company’s user and workspace', async () => {
    refused(await call(a, 'GET', `/api/v1/users/${b.userId}`), 404, 'NOT_FOUND');
    refused(await call(a, 'GET', `/api/v1/workspaces/${b.workspaceId}`), 404, 'NOT_FOUND');
  });
});

describe('device-testing routes', () => {
  it('names the field of a bad session request and of a bad key name', async () => {
    refused(await call(a, 'POST', '/df/api/sessions', { name: 'no device' }), 400, 'VALIDATION_FAILED', 'deviceId');
    refused(await call(a, 'POST', '/df/api/keys', { name: '' }), 400, 'VALIDATION_FAILED', 'name');
  });

  it('answers 404 for an unknown device and for another company’s key', async () => {
    refused(await call(a, 'GET', '/df/api/devices/no-such-device'), 404, 'NOT_FOUND');
    const key = await call(b, 'POST', '/df/api/keys', { name: 'B key' });
    expect(key.status).toBe(201);
    refused(await call(a, 'GET', `/df/api/keys/${key.body.id}`), 404, 'NOT_FOUND');
    refused(await call(a, 'DELETE', `/df/api/keys/${key.body.id}`), 404, 'NOT_FOUND');
  });

  it('names the field of a bad invitation, and answers 404 for an unknown session or invitation token', async () => {
    const invitations = `/df/api/sessions/${randomUUID()}/invitations`;
    refused(await call(a, 'POST', invitations, { link: true, access: 'admin' }), 400, 'VALIDATION_FAILED', 'access');
    refused(await call(a, 'POST', invitations, { link: true, access: 'view', maxUses: 0 }), 400, 'VALIDATION_FAILED', 'maxUses');
    refused(await call(a, 'POST', invitations, { email: 'not-an-address', access: 'view' }), 400, 'VALIDATION_FAILED', 'email');
    refused(await call(a, 'POST', invitations, { link: true, access: 'view' }), 404, 'NOT_FOUND');
    refused(await call(a, 'GET', `${invitations}/links`), 404, 'NOT_FOUND');
    refused(await call(a, 'DELETE', `${invitations}/links/not a uuid`), 400, 'VALIDATION_FAILED', 'params.linkId');
    refused(await call(a, 'POST', '/df/api/session-invites/short/accept'), 400, 'VALIDATION_FAILED', 'params.token');
    refused(await call(a, 'POST', `/df/api/session-invites/dfs_${'x'.repeat(43)}/accept`), 404, 'NOT_FOUND');
    refused(await call(null, 'POST', `/df/api/session-invites/dfs_${'x'.repeat(43)}/accept`), 401, 'UNAUTHORIZED');
  });

  it('names the field of a bad automation test event, one or in a batch', async () => {
    const url = `/df/api/automation/sessions/${randomUUID()}/test-events`;
    refused(await call(a, 'POST', url, { type: 'test_failed' }), 400, 'VALIDATION_FAILED', 'name');
    refused(await call(a, 'POST', url, [{ type: 'test_started', name: 'ok' }, { type: 'no_such_event', name: 'x' }]), 400, 'VALIDATION_FAILED', '1.type');
  });

  it('names the field of a bad reservation range, and answers 404 for an unknown device or reservation', async () => {
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    refused(await call(a, 'POST', '/df/api/reservations', { deviceId: 'd-1', startAt: at(2), endAt: at(1) }), 400, 'VALIDATION_FAILED', 'endAt');
    refused(await call(a, 'POST', '/df/api/reservations', { deviceId: 'd-1', startAt: at(-3), endAt: at(-2) }), 400, 'VALIDATION_FAILED', 'startAt');
    refused(await call(a, 'POST', '/df/api/reservations', { deviceId: 'd-1', startAt: at(1), endAt: at(24 * 8) }), 400, 'VALIDATION_FAILED', 'endAt');
    refused(await call(a, 'POST', '/df/api/reservations', { deviceId: 'd-1', startAt: '2030-01-01T10:00:00', endAt: at(2) }), 400, 'VALIDATION_FAILED', 'startAt');
    refused(await call(a, 'PUT', `/df/api/reservations/${randomUUID()}`, { endAt: 'tomorrow' }), 400, 'VALIDATION_FAILED', 'endAt');
    refused(await call(a, 'GET', '/df/api/reservations?status=later'), 400, 'VALIDATION_FAILED', 'querystring.status.0');
    refused(await call(a, 'POST', '/df/api/reservations', { deviceId: 'no-such-device', startAt: at(1), endAt: at(2) }), 404, 'NOT_FOUND');
    refused(await call(a, 'GET', `/df/api/reservations/${randomUUID()}`), 404, 'NOT_FOUND');
    refused(await call(a, 'POST', `/df/api/reservations/${randomUUID()}/end`), 404, 'NOT_FOUND');
  });

  it('refuses an X-Api-Key that is not a key', async () => {
    refused(await call(null, 'GET', '/df/api/devices', undefined, { 'x-api-key': 'dfk_not-a-key' }), 401, 'UNAUTHORIZED');
  });

  it('names the field of a bad upload, and answers 404 for unknown files, apps, versions and operations', async () => {
    refused(await call(a, 'POST', '/df/api/files/presigned-upload', { name: '../etc/passwd', size: 10 }), 400, 'VALIDATION_FAILED', 'name');
    refused(await call(a, 'POST', '/df/api/files/presigned-upload', { name: 'a.bin', size: 0 }), 400, 'VALIDATION_FAILED', 'size');
    refused(await call(a, 'POST', '/df/api/files/presigned-upload', { name: 'a.bin', size: 10, sha256: 'abc' }), 400, 'VALIDATION_FAILED', 'sha256');
    refused(await call(a, 'POST', '/df/api/files/multipart/initiate', { name: 'a.bin', size: 10, partSize: 1024 }), 400, 'VALIDATION_FAILED', 'partSize');
    refused(await call(a, 'POST', '/df/api/files/multipart/initiate', { name: 'a.bin', size: 9e15, contentType: 'application/zip' }), 413, 'PAYLOAD_TOO_LARGE');
    refused(await call(a, 'POST', `/df/api/files/multipart/${randomUUID()}/complete`, { parts: [] }), 400, 'VALIDATION_FAILED', 'parts');
    refused(await call(a, 'GET', `/df/api/files/multipart/${randomUUID()}/part/0`), 400, 'VALIDATION_FAILED', 'params.partNumber');
    for (const path of [`/files/${randomUUID()}`, `/files/${randomUUID()}/download`, `/files/apps/${randomUUID()}/versions`, `/files/app-versions/${randomUUID()}`, `/operations/${randomUUID()}`]) {
      refused(await call(a, 'GET', `/df/api${path}`), 404, 'NOT_FOUND');
    }
    refused(await call(a, 'POST', `/df/api/sessions/${randomUUID()}/apps/install`, { versionId: 'v' }), 404, 'NOT_FOUND');
    refused(await call(null, 'GET', '/df/api/files'), 401, 'UNAUTHORIZED');
  });

  it('takes X-Api-Key on presigned-upload and confirm only without a bearer token, and never on the rest of /df/api/files', async () => {
    const created = await call(a, 'POST', '/df/api/keys', { name: 'uploads' });
    const key = { 'x-api-key': created.body.key as string };
    const started = await call(null, 'POST', '/df/api/files/presigned-upload', { name: 'ci.bin', size: 3 }, key);
    expect(started.status).toBe(201);
    const put = await app.inject({ method: 'PUT', url: new URL(started.body.url).pathname + new URL(started.body.url).search, payload: Buffer.from('abc'), headers: started.body.headers });
    expect(put.statusCode).toBe(200);
    expect((await call(null, 'POST', `/df/api/files/${started.body.fileId}/confirm`, undefined, key)).body).toMatchObject({ status: 'ready', size: 3 });
    refused(await call(null, 'GET', '/df/api/files', undefined, key), 401, 'UNAUTHORIZED');
    // With a bearer token the key is not a credential: the token (another company's here) governs.
    refused(await call(b, 'POST', `/df/api/files/${started.body.fileId}/confirm`, undefined, { 'x-api-key': created.body.key }), 404, 'NOT_FOUND');
  });

  it('refuses a signed blob URL that is unsigned, tampered or expired, with a clear code', async () => {
    refused(await call(null, 'GET', '/df/api/files/blobs/df/company-1/files/x'), 403, 'SIGNATURE_INVALID');
    refused(await call(null, 'GET', '/df/api/files/blobs/df/company-1/files/x?method=GET&expires=1&kid=k&signature=abc'), 403, 'SIGNATURE_INVALID');
    // A path that climbs out never reaches the store: encoded, it is no object; plain, it is no blob path at all.
    refused(await call(null, 'PUT', '/df/api/files/blobs/..%2F..%2Fetc%2Fpasswd?method=PUT&expires=99999999999&size=1&kid=k&signature=abc', 'x'), 403, 'SIGNATURE_INVALID');
    refused(await call(null, 'GET', '/df/api/files/blobs/../../etc/passwd?method=GET&expires=99999999999&kid=k&signature=abc'), 401, 'UNAUTHORIZED');
  });
});

describe('test-management routes', () => {
  it('answers the /v1 envelope with the field for a bad body, and 404 for an unknown or foreign project', async () => {
    refused(await call(a, 'POST', '/v1/projects', { key: 'AB' }), 400, 'VALIDATION_FAILED', 'name');
    const project = await call(b, 'POST', '/v1/projects', { name: 'B project', key: 'BPRJ' });
    expect(project.status).toBe(201);
    refused(await call(a, 'GET', `/v1/projects/${project.body.data.id}`), 404, 'NOT_FOUND');
    refused(await call(a, 'GET', `/v1/projects/${randomUUID()}`), 404, 'NOT_FOUND');
  });

  it('refuses a malformed test-case priority by name', async () => {
    refused(await call(a, 'POST', '/v1/test-cases', { projectId: randomUUID(), title: 't', priority: 'urgent' }), 400, 'VALIDATION_FAILED', 'priority');
  });
});

describe('health-check and test-engine routes', () => {
  it('names the field of a bad check and of a bad engine', async () => {
    refused(await call(a, 'POST', '/healthcheck/api/v1/checks', { name: 'c', intervalSeconds: -1 }), 400, 'VALIDATION_FAILED', 'intervalSeconds');
    refused(await call(a, 'POST', '/autorunner/api/v1/engines', { name: '' }), 400, 'VALIDATION_FAILED', 'name');
  });

  it('answers 404 for another company’s check', async () => {
    const check = await call(b, 'POST', '/healthcheck/api/v1/checks', { name: 'B check', intervalSeconds: 60 });
    expect(check.status).toBe(201);
    refused(await call(a, 'GET', `/healthcheck/api/v1/checks/${check.body.id}`), 404, 'NOT_FOUND');
  });

  it('refuses engine reporting without an engine token', async () => {
    const res = await call(null, 'POST', `/autorunner/api/v1/runs`, { testSessionId: randomUUID() }, { 'x-engine-token': 'are_wrong' });
    refused(res, 401, 'UNAUTHORIZED');
  });
});
