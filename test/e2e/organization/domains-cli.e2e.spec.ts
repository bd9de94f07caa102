import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { runOperatorCli } from '#test/helpers/operator-cli.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * `npm run domains`: an operator verifies a company's domain without DNS, from a process of its own
 * sharing the running platform's PostgreSQL database, and lists domains.
 */
let database: { url: string; drop: () => Promise<void> };
let server: TestServer;
let company: SignedUpCompany;
let other: SignedUpCompany;

/** Runs the CLI as `npm run domains` does (tsx), with the platform's configuration; its exit code and output. */
const domainsCli = (...args: string[]) => runOperatorCli('services/organization/domains/cli.ts', args, { DATABASE_URL: database.url, DATA_DIR: server.dataDir });

beforeAll(async () => {
  database = await createTestDatabase('qa_domains_cli');
  server = await startTestServer({ DATABASE_URL: database.url });
  company = await signUpCompany(server.url, 'dom-cli');
  other = await signUpCompany(server.url, 'dom-cli-other');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe('npm run domains', { timeout: 240_000 }, () => {
  it('verifies a domain for a company as the installation; the running platform shows it verified and audited', async () => {
    const run = await domainsCli('verify', 'Ops.Test', '--company', String(company.companyId));
    expect(run).toMatchObject({ code: 0, stdout: `ops.test: claimed and verified for company ${company.companyId} by the operator\n` });
    const admin = client(server.url, company.token);
    await expect.poll(async () => (await admin.get('/domains')).body, { timeout: 30_000 }).toEqual([expect.objectContaining({ domain: 'ops.test', verifiedAt: expect.any(String) })]);
    const audit = await admin.get('/audit/events?eventType=DomainVerified');
    expect(audit.body.content).toEqual([expect.objectContaining({ actorId: null, resourceId: 'ops.test' })]);
    expect((await domainsCli('verify', 'ops.test', '--company', String(company.companyId))).stdout).toBe(`ops.test: already verified for company ${company.companyId}; nothing changed\n`);
    const listed = await domainsCli('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ops\\.test\\tcompany ${company.companyId}\\tverified .+ \\(operator\\)$`, 'm'));
  });

  it("refuses another company's verified domain, an unknown company and a malformed command", async () => {
    const taken = await domainsCli('verify', 'ops.test', '--company', String(other.companyId));
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('DOMAIN_TAKEN');
    const unknown = await domainsCli('verify', 'new.test', '--company', '999999');
    expect(unknown).toMatchObject({ code: 1, stderr: 'company 999999 does not exist\n' });
    for (const args of [['verify', 'ops.test'], ['verify', 'not a domain', '--company', '1'], ['remove', 'ops.test']]) {
      expect((await domainsCli(...args)).code).toBe(2);
    }
  });
});
