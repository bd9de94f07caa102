import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '#shared/auth/index.js';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { eventually } from '#test/helpers/df-farm.js';
import { slapdAvailable, startSlapd, type TestDirectory } from '#test/helpers/slapd.js';

/**
 * Identity provider secrets at rest: sealed in the events and the read model (PostgreSQL read
 * directly), opened for a sign-in against a real directory, and carried through a key rotation
 * (restart with a new SECRETS_KEY and the old one in SECRETS_PREVIOUS_KEYS, then without the old one).
 */
const BIND_PASSWORD = 'bind-password-at-rest-91c2';
const CLIENT_SECRET = 'oidc-client-secret-at-rest-5d7e';
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

let database: { url: string; drop: () => Promise<void> };
let directory: TestDirectory;
let server: TestServer | undefined;
let ldapProviderId: number;

async function sql<T = Record<string, unknown>>(text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

let dns: TestDns;
const start = (env: Record<string, string>) => startTestServer({ DATABASE_URL: database.url, DNS_SERVERS: dns.server, ...env });
const ldapLogin = () => http(server!.url, 'POST', '/api/v1/auth/login', { body: { username: 'alice', password: 'alice-pass-at-rest', providerId: ldapProviderId } });

beforeAll(async () => {
  if (!slapdAvailable) return;
  database = await createTestDatabase('qa_idp_secrets');
  directory = await startSlapd();
  dns = await startDnsmasq();
  await directory.add(
    [
      'dn: ou=people,dc=corp,dc=test\nobjectClass: organizationalUnit\nou: people\n',
      `dn: cn=reader,dc=corp,dc=test\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\nuserPassword: ${BIND_PASSWORD}\n`,
      'dn: uid=alice,ou=people,dc=corp,dc=test\nobjectClass: inetOrgPerson\nuid: alice\ncn: Alice\nsn: A\nmail: alice@corp.test\nuserPassword: alice-pass-at-rest\n',
    ].join('\n'),
  );
  server = await start({ SECRETS_KEY: keyA });
  const company = await signUpCompany(server.url, 'secrets');
  await verifyDomain(server.url, company.token, 'corp.test', dns);
  const admin = client(server.url, company.token);
  const ldap = await admin.post('/identity-providers', {
    type: 'ldap',
    name: 'Directory',
    domains: ['corp.test'],
    jitProvisioning: true,
    config: { url: directory.url, bindDn: 'cn=reader,dc=corp,dc=test', bindPassword: BIND_PASSWORD, userSearchBase: 'ou=people,dc=corp,dc=test', userFilter: '(uid={{username}})' },
  });
  expect(ldap.status).toBe(201);
  ldapProviderId = ldap.body.id;
  const oidc = await admin.post('/identity-providers', { type: 'oidc', name: 'Corp ID', domains: ['oidc.test'], config: { issuer: 'https://id.oidc.test', clientId: 'qa', clientSecret: CLIENT_SECRET } });
  expect(oidc.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await directory?.stop();
  await dns?.stop();
  await database?.drop();
});

const keyIdOf = (key: string) => new SecretBox(Buffer.from(key, 'base64')).currentKeyId;

async function storedBindPassword(): Promise<string> {
  const [row] = await sql<{ secret: string }>(`SELECT config->>'bindPassword' AS secret FROM org_identity_providers WHERE id = ${ldapProviderId}`);
  return row!.secret;
}

describe.runIf(slapdAvailable)('identity provider secrets at rest', { timeout: 240_000 }, () => {
  it('keeps no secret in the clear in the events or the read model, and signs in with the sealed one', async () => {
    const events = JSON.stringify(await sql(`SELECT type, payload FROM es_events WHERE type LIKE 'IdentityProvider%'`));
    expect(events).toContain('sealed:v1:');
    expect(events).not.toContain(BIND_PASSWORD);
    expect(events).not.toContain(CLIENT_SECRET);
    const readModel = JSON.stringify(await sql('SELECT config FROM org_identity_providers'));
    expect(readModel).not.toContain(BIND_PASSWORD);
    expect(readModel).not.toContain(CLIENT_SECRET);
    expect(SecretBox.keyIdOf(await storedBindPassword())).toBe(keyIdOf(keyA));
    expect((await ldapLogin()).status).toBe(200);
  });

  it('rotates the key: restarted with a new key and the old one as previous, the secrets are sealed again under the new key; then the old key can go', async () => {
    await server!.stop();
    server = await start({ SECRETS_KEY: keyB, SECRETS_PREVIOUS_KEYS: keyA });
    // Sealed again in the background of the start.
    await eventually(async () => (SecretBox.keyIdOf(await storedBindPassword()) === keyIdOf(keyB) ? true : undefined), { timeoutMs: 60_000, what: 'the bind password sealed under the new key' });
    expect((await ldapLogin()).status).toBe(200);
    await server.stop();
    server = await start({ SECRETS_KEY: keyB });
    expect((await ldapLogin()).status).toBe(200);
    expect(JSON.stringify(await sql('SELECT config FROM org_identity_providers'))).not.toContain(CLIENT_SECRET);
  });

  it('without the key that sealed a secret, the provider refuses sign-ins with a stable code instead of failing', async () => {
    await server!.stop();
    server = await start({ SECRETS_KEY: randomBytes(32).toString('base64') });
    const res = await ldapLogin();
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SSO_FAILED');
  });
});
