import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { slapdAvailable, startSlapd, type TestDirectory } from '#test/helpers/slapd.js';

/**
 * Directory sign-in against a real OpenLDAP server (`slapd`, started by the test on a free loopback
 * port): a search account finds the person, the platform binds as them with the password typed,
 * reads their groups and maps them to a role and a team.
 */
let server: TestServer;
let dns: TestDns;
let directory: TestDirectory;
let company: SignedUpCompany;
let providerId: number;
let memberRoleId: number;
let teamId: number;

const READER_PASSWORD = 'reader-bind-secret-7f3a';
const ALICE = 'alice-directory-pass';

const person = (uid: string, password: string, mail: string | null) =>
  [
    `dn: uid=${uid},ou=people,dc=corp,dc=test`,
    'objectClass: inetOrgPerson',
    `uid: ${uid}`,
    `cn: ${uid[0]!.toUpperCase()}${uid.slice(1)} Directory`,
    'sn: Directory',
    `displayName: ${uid[0]!.toUpperCase()}${uid.slice(1)} Directory`,
    ...(mail ? [`mail: ${mail}`] : []),
    `userPassword: ${password}`,
    '',
  ].join('\n');

const login = (username: string, password: string, id = providerId) => http(server.url, 'POST', '/api/v1/auth/login', { body: { username, password, providerId: id } });

async function seedDirectory(d: TestDirectory) {
  await d.add(
    [
      'dn: ou=people,dc=corp,dc=test\nobjectClass: organizationalUnit\nou: people\n',
      'dn: ou=groups,dc=corp,dc=test\nobjectClass: organizationalUnit\nou: groups\n',
      `dn: cn=reader,dc=corp,dc=test\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\nuserPassword: ${READER_PASSWORD}\n`,
      person('alice', ALICE, 'alice@corp.test'),
      person('bob', 'bob-directory-pass', 'bob@corp.test'),
      person('carol', 'carol-directory-pass', 'carol@corp.test'),
      person('dave', 'dave-directory-pass', 'dave@corp.test'),
      'dn: cn=qa-members,ou=groups,dc=corp,dc=test\nobjectClass: groupOfNames\ncn: qa-members\nmember: uid=alice,ou=people,dc=corp,dc=test\n',
    ].join('\n'),
  );
}

beforeAll(async () => {
  if (!slapdAvailable) return;
  directory = await startSlapd();
  await seedDirectory(directory);
  dns = await startDnsmasq();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  company = await signUpCompany(server.url, 'ldap');
  await verifyDomain(server.url, company.token, 'corp.test', dns);
  const admin = client(server.url, company.token);
  memberRoleId = (await admin.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  teamId = (await admin.post('/teams', { name: 'Directory people' })).body.id;
  const created = await admin.post('/identity-providers', {
    type: 'ldap',
    name: 'Corp Directory',
    domains: ['corp.test'],
    jitProvisioning: true,
    mappings: [{ group: 'qa-members', roleIds: [memberRoleId], teamIds: [teamId], workspaceIds: [company.workspaceId] }],
    config: {
      url: directory.url,
      bindDn: 'cn=reader,dc=corp,dc=test',
      bindPassword: READER_PASSWORD,
      userSearchBase: 'ou=people,dc=corp,dc=test',
      userFilter: '(&(objectClass=inetOrgPerson)(uid={{username}}))',
      groupSearchBase: 'ou=groups,dc=corp,dc=test',
    },
  });
  expect(created.status).toBe(201);
  providerId = created.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await directory?.stop();
  await dns?.stop();
});

describe.runIf(slapdAvailable)('LDAP sign-in against a real directory', { timeout: 120_000 }, () => {
  it('signs a person in with their directory password: tokens, provisioned at the first sign-in, their group mapped to a role and a team', async () => {
    const res = await login('alice', ALICE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String) });
    const me = await http(server.url, 'GET', '/api/v1/users/me', { token: res.body.token });
    expect(me.body).toMatchObject({ email: 'alice@corp.test', name: 'Alice Directory', status: 'active' });
    expect(me.body.roleIds).toEqual([memberRoleId]);
    const admin = client(server.url, company.token);
    expect((await admin.get(`/teams/${teamId}`)).body.memberIds).toContain(me.body.id);
    // The sign-in log and the audit name the directory.
    const log = await admin.get(`/users/user-login-logs/${me.body.id}`);
    expect(log.body.content[0]).toMatchObject({ success: true, provider: { id: providerId, type: 'ldap', name: 'Corp Directory' } });
    // A second sign-in finds the same person (no second account).
    expect((await login('alice', ALICE)).status).toBe(200);
    const users = await admin.get('/users?search=alice');
    expect(JSON.stringify(users.body).match(/alice@corp\.test/g)).toHaveLength(1);
  });

  it('answers a wrong password and an unknown user alike: 401 INVALID_CREDENTIALS with the same message', async () => {
    const wrong = await login('bob', 'not-bobs-password');
    const unknown = await login('nobody-here', 'whatever-password');
    const empty = await login('bob', '');
    expect(wrong.status).toBe(401);
    expect(errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    expect(unknown.status).toBe(401);
    expect(errorCode(unknown)).toBe('INVALID_CREDENTIALS');
    expect(unknown.body.message).toBe(wrong.body.message);
    // An empty password is an anonymous bind to many directories: refused before it reaches the directory.
    expect(empty.status).toBe(400);
    // Nobody was provisioned by the failures.
    const users = await client(server.url, company.token).get('/users?search=bob');
    expect(JSON.stringify(users.body)).not.toContain('bob@corp.test');
  });

  it('refuses a person the directory has locked or removed, even one who signed in before', async () => {
    expect((await login('bob', 'bob-directory-pass')).status).toBe(200);
    expect((await login('carol', 'carol-directory-pass')).status).toBe(200);
    // The directory's password policy locks bob's account; carol leaves the company.
    await directory.modify('dn: uid=bob,ou=people,dc=corp,dc=test\nchangetype: modify\nadd: pwdAccountLockedTime\npwdAccountLockedTime: 000001010000Z\n');
    await directory.remove('uid=carol,ou=people,dc=corp,dc=test');
    const locked = await login('bob', 'bob-directory-pass');
    const removed = await login('carol', 'carol-directory-pass');
    expect([locked.status, errorCode(locked)]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect([removed.status, errorCode(removed)]).toEqual([401, 'INVALID_CREDENTIALS']);
  });

  it('escapes the username inside the search filter: wildcards and filter syntax find nobody', async () => {
    for (const username of ['*', 'a*', 'alice)(uid=*', '*)(mail=alice@corp.test', 'alice)(|(uid=*', 'alice\\2a', 'alice\\29(uid=*']) {
      const res = await login(username, ALICE);
      expect([username, res.status, errorCode(res)]).toEqual([username, 401, 'INVALID_CREDENTIALS']);
    }
  });

  it('never shows the bind password; public answers and sign-in errors carry neither the bind DN nor its password', async () => {
    const admin = client(server.url, company.token);
    const one = await admin.get(`/identity-providers/${providerId}`);
    expect(one.body.secretsSet).toEqual(['bindPassword']);
    expect(one.body.config.bindPassword).toBeUndefined();
    const answers = [
      JSON.stringify((await admin.get('/identity-providers')).body),
      JSON.stringify(one.body),
      JSON.stringify((await admin.post(`/identity-providers/${providerId}/test`, {})).body),
      JSON.stringify((await admin.get('/audit/events?eventType=IdentityProviderCreated')).body),
    ];
    for (const a of answers) expect(a).not.toContain(READER_PASSWORD);
    const offered = await http(server.url, 'GET', '/api/v1/auth/providers?email=someone@corp.test');
    expect(offered.body).toEqual([{ id: providerId, type: 'ldap', name: 'Corp Directory', enforce: false }]);
    const publicAnswers = [JSON.stringify(offered.body), JSON.stringify((await login('bob', 'wrong-password-x')).body), JSON.stringify((await login('*', 'x-password')).body)];
    for (const a of publicAnswers) {
      expect(a).not.toContain(READER_PASSWORD);
      expect(a).not.toContain('cn=reader');
    }
  });

  it('a search account the directory refuses is a directory fault (SSO_FAILED), not the person’s wrong password, and names no secret', async () => {
    const admin = client(server.url, company.token);
    const current = (await admin.get(`/identity-providers/${providerId}`)).body;
    const { id: _id, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = current;
    const broken = await admin.post('/identity-providers', { ...settings, type: 'ldap', name: 'Broken Directory', domains: ['broken.test'], config: { ...settings.config, bindPassword: 'not-the-reader-password' } });
    expect(broken.status).toBe(201);
    const res = await login('dave', 'dave-directory-pass', broken.body.id);
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('SSO_FAILED');
    expect(JSON.stringify(res.body)).not.toContain('not-the-reader-password');
    expect(JSON.stringify(res.body)).not.toContain('cn=reader');
    const tried = await admin.post(`/identity-providers/${broken.body.id}/test`, {});
    expect(tried.status).toBe(400);
    expect(JSON.stringify(tried.body)).not.toContain('not-the-reader-password');
    expect((await admin.delete(`/identity-providers/${broken.body.id}`)).status).toBe(204);
  });

  it('enforced, the domain cannot use a platform password, while the directory still signs people in', async () => {
    const admin = client(server.url, company.token);
    const current = (await admin.get(`/identity-providers/${providerId}`)).body;
    const { id: _id, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = current;
    expect((await admin.put(`/identity-providers/${providerId}`, { ...settings, enforce: true })).status).toBe(200);
    const password = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: 'alice@corp.test', password: ALICE } });
    expect(password.status).toBe(403);
    expect(errorCode(password)).toBe('SSO_REQUIRED');
    expect(password.body.details[0].provider).toEqual({ id: providerId, type: 'ldap', name: 'Corp Directory' });
    // The bind password was kept (left out of the change): the directory still answers.
    expect((await login('alice', ALICE)).status).toBe(200);
  });
});
