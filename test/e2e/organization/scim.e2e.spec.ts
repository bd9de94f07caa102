import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsmasq, verifyDomain, type TestDns } from '#test/helpers/dns.js';
import { client, signIn, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type JsonResponse, type TestServer } from '#test/helpers/server.js';

/**
 * SCIM 2.0 provisioning as directories send it: the request shapes of Okta (userName filter, PUT,
 * `active` as a boolean, group member PATCH with values) and of Entra ID (PATCH `Replace` with
 * `"False"` strings, `members[value eq "…"]` removal), against the running server through the gateway.
 */
let server: TestServer;
let dns: TestDns;
let company: SignedUpCompany;
let other: SignedUpCompany;
let token: string;
let tokenId: string;
let memberRoleId: number;

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** A SCIM request with the directory's token and media type. */
function scim(method: string, path: string, body?: unknown, bearer = token): Promise<JsonResponse> {
  return http(server.url, method, `/scim/v2${path}`, {
    ...(body !== undefined ? { rawBody: JSON.stringify(body) } : {}),
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}) },
  });
}

const oktaUser = (email: string, given: string, family: string) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: given, familyName: family },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: `${given} ${family}`,
  active: true,
});

beforeAll(async () => {
  dns = await startDnsmasq();
  server = await startTestServer({ DNS_SERVERS: dns.server });
  company = await signUpCompany(server.url, 'scim');
  // SCIM creates people only at the company's verified domains.
  await verifyDomain(server.url, company.token, 'scim.test', dns);
  other = await signUpCompany(server.url, 'scim-other');
  const admin = client(server.url, company.token);
  memberRoleId = (await admin.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  const created = await admin.post('/scim-tokens', { name: 'Okta', roleIds: [memberRoleId] });
  expect(created.status).toBe(201);
  expect(created.body.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
  token = created.body.token;
  tokenId = created.body.id;
});

afterAll(async () => {
  await server?.stop();
  await dns?.stop();
});

describe('SCIM tokens', () => {
  it('lists a token by its prefix and never its value', async () => {
    const list = await client(server.url, company.token).get('/scim-tokens');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: tokenId, name: 'Okta', prefix: token.slice(0, 13), roleIds: [memberRoleId], revokedAt: null })]);
    expect(JSON.stringify(list.body)).not.toContain(token);
  });

  it('refuses requests without a valid token in SCIM’s error shape', async () => {
    const res = await scim('GET', '/Users', undefined, 'scim_not-a-real-token-at-all-xxxxxxxxxxxxxxxxxxxxx');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(res.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401', code: 'UNAUTHORIZED' });
    expect((await http(server.url, 'GET', '/scim/v2/Users', { token: company.token })).status).toBe(401);
  });

  it('refuses a token whose roles the administrator could not grant, and another company’s token id', async () => {
    const admin = client(server.url, company.token);
    expect(errorCode(await admin.post('/scim-tokens', { name: 'Bad', roleIds: [999_999] }))).toBe('NOT_FOUND');
    expect((await client(server.url, other.token).delete(`/scim-tokens/${tokenId}`)).status).toBe(404);
  });
});

describe('SCIM Users', () => {
  let aliceId: string;

  it('provisions a user the way Okta does: created active, with the token’s roles, found by userName', async () => {
    const created = await scim('POST', '/Users', oktaUser('alice@scim.test', 'Alice', 'Tester'));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(created.body).toMatchObject({ schemas: [USER], userName: 'alice@scim.test', name: { formatted: 'Alice Tester', givenName: 'Alice', familyName: 'Tester' }, active: true });
    aliceId = created.body.id;
    expect(created.headers.get('location')).toBe(`${server.url}/scim/v2/Users/${aliceId}`);

    const found = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "Alice@scim.test"')}&startIndex=1&count=100`);
    expect(found.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.body.Resources[0].id).toBe(aliceId);
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@scim.test"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });

    const user = await client(server.url, company.token).get(`/users/${aliceId}`);
    expect(user.body).toMatchObject({ email: 'alice@scim.test', status: 'active', roleIds: [memberRoleId] });
  });

  it('answers 409 uniqueness for an address that exists, and creates nothing', async () => {
    const again = await scim('POST', '/Users', oktaUser('alice@scim.test', 'Alice', 'Again'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: '409', scimType: 'uniqueness', code: 'SCIM_UNIQUENESS' });
    const list = await scim('GET', '/Users');
    expect(list.body.Resources.filter((u: { userName: string }) => u.userName === 'alice@scim.test')).toHaveLength(1);
  });

  it('refuses bad input with a SCIM type and changes nothing', async () => {
    expect((await scim('POST', '/Users', { schemas: [USER], userName: 'not-an-address' })).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('title co "x"')}`)).body).toMatchObject({ status: '400', scimType: 'invalidFilter' });
    expect((await scim('PATCH', `/Users/${aliceId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] })).body).toMatchObject({ scimType: 'invalidValue' });
    expect((await scim('PATCH', `/Users/${aliceId}`, { Operations: [{ op: 'replace', path: 'active', value: false }] })).body).toMatchObject({ scimType: 'invalidSyntax' });
    expect((await scim('PATCH', `/Users/${aliceId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: 'mallory@scim.test' }] })).body).toMatchObject({ scimType: 'mutability' });
    const raw = await http(server.url, 'POST', '/scim/v2/Users', { rawBody: '{"userName": ', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' } });
    expect(raw.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    const user = await client(server.url, company.token).get(`/users/${aliceId}`);
    expect(user.body).toMatchObject({ email: 'alice@scim.test', status: 'active' });
  });

  it('refuses names over 200 characters and addresses over 254 (400 invalidValue), creating and changing nobody', async () => {
    const long = 'n'.repeat(100_000);
    const over = 'n'.repeat(201);
    const aliceBefore = (await client(server.url, company.token).get(`/users/${aliceId}`)).body as { name: string; title: string | null };
    const created = await scim('POST', '/Users', { ...oktaUser('longname@scim.test', long, 'Doe') });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidValue', detail: 'name.givenName is longer than 200 characters' });
    for (const body of [
      { ...oktaUser('longname@scim.test', 'Ann', 'Doe'), name: { formatted: over } },
      { ...oktaUser('longname@scim.test', 'Ann', 'Doe'), name: {}, displayName: over },
      { ...oktaUser('longname@scim.test', 'Ann', over) },
      { ...oktaUser('longname@scim.test', 'Ann', 'Doe'), userName: `${'a'.repeat(250)}@scim.test` },
    ]) {
      expect((await scim('POST', '/Users', body)).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    }
    // Two parts within the bound that make a full name beyond it.
    const halves = await scim('POST', '/Users', { ...oktaUser('longname@scim.test', 'g'.repeat(150), 'f'.repeat(150)), displayName: 'G F' });
    expect(halves.body).toMatchObject({ status: '400', scimType: 'invalidValue', detail: 'name is longer than 200 characters' });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "longname@scim.test"')}`)).body.totalResults).toBe(0);
    for (const op of [{ op: 'replace', path: 'displayName', value: long }, { op: 'replace', value: { name: { givenName: over } } }, { op: 'replace', path: 'title', value: 't'.repeat(129) }]) {
      expect((await scim('PATCH', `/Users/${aliceId}`, { schemas: [PATCH], Operations: [op] })).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    }
    // At the bound itself a name is taken.
    const at = await scim('POST', '/Users', oktaUser('longname@scim.test', 'g'.repeat(100), 'f'.repeat(99)));
    expect(at.status).toBe(201);
    expect(at.body.displayName).toHaveLength(200);
    expect((await scim('DELETE', `/Users/${at.body.id}`)).status).toBe(204);
    expect((await client(server.url, company.token).get(`/users/${aliceId}`)).body).toMatchObject({ name: aliceBefore.name, title: aliceBefore.title });
  });

  it('deactivates a user the way Entra ID does ("False" as a string): they cannot sign in and their tokens end at once', async () => {
    const admin = client(server.url, company.token);
    await admin.put(`/users/${aliceId}/password`, { password: 'alice-Passw0rd!' });
    const session = await signIn(server.url, 'alice@scim.test', 'alice-Passw0rd!');
    expect(session.status).toBe(200);
    const aliceToken = session.body.token;
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: aliceToken })).status).toBe(200);

    const patched = await scim('PATCH', `/Users/${aliceId}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(patched.status).toBe(200);
    expect(patched.body.active).toBe(false);
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: aliceToken })).status).toBe(401);
    expect((await signIn(server.url, 'alice@scim.test', 'alice-Passw0rd!')).status).toBe(401);

    // Okta reactivates with a PUT of the whole resource.
    const put = await scim('PUT', `/Users/${aliceId}`, { ...oktaUser('alice@scim.test', 'Alice', 'Renamed'), active: true });
    expect(put.body).toMatchObject({ active: true, displayName: 'Alice Renamed' });
    expect((await signIn(server.url, 'alice@scim.test', 'alice-Passw0rd!')).status).toBe(200);

    // The audit history holds what the directory did, with no acting user (the token acted).
    const audit = await admin.get(`/audit/events?resourceType=user&resourceId=${aliceId}&size=50`);
    const byDirectory = (audit.body.content as { eventType: string; actorId: number | null }[]).filter((e) => e.actorId === null).map((e) => e.eventType);
    expect(byDirectory).toEqual(expect.arrayContaining(['UserRegistered', 'UserDeactivated', 'UserReactivated', 'UserUpdated']));
  });

  it('keeps the wall: another company’s user is 404, and its directory lists none of ours', async () => {
    const mine = (await scim('POST', '/Users', oktaUser('bob@scim.test', 'Bob', 'Builder'))).body.id as string;
    const otherToken = (await client(server.url, other.token).post('/scim-tokens', { name: 'Other IdP' })).body.token as string;
    expect((await scim('GET', `/Users/${mine}`, undefined, otherToken)).status).toBe(404);
    expect((await scim('PATCH', `/Users/${mine}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] }, otherToken)).status).toBe(404);
    expect((await scim('DELETE', `/Users/${mine}`, undefined, otherToken)).status).toBe(404);
    const theirs = await scim('GET', '/Users', undefined, otherToken);
    expect(theirs.body.Resources.map((u: { userName: string }) => u.userName)).not.toContain('bob@scim.test');
    expect((await client(server.url, company.token).get(`/users/${mine}`)).body.status).toBe('active');
  });

  it('deletes a user: gone from the directory, the address free again', async () => {
    const id = (await scim('POST', '/Users', oktaUser('carol@scim.test', 'Carol', 'Gone'))).body.id as string;
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
    const audit = await client(server.url, company.token).get(`/audit/events?resourceType=user&resourceId=${id}&eventType=UserDeleted`);
    expect(audit.body.content).toHaveLength(1);
    expect((await scim('POST', '/Users', oktaUser('carol@scim.test', 'Carol', 'Back'))).status).toBe(201);
  });
});

describe('SCIM Groups', () => {
  it('creates a team with members, adds and removes them (Okta and Entra ID shapes), renames and deletes it', async () => {
    const dave = (await scim('POST', '/Users', oktaUser('dave@scim.test', 'Dave', 'One'))).body.id as string;
    const erin = (await scim('POST', '/Users', oktaUser('erin@scim.test', 'Erin', 'Two'))).body.id as string;
    const created = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'QA Leads', members: [{ value: dave }] });
    expect(created.status).toBe(201);
    const groupId = created.body.id as string;
    expect(created.body.members.map((m: { value: string }) => m.value)).toEqual([dave]);

    await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: erin }] }] });
    const team = await client(server.url, company.token).get(`/teams/${groupId}`);
    expect(team.body.memberIds.map(String).sort()).toEqual([dave, erin].sort());

    await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: `members[value eq "${dave}"]` }] });
    await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'QA Leads (EU)' }] });
    const found = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "qa leads (eu)"')}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members.map((m: { value: string }) => m.value)).toEqual([erin]);

    // A member of another company is refused and nothing changes.
    const stranger = (await client(server.url, other.token).get('/users/me')).body.id as number;
    const refused = await scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: String(stranger) }] }] });
    expect(refused.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect((await scim('GET', `/Groups/${groupId}`)).body.members).toHaveLength(1);

    expect((await scim('POST', '/Groups', { displayName: 'QA Leads (EU)' })).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
    expect((await client(server.url, company.token).get(`/teams/${groupId}`)).status).toBe(404);
  });
});

describe('SCIM discovery and revocation', () => {
  it('describes what it supports', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true } });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    const schemas = await scim('GET', '/Schemas');
    expect(schemas.body.totalResults).toBe(2);
  });

  it('refuses a revoked token at once, and records the token’s life in the audit history', async () => {
    const admin = client(server.url, company.token);
    expect((await admin.delete(`/scim-tokens/${tokenId}`)).status).toBe(204);
    expect((await scim('GET', '/Users')).status).toBe(401);
    const audit = await admin.get('/audit/events?resourceType=scim-token');
    expect(audit.body.content.map((e: { eventType: string }) => e.eventType).sort()).toEqual(['ScimTokenCreated', 'ScimTokenRevoked']);
  });
});
