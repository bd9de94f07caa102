import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type JsonResponse, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';

/**
 * Test management's user groups, attachments and pre-authorized downloads over real HTTP, and the
 * wall between two companies (and between two workspaces of one company) on every tools endpoint.
 */
const MAX_ATTACHMENT = 4096;
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let a: SignedUpCompany;
let b: SignedUpCompany;
let A: Client;
let B: Client;
let aWs2: number;
const users = { aMember: 0, reader: { id: 0, token: '' }, writer: { id: 0, token: '' }, plain: { id: 0, token: '' }, bMember: 0 };

type Tmt = ReturnType<typeof tmt>;
/** Calls `/tmt/**` as `token` in workspace `workspaceId`. */
function tmt(token: string, workspaceId: number) {
  const headers = { 'x-workspace-id': String(workspaceId) };
  const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    http(server.url, method, path, { token, headers, ...(body !== undefined ? { body } : {}) });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    put: (path: string, body?: unknown) => call('PUT', path, body ?? {}),
    delete: (path: string) => call('DELETE', path),
    /** Uploads files (and fields) as multipart/form-data. */
    async upload(parts: { name: string; bytes?: Uint8Array; filename?: string; type?: string; value?: string }[]): Promise<JsonResponse> {
      const form = new FormData();
      for (const p of parts) {
        if (p.value !== undefined) form.append(p.name, p.value);
        else form.append(p.name, new Blob([p.bytes!], { type: p.type ?? 'application/octet-stream' }), p.filename ?? 'file.bin');
      }
      const res = await fetch(new URL('/tmt/api/v1/attachments', server.url), { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, ...headers } });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
    },
  };
}

/** A public GET with no credential at all, answering the raw bytes. */
async function publicGet(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(new URL(path, server.url));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const GROUPS = '/tmt/company/api/v1/userGroups';
const ATTACHMENTS = '/tmt/api/v1/attachments';
const DOWNLOADS = '/tmt/api/v1/downloads';
const MOCKS = '/tmt/api/v1/mock-services';

let ta: Tmt;
let tb: Tmt;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url, TMT_ATTACHMENT_MAX_BYTES: String(MAX_ATTACHMENT) });
  a = await signUpCompany(server.url, 'tmt-a');
  b = await signUpCompany(server.url, 'tmt-b');
  A = client(server.url, a.token);
  B = client(server.url, b.token);
  ta = tmt(a.token, a.workspaceId);
  tb = tmt(b.token, b.workspaceId);
  const reader = (await A.post('/roles', { name: 'TMT reader', permissions: ['TMT_READ'] })).body.id;
  const writer = (await A.post('/roles', { name: 'TMT writer', permissions: ['TMT_READ', 'TMT_WRITE'] })).body.id;
  const withAccess = async (email: string, roleIds: number[]) => {
    const u = await createActiveUser(server.url, A, smtp.mails, { email, roleIds });
    const granted = await A.post(`/workspaces/${a.workspaceId}/access/users`, { userId: u.id });
    if (granted.status >= 300) throw new Error(`grant failed: ${granted.status} ${JSON.stringify(granted.body)}`);
    return { id: u.id, token: u.token };
  };
  users.aMember = (await createActiveUser(server.url, A, smtp.mails, { email: 'member@tmt-a.test' })).id;
  users.reader = await withAccess('reader@tmt-a.test', [reader]);
  users.writer = await withAccess('writer@tmt-a.test', [writer]);
  users.plain = await withAccess('plain@tmt-a.test', []);
  users.bMember = (await createActiveUser(server.url, B, smtp.mails, { email: 'member@tmt-b.test' })).id;
  aWs2 = (await A.post('/workspaces', { name: 'Second space' })).body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('user groups', () => {
  it('creates, reads, lists, changes, adds and removes members, and deletes a group', async () => {
    const created = await ta.post(GROUPS, { name: 'Release testers', description: 'Sign-off', memberIds: [a.userId, users.aMember, a.userId] });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Release testers',
      description: 'Sign-off',
      memberIds: [a.userId, users.aMember],
      createdBy: a.userId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await ta.get(`${GROUPS}/${id}`)).body).toEqual(created.body);
    const list = await ta.get(`${GROUPS}?search=release&size=5`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 0, size: 5, totalElements: 1, totalPages: 1 });
    expect(list.body.content[0].id).toBe(id);
    expect((await ta.get(`${GROUPS}?memberId=${users.aMember}`)).body.content.map((g: { id: string }) => g.id)).toContain(id);

    const put = await ta.put(`${GROUPS}/${id}`, { name: 'Release crew', memberIds: [users.aMember, users.reader.id] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Release crew', description: 'Sign-off', memberIds: [users.aMember, users.reader.id] });
    expect((await ta.post(`${GROUPS}/${id}/members/${users.writer.id}`)).body.memberIds).toEqual([users.aMember, users.reader.id, users.writer.id]);
    expect((await ta.post(`${GROUPS}/${id}/members/${users.writer.id}`)).body.memberIds).toHaveLength(3);
    expect((await ta.delete(`${GROUPS}/${id}/members/${users.aMember}`)).body.memberIds).toEqual([users.reader.id, users.writer.id]);
    expect((await ta.delete(`${GROUPS}/${id}/members/${users.aMember}`)).status).toBe(404);

    // Company-wide: the same group from another workspace of the company.
    expect((await tmt(a.token, aWs2).get(`${GROUPS}/${id}`)).body.name).toBe('Release crew');

    expect((await ta.delete(`${GROUPS}/${id}`)).status).toBe(204);
    expect((await ta.get(`${GROUPS}/${id}`)).status).toBe(404);
    expect((await ta.delete(`${GROUPS}/${id}`)).status).toBe(404);
    // Its name is free again.
    expect((await ta.post(GROUPS, { name: 'release crew' })).status).toBe(201);
  });

  it('refuses bad bodies 400 (naming members of no company user), duplicate names 409, unknown ids 404', async () => {
    const g = await ta.post(GROUPS, { name: 'Mobile' });
    expect(g.status).toBe(201);
    const before = await ta.get(`${GROUPS}?size=200`);

    const dup = await ta.post(GROUPS, { name: '  MOBILE ' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('NAME_TAKEN');
    const other = await ta.post(GROUPS, { name: 'Web' });
    const rename = await ta.put(`${GROUPS}/${other.body.id}`, { name: 'mobile' });
    expect(rename.status).toBe(409);
    expect(errorCode(rename)).toBe('NAME_TAKEN');
    expect((await ta.get(`${GROUPS}/${other.body.id}`)).body.name).toBe('Web');

    expect((await ta.post(GROUPS, { name: '' })).status).toBe(400);
    const badType = await ta.post(GROUPS, { name: 'X', memberIds: ['one'] });
    expect(badType.status).toBe(400);
    expect(badType.body.code).toBe('VALIDATION_FAILED');
    const foreign = await ta.post(GROUPS, { name: 'Mixed', memberIds: [a.userId, users.bMember, 99999] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('VALIDATION_FAILED');
    expect(foreign.body.message).toContain(String(users.bMember));
    expect(foreign.body.message).toContain('99999');
    expect(foreign.body.message).not.toContain(String(a.userId));
    expect((await ta.put(`${GROUPS}/${g.body.id}`, { memberIds: [users.bMember] })).status).toBe(400);
    expect((await ta.get(`${GROUPS}/${g.body.id}`)).body.memberIds).toEqual([]);
    expect((await ta.get(`${GROUPS}/not-a-uuid`)).status).toBe(400);

    const unknown = randomUUID();
    expect((await ta.get(`${GROUPS}/${unknown}`)).status).toBe(404);
    expect((await ta.put(`${GROUPS}/${unknown}`, { name: 'Nope' })).status).toBe(404);
    expect((await ta.delete(`${GROUPS}/${unknown}`)).status).toBe(404);
    expect((await ta.post(`${GROUPS}/${unknown}/members/${a.userId}`)).status).toBe(404);
    expect((await ta.post(`${GROUPS}/${g.body.id}/members/999999`)).status).toBe(404);
    expect((await ta.post(`${GROUPS}/${g.body.id}/members/${users.bMember}`)).status).toBe(404);

    const after = await ta.get(`${GROUPS}?size=200`);
    expect(after.body.totalElements).toBe(before.body.totalElements + 1);
    expect(after.body.content.map((x: { name: string }) => x.name)).not.toContain('Mixed');
  });

  it('reads with TMT_READ, changes with TMT_WRITE, deletes with TMT_DELETE (403 otherwise)', async () => {
    const g = await ta.post(GROUPS, { name: 'Guarded' });
    const reader = tmt(users.reader.token, a.workspaceId);
    const writer = tmt(users.writer.token, a.workspaceId);
    const plain = tmt(users.plain.token, a.workspaceId);
    expect((await plain.get(GROUPS)).status).toBe(403);
    expect((await plain.get(`${GROUPS}/${g.body.id}`)).status).toBe(403);
    expect((await reader.get(GROUPS)).status).toBe(200);
    expect((await reader.get(`${GROUPS}/${g.body.id}`)).status).toBe(200);
    for (const r of [
      await reader.post(GROUPS, { name: 'By reader' }),
      await reader.put(`${GROUPS}/${g.body.id}`, { name: 'Renamed by reader' }),
      await reader.post(`${GROUPS}/${g.body.id}/members/${users.reader.id}`),
      await reader.delete(`${GROUPS}/${g.body.id}/members/${users.reader.id}`),
      await reader.delete(`${GROUPS}/${g.body.id}`),
      await writer.delete(`${GROUPS}/${g.body.id}`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
    expect((await writer.post(GROUPS, { name: 'By writer' })).status).toBe(201);
    expect((await writer.put(`${GROUPS}/${g.body.id}`, { description: 'Writer was here' })).status).toBe(200);
    expect((await ta.get(`${GROUPS}/${g.body.id}`)).body).toMatchObject({ name: 'Guarded', description: 'Writer was here' });
    // Without a credential the gateway refuses before the module.
    expect((await http(server.url, 'GET', GROUPS)).status).toBe(401);
  });
});

describe('attachments and pre-authorized downloads', () => {
  const bytes = Buffer.from('PK\u0003\u0004 not really an apk, but bytes all the same \u00e9\u0000\u00ff', 'latin1');

  it('uploads a file, lists and reads it, and serves it through a signed link with no credential', async () => {
    const up = await ta.upload([{ name: 'file', bytes, filename: 'build 1 é.apk', type: 'application/vnd.android.package-archive' }]);
    expect(up.status).toBe(201);
    expect(up.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: 'build 1 é.apk',
      contentType: 'application/vnd.android.package-archive',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      uploadedBy: a.userId,
      workspaceId: a.workspaceId,
      createdAt: expect.any(String),
    });
    expect((await ta.get(`${ATTACHMENTS}/${up.body.id}`)).body).toEqual(up.body);
    expect((await ta.get(ATTACHMENTS)).body.content.map((x: { id: string }) => x.id)).toContain(up.body.id);

    const link = await ta.post(DOWNLOADS, { kind: 'attachment', id: up.body.id });
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(/^\/tmt\/api\/v1\/public\/download\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const expiresAt = Date.parse(link.body.expiresAt);
    expect(expiresAt).toBeGreaterThan(Date.now() + 3500_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3602_000);

    const got = await publicGet(link.body.url);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(bytes)).toBe(true);
    expect(got.headers.get('content-type')).toBe('application/vnd.android.package-archive');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="build 1 _.apk"; filename*=UTF-8''build%201%20%C3%A9.apk`);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    // A link works any number of times until it expires.
    expect((await publicGet(link.body.url)).status).toBe(200);
  });

  it('refuses altered tokens, access tokens and junk with 404', async () => {
    const up = await ta.upload([{ name: 'file', bytes, filename: 'a.bin' }]);
    const { url } = (await ta.post(DOWNLOADS, { kind: 'attachment', id: up.body.id })).body as { url: string };
    const token = url.split('/').pop()!;
    const [h, p, s] = token.split('.') as [string, string, string];
    // Re-point the claims at another object: the signature no longer matches.
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, oid: randomUUID() })).toString('base64url');
    const flip = (x: string) => (x[5] === 'A' ? `${x.slice(0, 5)}B${x.slice(6)}` : `${x.slice(0, 5)}A${x.slice(6)}`);
    for (const bad of [`${h}.${forged}.${s}`, `${h}.${p}.${flip(s)}`, `${h}.${p}.`, token.slice(0, -2), a.token, 'nothing-here', `${token}/extra`]) {
      const r = await publicGet(`/tmt/api/v1/public/download/${bad}`);
      expect(r.status, bad).toBe(404);
    }
    expect((await publicGet(url)).status).toBe(200);
  });

  it('stops serving a link after its expiry', { timeout: 60_000 }, async () => {
    const up = await ta.upload([{ name: 'file', bytes, filename: 'short.bin' }]);
    const link = await ta.post(DOWNLOADS, { kind: 'attachment', id: up.body.id, expiresInSeconds: 1 });
    expect(link.status).toBe(201);
    expect(Date.parse(link.body.expiresAt)).toBeLessThanOrEqual(Date.now() + 2000);
    await expect.poll(async () => (await publicGet(link.body.url)).status, { timeout: 15_000, interval: 100 }).toBe(404);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(link.body.expiresAt));
    const again = await publicGet(link.body.url);
    expect(again.status).toBe(404);
    expect(JSON.parse(again.bytes.toString()).code).toBe('NOT_FOUND');
  });

  it('cannot make a link to another workspace or company, an unknown object or an unknown kind; a deleted object stops being served', async () => {
    const here = await ta.upload([{ name: 'file', bytes, filename: 'here.bin' }]);
    const elsewhere = await tmt(a.token, aWs2).upload([{ name: 'file', bytes, filename: 'elsewhere.bin' }]);
    const foreign = await tb.upload([{ name: 'file', bytes, filename: 'foreign.bin' }]);
    for (const id of [elsewhere.body.id, foreign.body.id, randomUUID()]) {
      const r = await ta.post(DOWNLOADS, { kind: 'attachment', id });
      expect(r.status).toBe(404);
      expect(errorCode(r)).toBe('NOT_FOUND');
    }
    const kind = await ta.post(DOWNLOADS, { kind: 'everything', id: here.body.id });
    expect(kind.status).toBe(400);
    expect(errorCode(kind)).toBe('VALIDATION_FAILED');
    expect(kind.body.details[0]).toEqual({ path: 'kind', message: 'Unknown kind "everything"; one of: attachment, test-session-report' });
    expect((await ta.post(DOWNLOADS, { kind: 'attachment', id: here.body.id, expiresInSeconds: 0 })).status).toBe(400);
    expect((await ta.post(DOWNLOADS, { kind: 'attachment', id: here.body.id, expiresInSeconds: 8 * 86_400 })).status).toBe(400);
    expect((await ta.post(DOWNLOADS, { kind: 'attachment', id: '../etc' })).status).toBe(400);
    expect((await tmt(users.plain.token, a.workspaceId).post(DOWNLOADS, { kind: 'attachment', id: here.body.id })).status).toBe(403);
    expect((await tmt(users.reader.token, a.workspaceId).post(DOWNLOADS, { kind: 'attachment', id: here.body.id })).status).toBe(201);

    const link = await ta.post(DOWNLOADS, { kind: 'attachment', id: here.body.id });
    expect((await publicGet(link.body.url)).status).toBe(200);
    expect((await ta.delete(`${ATTACHMENTS}/${here.body.id}`)).status).toBe(204);
    expect((await publicGet(link.body.url)).status).toBe(404);
    expect((await ta.get(`${ATTACHMENTS}/${here.body.id}`)).status).toBe(404);
    expect((await ta.delete(`${ATTACHMENTS}/${here.body.id}`)).status).toBe(404);
  });

  it('refuses uploads that are not one file part within the size limit, and stores nothing then', async () => {
    const before = (await ta.get(`${ATTACHMENTS}?size=200`)).body.totalElements;
    const json = await ta.post(ATTACHMENTS, { file: 'x' });
    expect(json.status).toBe(415);
    expect(errorCode(json)).toBe('UNSUPPORTED_MEDIA_TYPE');
    const none = await ta.upload([]);
    expect(none.status).toBe(400);
    expect(errorCode(none)).toBe('VALIDATION_FAILED');
    const noFile = await ta.upload([{ name: 'note', value: 'hello' }]);
    expect(noFile.status).toBe(400);
    expect(errorCode(noFile)).toBe('BAD_REQUEST');
    const wrongName = await ta.upload([{ name: 'upload', bytes }]);
    expect(wrongName.status).toBe(400);
    expect(errorCode(wrongName)).toBe('BAD_REQUEST');
    const two = await ta.upload([{ name: 'file', bytes }, { name: 'file', bytes }]);
    expect(two.status).toBe(400);
    expect(errorCode(two)).toBe('BAD_REQUEST');
    const big = await ta.upload([{ name: 'file', bytes: Buffer.alloc(MAX_ATTACHMENT + 1, 7) }]);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    const exact = await ta.upload([{ name: 'file', bytes: Buffer.alloc(MAX_ATTACHMENT, 7) }]);
    expect(exact.status).toBe(201);
    expect((await ta.get(`${ATTACHMENTS}?size=200`)).body.totalElements).toBe(before + 1);
    expect((await ta.get(`${ATTACHMENTS}/not-a-uuid`)).status).toBe(400);
    expect((await ta.get(`${ATTACHMENTS}/${randomUUID()}`)).status).toBe(404);
  });

  it('uploads with TMT_WRITE, reads with TMT_READ, deletes with TMT_DELETE (403 otherwise)', async () => {
    const reader = tmt(users.reader.token, a.workspaceId);
    const writer = tmt(users.writer.token, a.workspaceId);
    const plain = tmt(users.plain.token, a.workspaceId);
    const up = await writer.upload([{ name: 'file', bytes, filename: 'by-writer.bin' }]);
    expect(up.status).toBe(201);
    expect((await reader.upload([{ name: 'file', bytes }])).status).toBe(403);
    expect((await plain.get(ATTACHMENTS)).status).toBe(403);
    expect((await plain.get(`${ATTACHMENTS}/${up.body.id}`)).status).toBe(403);
    expect((await reader.get(`${ATTACHMENTS}/${up.body.id}`)).status).toBe(200);
    expect((await reader.delete(`${ATTACHMENTS}/${up.body.id}`)).status).toBe(403);
    expect((await writer.delete(`${ATTACHMENTS}/${up.body.id}`)).status).toBe(403);
    expect((await ta.get(`${ATTACHMENTS}/${up.body.id}`)).status).toBe(200);
  });
});

describe('tenant walls', () => {
  it("every tools endpoint called by company A with company B's ids (or another workspace's) answers 404 and changes nothing", { timeout: 120_000 }, async () => {
    const bytes = Buffer.from('B private bytes');
    const bGroup = (await tb.post(GROUPS, { name: 'B group', memberIds: [b.userId, users.bMember] })).body.id as string;
    const bFile = (await tb.upload([{ name: 'file', bytes, filename: 'b.bin' }])).body.id as string;
    const bMock = (await tb.post(MOCKS, { name: 'B mock', module: 'api', routes: [{ method: 'GET', path: '*', status: 200, body: 'b' }] })).body.id as string;
    const a2 = tmt(a.token, aWs2);
    const a2File = (await a2.upload([{ name: 'file', bytes, filename: 'a2.bin' }])).body.id as string;
    const a2Mock = (await a2.post(MOCKS, { name: 'A2 mock', module: 'api', routes: [{ method: 'GET', path: '*', status: 200 }] })).body.id as string;

    const snapshot = async () => ({
      groups: (await tb.get(`${GROUPS}?size=200`)).body,
      group: (await tb.get(`${GROUPS}/${bGroup}`)).body,
      files: (await tb.get(`${ATTACHMENTS}?size=200`)).body,
      file: (await tb.get(`${ATTACHMENTS}/${bFile}`)).body,
      bytes: (await publicGet((await tb.post(DOWNLOADS, { kind: 'attachment', id: bFile })).body.url)).bytes.toString('base64'),
      mocks: (await tb.get(`${MOCKS}?size=200`)).body,
      mock: (await tb.get(`${MOCKS}/${bMock}`)).body,
      a2Files: (await a2.get(`${ATTACHMENTS}?size=200`)).body,
      a2Mock: (await a2.get(`${MOCKS}/${a2Mock}`)).body,
    });
    const before = await snapshot();
    expect(before.group.memberIds).toEqual([b.userId, users.bMember]);
    expect(before.bytes).toBe(bytes.toString('base64'));

    const mockBody = { name: 'Owned', module: 'api', routes: [{ method: 'GET', path: '*', status: 418 }] };
    const calls: [string, () => Promise<{ status: number; body: unknown }>][] = [
      ['GET group', () => ta.get(`${GROUPS}/${bGroup}`)],
      ['PUT group', () => ta.put(`${GROUPS}/${bGroup}`, { name: 'Owned' })],
      ['DELETE group', () => ta.delete(`${GROUPS}/${bGroup}`)],
      ['POST A user into B group', () => ta.post(`${GROUPS}/${bGroup}/members/${a.userId}`)],
      ['DELETE B member of B group', () => ta.delete(`${GROUPS}/${bGroup}/members/${users.bMember}`)],
      ['GET attachment', () => ta.get(`${ATTACHMENTS}/${bFile}`)],
      ['DELETE attachment', () => ta.delete(`${ATTACHMENTS}/${bFile}`)],
      ['POST download of B attachment', () => ta.post(DOWNLOADS, { kind: 'attachment', id: bFile })],
      ['GET mock', () => ta.get(`${MOCKS}/${bMock}`)],
      ['PUT mock', () => ta.put(`${MOCKS}/${bMock}`, mockBody)],
      ['POST disable mock', () => ta.post(`${MOCKS}/${bMock}/disable`)],
      ['POST enable mock', () => ta.post(`${MOCKS}/${bMock}/enable`)],
      ['DELETE mock', () => ta.delete(`${MOCKS}/${bMock}`)],
      ['GET other workspace attachment', () => ta.get(`${ATTACHMENTS}/${a2File}`)],
      ['DELETE other workspace attachment', () => ta.delete(`${ATTACHMENTS}/${a2File}`)],
      ['POST download of other workspace attachment', () => ta.post(DOWNLOADS, { kind: 'attachment', id: a2File })],
      ['GET other workspace mock', () => ta.get(`${MOCKS}/${a2Mock}`)],
      ['PUT other workspace mock', () => ta.put(`${MOCKS}/${a2Mock}`, mockBody)],
      ['POST disable other workspace mock', () => ta.post(`${MOCKS}/${a2Mock}/disable`)],
      ['DELETE other workspace mock', () => ta.delete(`${MOCKS}/${a2Mock}`)],
    ];
    for (const [name, call] of calls) {
      const r = await call();
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(404);
    }
    // B's members cannot be put into A's groups either: they are not users of A's company.
    expect((await ta.post(GROUPS, { name: 'With B', memberIds: [users.bMember] })).status).toBe(400);
    // A's lists show nothing of B; B's workspace is not one A can enter.
    expect((await ta.get(`${GROUPS}?size=200`)).body.content.map((g: { id: string }) => g.id)).not.toContain(bGroup);
    expect((await ta.get(`${ATTACHMENTS}?size=200`)).body.content.map((f: { id: string }) => f.id)).not.toContain(bFile);
    expect((await ta.get(`${MOCKS}?size=200`)).body.content.map((m: { id: string }) => m.id)).not.toContain(bMock);
    expect((await tmt(a.token, b.workspaceId).get(GROUPS)).status).toBe(403);

    expect(await snapshot()).toEqual(before);
  });
});
