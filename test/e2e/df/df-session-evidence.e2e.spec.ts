import { generateKeyPairSync, sign } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceMessage, type SessionEvidence } from '#shared/audit/session-evidence.js';
import { eventually, startTestSite, writeAgentConfig, type TestSite } from '#test/helpers/df-farm.js';
import { ensureDfctlBuilt, freshDfctlConfig, runDfctl } from '#test/helpers/dfctl.js';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * A session's evidence, end to end: a real server with its in-process agent (a Chromium browser device),
 * a session that opens a page (which logs to the console), takes a screenshot and ends. Its evidence is
 * downloaded with `dfctl evidence` (the files it lists too) and checked offline with `dfctl audit verify`;
 * then one thing after another is changed — a byte of the manifest, the signature, an event's encoded
 * text, a downloaded file — and each time the check fails naming it. Who may have it: another company
 * (404), a session manager without AUDIT_READ and an auditor who may not see the content (403).
 */
const dir = mkdtempSync(join(tmpdir(), 'df-evidence-'));
const file = join(dir, 'evidence.json');
const files = join(dir, 'files');
let server: TestServer;
let site: TestSite;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let admin: Client;
let rival: SignedUpCompany;
let sessionId: string;
let evidenceText: string;
let evidence: SessionEvidence;
const dfctlEnv = { DFCTL_CONFIG: freshDfctlConfig() };
const tokens = { manager: '', auditor: '' };

function api(method: string, path: string, token = company.token) {
  return http(server.url, method, `/df/api${path}`, { token });
}
async function role(name: string, permissions: string[]): Promise<number> {
  const created = await admin.post('/roles', { name, description: name, permissions });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}
const verify = (path: string, ...more: string[]) => runDfctl(['audit', 'verify', path, ...more]);
/** The evidence with `change` applied to its parsed form, written to a file of its own. */
function forged(name: string, change: (doc: SessionEvidence) => void): string {
  const doc = JSON.parse(evidenceText) as SessionEvidence;
  change(doc);
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

beforeAll(async () => {
  ensureDfctlBuilt();
  site = await startTestSite();
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    AGENT_VIDEO_ENABLED: 'false',
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'evidence-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: 'Phone (evidence)', profile: 'pixel-7', width: 360, height: 640, scale: 2 }] }),
  });
  company = await signUpCompany(server.url, 'evidence');
  admin = client(server.url, company.token);
  rival = await signUpCompany(server.url, 'evidence-rival');
  const inWorkspace = { workspaceIds: [company.workspaceId] };
  const manager = await role('Session manager', ['df:device:read', 'df:session:read', 'df:session:manage']);
  const auditor = await role('Auditor without content', ['df:device:read', 'df:session:read', 'AUDIT_READ']);
  tokens.manager = (await createActiveUser(server.url, admin, smtp.mails, { email: 'max@evidence.test', roleIds: [manager], ...inWorkspace })).token;
  tokens.auditor = (await createActiveUser(server.url, admin, smtp.mails, { email: 'ada@evidence.test', roleIds: [auditor], ...inWorkspace })).token;

  const phone = await eventually(async () => (await api('GET', '/devices')).body.content?.[0] as { id: string } | undefined, { what: 'the browser device', timeoutMs: 30_000 });
  const created = await http(server.url, 'POST', '/df/api/sessions', { token: company.token, body: { deviceId: phone.id, name: 'Evidence run' } });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
  const opened = await http(server.url, 'POST', `/df/api/sessions/${sessionId}/device/control`, { token: company.token, body: { action: 'openUrl', url: site.url } });
  expect(opened.status).toBe(200);
  // The page has run its script (which logs to the console) once it reported what it found.
  await site.waitForEvent((e) => e.kind === 'storage');
  expect((await api('GET', `/sessions/${sessionId}/screenshot`)).status).toBe(200);

  const open = await api('GET', `/sessions/${sessionId}/evidence`);
  expect(open.status).toBe(409);
  expect(errorCode(open)).toBe('SESSION_OPEN');
  expect((await api('DELETE', `/sessions/${sessionId}`)).status).toBe(200);

  const login = await runDfctl(['login', '--server', server.url, '--email', company.email, '--password-stdin'], { input: company.password, env: dfctlEnv });
  expect(login.code, login.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await site?.close();
  await smtp?.stop();
});

describe("a session's evidence", { timeout: 120_000 }, () => {
  it('is downloaded with its files by dfctl and holds the record, timeline, artifacts and chained events', async () => {
    const download = await runDfctl(['evidence', sessionId, '--output', file, '--files', files], { env: dfctlEnv });
    expect(download.stderr).toBe('');
    expect(download.code).toBe(0);
    evidenceText = readFileSync(file, 'utf8');
    evidence = JSON.parse(evidenceText) as SessionEvidence;
    const m = evidence.manifest;
    expect(evidence).toMatchObject({ format: 'qa-session-evidence/1', signature: { alg: 'EdDSA' } });
    expect(m).toMatchObject({ format: 'qa-session-evidence/1', sessionId, companyId: company.companyId, workspaceId: company.workspaceId, session: { id: sessionId, name: 'Evidence run', status: 'ended' } });
    expect(m.timeline.map((a) => (a as { kind: string }).kind)).toContain('screenshot');
    expect(m.artifacts.map((a) => a.type).sort()).toEqual(['log', 'screenshot']);
    expect(readdirSync(files).sort()).toEqual(m.artifacts.map((a) => a.fileName).sort());
    // The log the session's end collected holds what the page wrote to the console.
    const log = m.artifacts.find((a) => a.type === 'log')!;
    expect(readFileSync(join(files, log.fileName), 'utf8')).toContain('test page loaded');
    // Its events are the session's, as the company's chain holds them; the signing key is among the published ones.
    const types = m.events.map((e) => JSON.parse(e.encoded)[5] as string);
    expect(types).toEqual(expect.arrayContaining(['DeviceSessionRequested', 'DeviceSessionArtifactStored', 'DeviceSessionEnded']));
    for (const e of m.events) expect(JSON.parse(e.encoded)[2]).toMatch(new RegExp(`^device-session-(sharing-)?${sessionId}$`));
    const published = (await admin.get('/audit/keys')).body.keys as { kid: string }[];
    expect(published.map((k) => k.kid)).toContain(evidence.signature.keyId);
  });

  it('carries each event with the number and hash the chain export gives it', async () => {
    const bundle = await fetch(new URL('/api/v1/audit/bundle', server.url), { headers: { authorization: `Bearer ${company.token}` } });
    expect(bundle.status).toBe(200);
    const exported = new Map<number, string>();
    for (const line of (await bundle.text()).trim().split('\n').slice(1)) {
      const item = JSON.parse(line) as { event?: { seq: number; hash: string } };
      if (item.event) exported.set(item.event.seq, item.event.hash);
    }
    const ours = evidence.manifest.events.filter((e) => e.chain === `company:${company.companyId}`);
    expect(ours.length).toBeGreaterThan(3);
    for (const e of ours) expect(exported.get(e.seq), `event ${e.seq}`).toBe(e.hash);
  });

  it('verifies offline with dfctl audit verify, files included', async () => {
    const run = await verify(file, '--files', files);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `intact: session ${sessionId}: ${evidence.manifest.events.length} events, manifest signed by ${evidence.signature.keyId}, 2 of 2 files match\n` +
        "keys: taken from the file itself, not pinned (--keys FILE checks against the installation's published keys)\n",
    );
  });

  it('pins the published keys saved by dfctl audit keys: the evidence holds, one re-signed with another key of the same id is named', async () => {
    const keysFile = join(dir, 'keys.json');
    const saved = await runDfctl(['audit', 'keys', '-o', keysFile], { env: dfctlEnv });
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    const published = (await admin.get('/audit/keys')).body as { keys: { kid: string }[] };
    expect(JSON.parse(readFileSync(keysFile, 'utf8'))).toEqual(published);
    expect(saved.stdout).toBe(`Wrote ${keysFile} (${published.keys.length} ${published.keys.length === 1 ? 'key' : 'keys'}: ${published.keys.map((k) => k.kid).join(', ')}).\n`);

    const genuine = await verify(file, '--files', files, '--keys', keysFile);
    expect(genuine.code).toBe(0);
    expect(genuine.stdout).toContain(`manifest signed by ${evidence.signature.keyId}, 2 of 2 files match\nkeys: pinned, ${published.keys.length} from ${keysFile}\n`);

    const kid = evidence.signature.keyId;
    const path = forged('resigned', (doc) => {
      (doc.manifest.session as { name: string }).name = 'Another run';
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      doc.keys.keys = [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' }];
      doc.signature.value = sign(null, evidenceMessage(doc.manifest), privateKey).toString('base64url');
    });
    const trusting = await verify(path);
    expect(trusting.code).toBe(0);
    expect(trusting.stdout).toContain('keys: taken from the file itself');
    const pinned = await verify(path, '--keys', keysFile);
    expect(pinned.code).toBe(1);
    expect(pinned.stdout).toBe(`BROKEN (signature): the signature's key ${kid} in the file differs from the pinned key of that id\nkeys: pinned, ${published.keys.length} from ${keysFile}\n`);

    writeFileSync(join(dir, 'not-json.json'), 'keys');
    const refused = await verify(file, '--keys', join(dir, 'not-json.json'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not JSON');
    expect(refused.stderr).toContain('(NOT_A_KEY_SET)');
  });

  it('fails naming the signature when one byte of the manifest changes', async () => {
    const at = evidenceText.indexOf('"exportedAt":"') + '"exportedAt":"'.length;
    const digit = evidenceText[at + 3]!;
    expect(digit).toMatch(/\d/);
    const path = join(dir, 'byte.json');
    writeFileSync(path, `${evidenceText.slice(0, at + 3)}${(Number(digit) + 1) % 10}${evidenceText.slice(at + 4)}`);
    const run = await verify(path, '--files', files);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^BROKEN \(signature\): the signature by audit-\w+ does not match the manifest/);
  });

  it('fails naming the signature when the signature changes', async () => {
    const path = forged('signature', (doc) => {
      const v = doc.signature.value;
      doc.signature.value = `${v.slice(0, 10)}${v[10] === 'A' ? 'B' : 'A'}${v.slice(11)}`;
    });
    const run = await verify(path);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('BROKEN (signature)');
  });

  it("fails naming the event whose encoded text changed, by its chain and position", async () => {
    let target = { seq: 0, position: '' };
    const path = forged('event', (doc) => {
      const ended = doc.manifest.events.find((e) => e.encoded.includes('"DeviceSessionEnded"'))!;
      target = ended;
      ended.encoded = ended.encoded.replace('"DeviceSessionEnded"', '"DeviceSessionEndeD"');
    });
    const run = await verify(path);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^BROKEN \(event\): .*\nkeys: taken from the file itself/);
    expect(run.stdout.split('\n')[0]).toBe(`BROKEN (event): event ${target.seq} of company:${company.companyId} (position ${target.position}): event ${target.seq} does not match its hash (altered, moved or forged)`);
  });

  it('fails naming the file whose bytes changed', async () => {
    const altered = join(dir, 'altered-files');
    cpSync(files, altered, { recursive: true });
    const shot = evidence.manifest.artifacts.find((a) => a.type === 'screenshot')!;
    const bytes = readFileSync(join(altered, shot.fileName));
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(join(altered, shot.fileName), bytes);
    const run = await verify(file, '--files', altered);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(`BROKEN (file): file ${shot.fileName} (screenshot ${shot.id}) does not match its SHA-256 in the manifest`);
  });

  it("is 404 to another company and for an unknown session; 403 without AUDIT_READ or without the session's content", async () => {
    const other = await api('GET', `/sessions/${sessionId}/evidence`, rival.token);
    expect(other.status).toBe(404);
    expect((await api('GET', '/sessions/00000000-0000-4000-8000-000000000000/evidence')).status).toBe(404);
    const manager = await api('GET', `/sessions/${sessionId}/evidence`, tokens.manager);
    expect(manager.status).toBe(403);
    expect(errorCode(manager)).toBe('FORBIDDEN');
    // The manager does see the session's content: it is the audit key that is missing.
    expect((await api('GET', `/sessions/${sessionId}/artifacts`, tokens.manager)).status).toBe(200);
    const auditor = await api('GET', `/sessions/${sessionId}/evidence`, tokens.auditor);
    expect(auditor.status).toBe(403);
    expect(errorCode(auditor)).toBe('SESSION_CONTENT_FORBIDDEN');
  });
});
