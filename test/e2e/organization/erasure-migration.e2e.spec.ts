import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { rechainFrom, type EventMetadata } from '#shared/es/index.js';
import { personalDataOf } from '#shared/pii/index.js';
import { AuditChain } from '#services/organization/audit/index.js';
import { tablesHolding } from '#test/helpers/db-search.js';
import { runOperatorCli } from '#test/helpers/operator-cli.js';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/*
 * `npm run pii:migrate` on an installation whose events were recorded before personal data was sealed.
 * Such an installation is made here from a new one: every stored event is written back with its
 * personal data opened, the chains hashed again from their start and signed, the person keys dropped —
 * what an older version left. Erasing is then refused until the migration has run; after it, no event
 * holds the data in clear, the chain verifies with fresh checkpoints (the old ones kept aside), and an
 * erasure works.
 */

const MARK = 'Xylophant';

describe.each(['PGlite', 'PostgreSQL'] as const)('the personal data migration on %s', (store) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let server: TestServer;
  let company: SignedUpCompany;
  let personId: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'pii-migrate-'));
  const env = () => ({ DATA_DIR: dataDir, SMTP_URL: smtp.url, ...(database ? { DATABASE_URL: database.url } : {}) });
  const db = (): Database => server.process.platform.db;
  const migrate = () => runOperatorCli('services/pii-migrate-cli.ts', [], { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) });

  /** Writes every event back with its personal data in clear and chains and signs the history again: an installation from before sealing. */
  async function unseal(): Promise<void> {
    const data = personalDataOf(server.process.platform.store)!;
    await db().transaction(async (tx) => {
      await tx.query(`LOCK TABLE es_chains IN EXCLUSIVE MODE`);
      const { rows } = await tx.query<{ position: string; type: string; payload: unknown; metadata: EventMetadata }>(`SELECT position::text AS position, type, payload, metadata FROM es_events ORDER BY position`);
      const opened = await data.open(rows);
      for (let i = 0; i < rows.length; i++) {
        if (opened[i] === rows[i]) continue;
        await tx.query(`UPDATE es_events SET payload = $2::jsonb, metadata = $3::jsonb WHERE position = $1::bigint`, [rows[i]!.position, JSON.stringify(opened[i]!.payload), JSON.stringify(opened[i]!.metadata)]);
      }
      for (const { chain } of (await tx.query<{ chain: string }>(`SELECT chain FROM es_chains`)).rows) await rechainFrom(tx, chain, 1);
      await tx.query(`DELETE FROM es_checkpoints`);
      await tx.query(`DELETE FROM pii_keys`);
      await tx.query(`DELETE FROM pii_migration`);
    });
    await new AuditChain(server.process.platform).checkpoints.pass(true);
  }

  beforeAll(async () => {
    if (store === 'PostgreSQL') database = await createTestDatabase('qa_pii_migrate');
    smtp = await startSmtpListener();
    server = await startTestServer(env());
    company = await signUpCompany(server.url, 'pii-migrate');
    const admin = client(server.url, company.token);
    const made = await createActiveUser(server.url, admin, smtp.mails, { email: `${MARK.toLowerCase()}-${store.toLowerCase()}@example.test`, name: `Yannick ${MARK}`, password: 'yannick password' });
    personId = made.id;
    await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: made.email, password: 'yannick password' }, headers: { 'user-agent': `${MARK}/2.0` } });
    await unseal();
    expect(await tablesHolding(db(), MARK)).toMatchObject({ 'public.es_events': expect.any(Number) });
    // Restarted as the new version: the log is found holding events from before sealing.
    await server.stop();
    server = await startTestServer(env());
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses erasing while the migration is pending; the old history verifies as it is', async () => {
    const admin = client(server.url, company.token);
    const verified = (await admin.get('/audit/verify')).body;
    expect(verified, JSON.stringify(verified)).toMatchObject({ ok: true });
    const refused = await admin.post(`/users/${personId}/erase`);
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe('PII_MIGRATION_PENDING');
    expect((await admin.get(`/users/${personId}`)).status).toBe(200);
  });

  it('migrates: no event holds the data in clear, the chain verifies with new checkpoints, the old ones kept aside; then erasure works', async () => {
    await server.stop();
    const run = await migrate();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d+ events read, [1-9]\d* sealed$/m);
    expect(run.stdout).toMatch(new RegExp(`^company:${company.companyId}: \\d+ events hashed again from #\\d+, head [0-9a-f]{16}… → [0-9a-f]{16}…, [1-9]\\d* checkpoint\\(s\\) superseded$`, 'm'));
    expect(run.stdout).toMatch(/^[1-9]\d* new checkpoint\(s\) signed; erasing a person is possible now$/m);
    const again = await migrate();
    expect(again.stdout).toBe('nothing to migrate: every event was recorded with its personal data sealed\n');

    server = await startTestServer(env());
    const admin = client(server.url, company.token);
    const { rows } = await db().query<{ type: string }>(`SELECT type FROM es_events WHERE payload::text ILIKE $1 OR metadata::text ILIKE $1`, [`%${MARK}%`]);
    expect(rows).toEqual([]);
    expect((await admin.get(`/users/${personId}`)).body).toMatchObject({ name: `Yannick ${MARK}` });
    expect((await admin.get('/audit/verify')).body).toMatchObject({ ok: true });
    const superseded = await db().query<{ reason: string }>(`SELECT reason FROM es_checkpoints_superseded WHERE chain = $1`, [`company:${company.companyId}`]);
    expect(superseded.rows.length).toBeGreaterThan(0);
    expect(superseded.rows[0]!.reason).toMatch(/^personal data sealed from event \d+ of the chain on: head [0-9a-f]{64} became [0-9a-f]{64}$/);

    const erased = await admin.post(`/users/${personId}/erase`);
    expect(erased.status).toBe(200);
    expect(await tablesHolding(db(), MARK)).toEqual({});
    expect((await admin.get('/audit/verify')).body).toMatchObject({ ok: true });
  });
});
