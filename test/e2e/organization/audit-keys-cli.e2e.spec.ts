import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { runOperatorCli } from '#test/helpers/operator-cli.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * `npm run audit:keys`: an operator rotates the checkpoint signing key from a process of its own sharing
 * the running platform's PostgreSQL database. The head is signed with the old key first, the running
 * platform signs with the new one from its next pass, both keys stay published, and the whole chain
 * still verifies.
 */
let database: { url: string; drop: () => Promise<void> };
let server: TestServer;
let company: SignedUpCompany;

const keysCli = (...args: string[]) => runOperatorCli('services/organization/audit/keys-cli.ts', args, { DATABASE_URL: database.url, DATA_DIR: server.dataDir });

interface Checkpoint {
  seq: number;
  keyId: string;
}

/** The checkpoints of the company's bundle, in chain order. */
async function checkpoints(): Promise<Checkpoint[]> {
  const answer = await fetch(new URL('/api/v1/audit/bundle', server.url), { headers: { authorization: `Bearer ${company.token}` } });
  expect(answer.status).toBe(200);
  const lines = (await answer.text()).trim().split('\n').map((l) => JSON.parse(l) as { checkpoint?: Checkpoint });
  return lines.flatMap((l) => (l.checkpoint ? [l.checkpoint] : []));
}

beforeAll(async () => {
  database = await createTestDatabase('qa_audit_keys_cli');
  // A checkpoint for every new event, looked at every second: the rotation's effect shows at the next pass.
  server = await startTestServer({ DATABASE_URL: database.url, AUDIT_CHECKPOINT_EVENTS: '1', AUDIT_CHECKPOINT_INTERVAL: '1s' });
  company = await signUpCompany(server.url, 'keys-cli');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe('npm run audit:keys', { timeout: 240_000 }, () => {
  it('rotates: the head signed with the old key, later checkpoints with the new one, both published, the chain verifying', async () => {
    const admin = client(server.url, company.token);
    expect((await admin.post('/teams', { name: 'Before the rotation' })).status).toBe(201);
    await expect.poll(async () => (await checkpoints()).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [old] = (await admin.get('/audit/keys')).body.keys as { kid: string }[];

    const rotated = await keysCli('rotate');
    expect(rotated.code, rotated.stderr).toBe(0);
    const made = /signed with (audit-[0-9a-f]{16}), now retired; checkpoints are signed with (audit-[0-9a-f]{16}) from now on/.exec(rotated.stdout);
    expect(made?.[1]).toBe(old!.kid);
    const fresh = made![2]!;
    expect(rotated.stdout).toMatch(new RegExp(`^${fresh}\\tmade \\S+\\tsigning$`, 'm'));
    expect(rotated.stdout).toMatch(new RegExp(`^${old!.kid}\\tmade \\S+\\tretired \\S+$`, 'm'));

    expect((await admin.post('/teams', { name: 'After the rotation' })).status).toBe(201);
    await expect.poll(async () => (await checkpoints()).some((c) => c.keyId === fresh), { timeout: 30_000 }).toBe(true);
    const signed = await checkpoints();
    // Every checkpoint before the first new one was signed by the old key, none after it.
    const first = signed.findIndex((c) => c.keyId === fresh);
    expect(signed.slice(0, first).every((c) => c.keyId === old!.kid)).toBe(true);
    expect(signed.slice(first).every((c) => c.keyId === fresh)).toBe(true);
    expect(((await admin.get('/audit/keys')).body.keys as { kid: string }[]).map((k) => k.kid)).toEqual([fresh, old!.kid]);
    const verified = await admin.get('/audit/verify');
    expect(verified.body).toMatchObject({ ok: true });
    expect(verified.body.checkpoints).toBe(signed.length);

    const listed = await keysCli('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n').map((l) => l.split('\t')[0])).toEqual([fresh, old!.kid]);
  });

  it('refuses a malformed command with its usage', async () => {
    for (const args of [[], ['rotate', 'now'], ['delete']]) {
      const run = await keysCli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: npm run audit:keys');
    }
  });
});
