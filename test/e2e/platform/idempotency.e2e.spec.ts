import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * `Idempotency-Key` on the public APIs' POSTs (docs/api-conventions.md, "Idempotency"), through the
 * started server and its database: a repeat is answered the first answer without a second write, across
 * a restart too; another body is 422; a concurrent repeat makes no second write; a key expires after
 * its time to live; keys are per caller and tenant; malformed keys are 400.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'qa-idempotency-'));
let server: TestServer;
let a: SignedUpCompany;
let b: SignedUpCompany;
let projectId: string;

const as = (who: SignedUpCompany, key: string | undefined, method: string, path: string, body?: unknown): Promise<JsonResponse> =>
  http(server.url, method, path, { token: who.token, headers: { 'x-workspace-id': String(who.workspaceId), ...(key !== undefined ? { 'idempotency-key': key } : {}) }, ...(body !== undefined ? { body } : {}) });

const caseBody = (title: string) => ({ title, projectId, priority: 'medium', steps: [] });

/** How many test cases of the project carry `title` (the list endpoint, which the write waits for). */
async function casesTitled(title: string, who = a): Promise<number> {
  const r = await as(who, undefined, 'GET', `/v1/test-cases?projectId=${projectId}&limit=100`);
  expect(r.status).toBe(200);
  return (r.body.data as { title: string }[]).filter((c) => c.title === title).length;
}

beforeAll(async () => {
  server = await startTestServer({ DATA_DIR: dataDir });
  a = await signUpCompany(server.url, 'idem-a');
  b = await signUpCompany(server.url, 'idem-b');
  const p = await as(a, undefined, 'POST', '/v1/projects', { name: 'Idempotency', key: 'IDEM' });
  expect(p.status).toBe(201);
  projectId = p.body.data.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Idempotency-Key', () => {
  it('answers a repeat with the first answer (status, body, Idempotent-Replayed) and writes once', async () => {
    const key = randomUUID();
    const first = await as(a, key, 'POST', '/v1/test-cases', caseBody('once'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await as(a, key, 'POST', '/v1/test-cases', caseBody('once'));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await casesTitled('once')).toBe(1);
    // Without a key, the same body is a second write, as it always was.
    expect((await as(a, undefined, 'POST', '/v1/test-cases', caseBody('once'))).status).toBe(201);
    expect(await casesTitled('once')).toBe(2);
  });

  it('refuses the key for another body with 422 IDEMPOTENCY_KEY_REUSED, writing nothing', async () => {
    const key = randomUUID();
    expect((await as(a, key, 'POST', '/v1/test-cases', caseBody('reused-1'))).status).toBe(201);
    const other = await as(a, key, 'POST', '/v1/test-cases', caseBody('reused-2'));
    expect([other.status, errorCode(other)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(other.body.success).toBe(false);
    expect(await casesTitled('reused-2')).toBe(0);
    // The same key on another path is another request too.
    const elsewhere = await as(a, key, 'POST', '/v1/projects', { name: 'Elsewhere', key: 'ELSE' });
    expect([elsewhere.status, errorCode(elsewhere)]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('writes once when two connections send one key at the same time (the other is answered again or 409 IDEMPOTENCY_KEY_IN_USE)', async () => {
    const key = randomUUID();
    const answers = await Promise.all([as(a, key, 'POST', '/v1/test-cases', caseBody('together')), as(a, key, 'POST', '/v1/test-cases', caseBody('together'))]);
    const created = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(created).toHaveLength(1);
    const other = answers.find((r) => r !== created[0])!;
    if (other.status === 409) {
      expect(errorCode(other)).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(other.headers.get('retry-after')).toBe('1');
    } else {
      expect([other.status, other.headers.get('idempotent-replayed'), other.body]).toEqual([201, 'true', created[0]!.body]);
    }
    expect(await casesTitled('together')).toBe(1);
  });

  it("keeps keys per caller and tenant: another company's same key is a request of its own", async () => {
    const key = randomUUID();
    const mine = await as(a, key, 'POST', '/v1/projects', { name: 'Mine', key: 'MINE' });
    const theirs = await as(b, key, 'POST', '/v1/projects', { name: 'Mine', key: 'MINE' });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('honours keys on /api/v1, /df/api and /tmt too, and documents the header on every public POST but the credential-free ones', async () => {
    const key = randomUUID();
    const role = { name: `Role ${key.slice(0, 8)}`, permissions: [] };
    const first = await as(a, key, 'POST', '/api/v1/roles', role);
    expect(first.status).toBe(201);
    const again = await as(a, key, 'POST', '/api/v1/roles', role);
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([201, 'true', first.body]);

    const upload = { name: 'app.apk', size: 10, contentType: 'application/vnd.android.package-archive' };
    const fileKey = randomUUID();
    const started = await as(a, fileKey, 'POST', '/df/api/files/presigned-upload', upload);
    expect(started.status).toBe(201);
    const repeated = await as(a, fileKey, 'POST', '/df/api/files/presigned-upload', upload);
    expect([repeated.status, repeated.headers.get('idempotent-replayed'), repeated.body.fileId]).toEqual([201, 'true', started.body.fileId]);
    expect(repeated.headers.get('cache-control')).toBe('no-store');

    const groupKey = randomUUID();
    const group = { name: `Group ${groupKey.slice(0, 8)}` };
    const made = await as(a, groupKey, 'POST', '/tmt/company/api/v1/userGroups', group);
    expect(made.status).toBe(201);
    const remade = await as(a, groupKey, 'POST', '/tmt/company/api/v1/userGroups', group);
    expect([remade.status, remade.headers.get('idempotent-replayed'), remade.body]).toEqual([201, 'true', made.body]);

    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    const ref = { $ref: '#/components/parameters/IdempotencyKey' };
    expect(doc.paths['/v1/test-cases'].post.parameters).toContainEqual(ref);
    expect(doc.paths['/api/v1/roles'].post.parameters).toContainEqual(ref);
    expect(doc.paths['/df/api/files/presigned-upload'].post.parameters).toContainEqual(ref);
    expect(doc.paths['/v1/test-cases'].get.parameters ?? []).not.toContainEqual(ref);
    expect(doc.paths['/api/v1/auth/login'].post.parameters ?? []).not.toContainEqual(ref);
  });

  it('refuses a malformed key with 400 IDEMPOTENCY_KEY_INVALID before anything is written', async () => {
    for (const key of ['', 'k'.repeat(256), 'has space', 'tab\tinside']) {
      const r = await as(a, key, 'POST', '/v1/test-cases', caseBody('bad-key'));
      expect([key.length, r.status, errorCode(r)]).toEqual([key.length, 400, 'IDEMPOTENCY_KEY_INVALID']);
    }
    // A header that is not ASCII (UTF-8 bytes of "é", sent raw).
    const raw = await rawPost('/v1/test-cases', JSON.stringify(caseBody('bad-key')), Buffer.from('clé', 'utf8'));
    expect(raw).toMatch(/^HTTP\/1\.1 400 .*IDEMPOTENCY_KEY_INVALID/s);
    expect(await casesTitled('bad-key')).toBe(0);
    expect((await as(a, 'k'.repeat(255), 'POST', '/v1/test-cases', caseBody('long-key'))).status).toBe(201);
  });

  it('still answers a repeat after a restart on the same data directory, and writes again once the key has expired', async () => {
    const key = randomUUID();
    const first = await as(a, key, 'POST', '/v1/test-cases', caseBody('restart'));
    expect(first.status).toBe(201);
    await server.stop();
    server = await startTestServer({ DATA_DIR: dataDir });
    const again = await as(a, key, 'POST', '/v1/test-cases', caseBody('restart'));
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([201, 'true', first.body]);
    expect(await casesTitled('restart')).toBe(1);

    // 25 hours on, by the platform's clock: the key names a new request.
    const realNow = server.process.platform.now;
    server.process.platform.now = () => new Date(Date.now() + 25 * 3_600_000);
    try {
      const later = await as(a, key, 'POST', '/v1/test-cases', caseBody('restart'));
      expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, null]);
      expect(later.body.data.id).not.toBe(first.body.data.id);
      expect(await casesTitled('restart')).toBe(2);
    } finally {
      server.process.platform.now = realNow;
    }
  });
});

/** A POST over a plain socket, so a header can carry bytes `fetch` refuses to send. */
async function rawPost(path: string, body: string, key: Buffer): Promise<string> {
  const { connect } = await import('node:net');
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.token}\r\nX-Workspace-Id: ${a.workspaceId}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nIdempotency-Key: `;
    socket.end(Buffer.concat([Buffer.from(head), key, Buffer.from(`\r\n\r\n${body}`)]));
  });
}
