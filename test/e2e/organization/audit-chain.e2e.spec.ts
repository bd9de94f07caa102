import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { AuditChain } from '#services/organization/audit/index.js';
import { checkpointMessage, nextHash, type Checkpoint } from '#shared/audit/verify-chain.js';
import { ensureDfctlBuilt, runDfctl } from '#test/helpers/dfctl.js';
import { client, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

/*
 * The history's chain on both SQL stores: a company makes a few hundred changes of several kinds (with
 * a key rotation between checkpoints), its chain verifies through the API and, exported, through
 * `dfctl audit verify`; then the database and the bundle are tampered with, one way after another,
 * each time earlier in the chain than the last, so each is the first fault the walk meets.
 */

/** Five changes a round, with the sign-ups around 120 events in the company's chain (the bench makes thousands). */
const ROUNDS = 20;
const dir = mkdtempSync(join(tmpdir(), 'audit-chain-'));

beforeAll(() => ensureDfctlBuilt(), 120_000);

/**
 * The bundle forged end to end: one event's name changed, every hash after it recomputed, every
 * checkpoint re-signed over its new head with a fresh key carried as `kid`, the header's keys replaced.
 */
function resigned(text: string, kid: string): { text: string; firstCheckpoint: Checkpoint } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const [head, ...items] = text.trim().split('\n').map((l) => JSON.parse(l));
  head.keys = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' }] };
  let hash = head.anchor.hash as string;
  let forged = false;
  for (const item of items) {
    if (item.event) {
      if (!forged && (item.event.encoded as string).includes('renamed')) [item.event.encoded, forged] = [(item.event.encoded as string).replace('renamed', 'Renamed'), true];
      item.event.hash = hash = nextHash(hash, item.event.encoded);
    } else {
      const c = { ...item.checkpoint, head: hash, keyId: kid };
      item.checkpoint = { ...c, signature: sign(null, checkpointMessage(c), privateKey).toString('base64url') };
    }
  }
  expect(forged).toBe(true);
  return { text: [head, ...items].map((l) => JSON.stringify(l)).join('\n'), firstCheckpoint: items.find((i) => i.checkpoint).checkpoint };
}

describe.each(['PGlite', 'PostgreSQL'] as const)('the history chain on %s', (store) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let server: TestServer;
  let company: SignedUpCompany;
  let other: SignedUpCompany;
  let admin: Client;
  let db: Database;
  let operator: AuditChain;
  let chain: string;
  let bundleFile: string;

  /** `rounds` rounds of five kinds of change: workspace created and renamed, team created, renamed, joined. */
  async function change(rounds: number, tag: string): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      const ws = (await admin.post('/workspaces', { name: `WS ${tag} ${i}` })).body.id;
      expect((await admin.put(`/workspaces/${ws}`, { name: `WS ${tag} ${i} renamed` })).status).toBe(200);
      const team = (await admin.post('/teams', { name: `Team ${tag} ${i}` })).body.id;
      expect((await admin.put(`/teams/${team}`, { name: `Team ${tag} ${i} b`, description: 'x' })).status).toBe(200);
      expect((await admin.post(`/teams/${team}/members/${company.userId}`)).status).toBeLessThan(300);
    }
  }

  const verify = async (query = '') => (await admin.get(`/audit/verify${query}`)).body;
  const eventAt = async (seq: number) =>
    (await db.query<{ position: string }>(`SELECT position::text AS position FROM es_events WHERE chain = $1 AND chain_seq = $2`, [chain, seq])).rows[0]!.position;

  beforeAll(async () => {
    if (store === 'PostgreSQL') database = await createTestDatabase('qa_audit_chain');
    server = await startTestServer({ ...(database ? { DATABASE_URL: database.url } : {}), AUDIT_CHECKPOINT_EVENTS: '1000000', AUDIT_CHECKPOINT_INTERVAL: '1h' });
    db = server.process.platform.db;
    operator = new AuditChain(server.process.platform);
    company = await signUpCompany(server.url, 'chain');
    other = await signUpCompany(server.url, 'chain-other');
    admin = client(server.url, company.token);
    chain = `company:${company.companyId}`;
    await operator.checkpoints.pass(true);
    await change(ROUNDS / 2, 'a');
    await operator.checkpoints.pass(true);
    await operator.keys.rotate();
    await change(ROUNDS / 2, 'b');
    await operator.checkpoints.pass(true);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('verifies through the API, with checkpoints signed by two keys, both published', async () => {
    const result = await verify();
    expect(result).toMatchObject({ ok: true });
    expect(result.events).toBeGreaterThan(ROUNDS * 5);
    expect(result.checkpoints).toBeGreaterThanOrEqual(2);
    const keys = (await admin.get('/audit/keys')).body.keys;
    const used = (await db.query<{ key_id: string }>(`SELECT DISTINCT key_id FROM es_checkpoints WHERE chain = $1`, [chain])).rows.map((r) => r.key_id);
    expect(used).toHaveLength(2);
    for (const kid of used) expect(keys).toContainEqual(expect.objectContaining({ kid, kty: 'OKP', crv: 'Ed25519' }));
    // No private part is published, and the stored one is sealed.
    for (const k of keys) expect(k).not.toHaveProperty('d');
    const sealed = (await db.query<{ p: string }>(`SELECT private_sealed AS p FROM audit_signing_keys`)).rows;
    for (const s of sealed) expect(s.p.startsWith('sealed:v1:')).toBe(true);
  });

  it('exports a bundle of the company\'s chain only, which dfctl verifies offline', async () => {
    const answer = await fetch(new URL('/api/v1/audit/bundle', server.url), { headers: { authorization: `Bearer ${company.token}` } });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ format: 'qa-audit-bundle/1', chain, companyId: company.companyId });
    for (const l of lines.slice(1)) expect(JSON.parse((l.event?.encoded as string | undefined) ?? `["${chain}"]`)[0]).toBe(chain);
    bundleFile = join(dir, `${store}.jsonl`);
    writeFileSync(bundleFile, text);
    const run = await runDfctl(['audit', 'verify', bundleFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^intact: \d+ events, [2-9]\d* signed checkpoints verified/);
    expect(run.stdout).toContain('\nkeys: taken from the file itself, not pinned');
  });

  it('pins the published keys (--keys): the bundle verifies with them, one re-signed with another key is named', async () => {
    const published = await fetch(new URL('/api/v1/audit/keys', server.url), { headers: { authorization: `Bearer ${company.token}` } });
    expect(published.status).toBe(200);
    const keysFile = join(dir, `${store}-keys.json`);
    writeFileSync(keysFile, await published.text());
    const genuine = await runDfctl(['audit', 'verify', bundleFile, '--keys', keysFile]);
    expect(genuine.stderr).toBe('');
    expect(genuine.code).toBe(0);
    expect(genuine.stdout).toMatch(new RegExp(`^intact: \\d+ events, [2-9]\\d* signed checkpoints verified\nkeys: pinned, 2 from ${keysFile}\n$`));

    const { text, firstCheckpoint } = resigned(readFileSync(bundleFile, 'utf8'), 'audit-attacker');
    const forged = join(dir, `${store}-resigned.jsonl`);
    writeFileSync(forged, text);
    const trusting = await runDfctl(['audit', 'verify', forged]);
    expect(trusting.code).toBe(0);
    expect(trusting.stdout).toContain('keys: taken from the file itself');
    const pinned = await runDfctl(['audit', 'verify', forged, '--keys', keysFile]);
    expect(pinned.code).toBe(1);
    expect(pinned.stdout).toContain(`BROKEN at position ${firstCheckpoint.position}: checkpoint at ${firstCheckpoint.seq}: key audit-attacker is not among the pinned keys`);

    const junk = join(dir, 'not-keys.json');
    writeFileSync(junk, '{"keys": "audit-1"}');
    const refused = await runDfctl(['audit', 'verify', bundleFile, '--keys', junk]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('NOT_A_KEY_SET');
  });

  it('names the first bad position when one byte of the bundle changes', async () => {
    const lines = readFileSync(bundleFile, 'utf8').split('\n');
    const index = lines.findIndex((l, i) => i > lines.length / 2 && l.includes('renamed'));
    const item = JSON.parse(lines[index]!);
    lines[index] = lines[index]!.replace('renamed', 'renamEd');
    const forged = join(dir, `${store}-forged.jsonl`);
    writeFileSync(forged, lines.join('\n'));
    const run = await runDfctl(['audit', 'verify', forged]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`BROKEN at position ${item.event.position as string}`);
  });

  it('refuses bad input: not a bundle, a time in the future, from after to', async () => {
    const junk = join(dir, 'junk.jsonl');
    writeFileSync(junk, '{"hello":"world"}\n');
    const run = await runDfctl(['audit', 'verify', junk]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('NOT_A_BUNDLE');
    const future = await admin.get(`/audit/verify?from=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`);
    expect(future.status).toBe(400);
    expect(future.body.code).toBe('VALIDATION_FAILED');
    expect((await admin.get('/audit/verify?from=20&to=10')).status).toBe(400);
    expect((await admin.get('/audit/verify?from=yesterday')).status).toBe(400);
    expect((await admin.get('/audit/verify?from=99999999999999999999')).status).toBe(400);
  });

  it('on a KurrentDB store, whose events carry no chain, refuses verification, export and signing with 501 AUDIT_CHAIN_UNAVAILABLE', async () => {
    // Only the configuration says KurrentDB: the refusal comes before anything is asked of a store.
    const platform = server.process.platform;
    const kurrent = new AuditChain({ ...platform, config: { ...platform.config, EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false' } } as typeof platform);
    await expect(kurrent.start()).resolves.toBeUndefined();
    for (const use of [() => kurrent.verify(company.companyId), () => kurrent.bundle(company.companyId), () => kurrent.sign(Buffer.from('x')), () => kurrent.streamEvents(['s'])]) {
      await expect(use()).rejects.toMatchObject({ code: 'AUDIT_CHAIN_UNAVAILABLE', statusCode: 501 });
    }
  });

  it('fails at the event whose data an UPDATE changed, and only for that company', async () => {
    const { seq } = (await db.query<{ seq: string }>(`SELECT seq::text AS seq FROM es_chains WHERE chain = $1`, [chain])).rows[0]!;
    const target = Math.floor(Number(seq) * 0.8);
    await db.query(`UPDATE es_events SET payload = payload || '{"forged": true}' WHERE chain = $1 AND chain_seq = $2`, [chain, target]);
    expect(await verify()).toMatchObject({ ok: false, firstBadPosition: await eventAt(target) });
    expect((await client(server.url, other.token).get('/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('fails at the event after one a DELETE removed', async () => {
    const { seq } = (await db.query<{ seq: string }>(`SELECT seq::text AS seq FROM es_chains WHERE chain = $1`, [chain])).rows[0]!;
    const target = Math.floor(Number(seq) * 0.6);
    await db.query(`DELETE FROM es_events WHERE chain = $1 AND chain_seq = $2`, [chain, target]);
    expect(await verify()).toMatchObject({ ok: false, firstBadPosition: await eventAt(target + 1), reason: expect.stringContaining('missing') });
  });

  it('fails where two events were swapped in the log', async () => {
    const { seq } = (await db.query<{ seq: string }>(`SELECT seq::text AS seq FROM es_chains WHERE chain = $1`, [chain])).rows[0]!;
    const a = Math.floor(Number(seq) * 0.4);
    const rows = (
      await db.query<{ t: string; i: number; s: string }>(
        `SELECT transaction_id::text AS t, index_in_append AS i, chain_seq::text AS s FROM es_events WHERE chain = $1 AND chain_seq IN ($2, $3) ORDER BY chain_seq`,
        [chain, a, a + 5],
      )
    ).rows;
    const x = rows[0]!;
    const y = rows[1]!;
    await db.transaction(async (tx) => {
      await tx.query(`UPDATE es_events SET index_in_append = 65534 WHERE chain = $1 AND chain_seq = $2`, [chain, a]);
      await tx.query(`UPDATE es_events SET transaction_id = $3::xid8, index_in_append = $4 WHERE chain = $1 AND chain_seq = $2`, [chain, a + 5, x.t, x.i]);
      await tx.query(`UPDATE es_events SET transaction_id = $3::xid8, index_in_append = $4 WHERE chain = $1 AND chain_seq = $2`, [chain, a, y.t, y.i]);
    });
    expect(await verify()).toMatchObject({ ok: false, firstBadPosition: await eventAt(a) });
    expect(await eventAt(a)).not.toBe(await eventAt(a + 5));
  });

  it('fails at a checkpoint whose signature was changed', async () => {
    const first = (
      await db.query<{ seq: string; position: string; signature: string }>(
        `SELECT seq::text AS seq, position::text AS position, signature FROM es_checkpoints k WHERE chain = $1 ORDER BY k.seq LIMIT 1`,
        [chain],
      )
    ).rows[0]!;
    const sig = Buffer.from(first.signature, 'base64url');
    sig[10] = sig[10]! ^ 1;
    await db.query(`UPDATE es_checkpoints SET signature = $3 WHERE chain = $1 AND seq = $2`, [chain, first.seq, sig.toString('base64url')]);
    expect(await verify()).toMatchObject({ ok: false, firstBadPosition: first.position, reason: expect.stringContaining('signature') });
  });
});
