import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_KEYS } from '#shared/permissions.js';
import { client, createActiveUser, signIn, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/*
 * Access reviews as of a date (GET /api/v1/access-review), against the real server on PGlite. Over five
 * simulated days (the platform's clock set back, a day further each step) a company creates people, roles
 * with keys, a team and a workspace, then assigns and removes roles, adds and removes team members,
 * grants and revokes access, changes a role's keys, deactivates a person and makes one administrator.
 * The review at the end of each day must be exactly what the script did by then; a grant revoked today
 * must still show at an earlier moment (the answer is folded from the events, not read from today's tables).
 */

const DAY = 86_400_000;
const START_DAYS_AGO = 20;

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let other: SignedUpCompany;
let admin: Client;
const realNow = () => new Date();

/** The end of each simulated day: the moments reviewed. */
const moments: Date[] = [];
const ids = { payments: 0, tester: 0, auditor: 0, qa: 0, alice: 0, bob: 0, carol: 0, adminRoles: [] as number[] };

/** Sets the platform's clock to `day` days after the start (a day ago or more: all in the past). */
function simulateDay(day: number): void {
  const shift = (START_DAYS_AGO - day) * DAY;
  server.process.platform.now = () => new Date(Date.now() - shift);
}

/** The administrator signs in again: a token from the day before has expired on the moved clock. */
async function adminSignsIn(): Promise<void> {
  const pair = await signIn(server.url, company.email, company.password);
  expect(pair.status).toBe(200);
  admin = client(server.url, pair.body.token);
}

const ok = async (p: Promise<{ status: number; body: unknown }>) => {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body as any;
};

const endOfDay = () => moments.push(server.process.platform.now());

async function day0(): Promise<void> {
  simulateDay(0);
  company = await signUpCompany(server.url, 'review');
  admin = client(server.url, company.token);
  ids.adminRoles = (await ok(admin.get('/users/me'))).roleIds;
  ids.tester = (await ok(admin.post('/roles', { name: 'Tester', permissions: ['TMT_READ', 'TMT_WRITE'] }))).id;
  ids.auditor = (await ok(admin.post('/roles', { name: 'Auditor', permissions: ['AUDIT_READ'] }))).id;
  const user = (email: string, roleIds: number[]) => createActiveUser(server.url, admin, smtp.mails, { email, roleIds, name: email.split('@')[0] });
  ids.alice = (await user('alice@review.test', [ids.tester])).id;
  ids.bob = (await user('bob@review.test', [])).id;
  ids.carol = (await user('carol@review.test', [])).id;
  ids.qa = (await ok(admin.post('/teams', { name: 'QA, "core"' }))).id;
  ids.payments = (await ok(admin.post('/workspaces', { name: 'Payments' }))).id;
  await ok(admin.post(`/workspaces/${ids.payments}/access/users`, { userId: ids.alice }));
  endOfDay();
}

async function day1(): Promise<void> {
  simulateDay(1);
  await adminSignsIn();
  await ok(admin.post(`/teams/${ids.qa}/members/${ids.bob}`));
  await ok(admin.post(`/teams/${ids.qa}/members/${ids.carol}`));
  await ok(admin.post(`/workspaces/${ids.payments}/access/teams`, { teamId: ids.qa }));
  await ok(admin.post(`/workspaces/${ids.payments}/members/roles`, { userId: ids.bob, roleIds: [ids.auditor] }));
  endOfDay();
}

async function day2(): Promise<void> {
  simulateDay(2);
  await adminSignsIn();
  await ok(admin.put(`/roles/${ids.tester}`, { permissions: ['TMT_READ', 'TMT_DELETE'] }));
  await ok(admin.put(`/users/${ids.carol}/roles`, { roleIds: [ids.tester] }));
  await ok(admin.delete(`/teams/${ids.qa}/members/${ids.bob}`));
  endOfDay();
}

async function day3(): Promise<void> {
  simulateDay(3);
  await adminSignsIn();
  await ok(admin.delete(`/workspaces/${ids.payments}/access/users/${ids.alice}`));
  await ok(admin.post(`/workspaces/${ids.payments}/access/users`, { userId: ids.bob }));
  await ok(admin.put(`/users/${ids.carol}/status`, { status: 'deactivated' }));
  endOfDay();
}

async function day4(): Promise<void> {
  simulateDay(4);
  await adminSignsIn();
  await ok(admin.patch(`/users/${ids.alice}/admin`, { isAdmin: true }));
  await ok(admin.delete(`/workspaces/${ids.payments}/members/${ids.bob}/roles/${ids.auditor}`));
  await ok(admin.delete(`/workspaces/${ids.payments}/access/teams/${ids.qa}`));
  endOfDay();
}

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  try {
    for (const day of [day0, day1, day2, day3, day4]) await day();
  } finally {
    server.process.platform.now = realNow;
  }
  await adminSignsIn();
  other = await signUpCompany(server.url, 'review-other');
}, 180_000);

afterAll(async () => {
  if (server) server.process.platform.now = realNow;
  await server?.stop();
  await smtp?.stop();
});

const review = (query: string, as: Client = admin) => as.get(`/access-review?${query}`);
const at = (moment: Date, extra = '') => review(`workspaceId=${ids.payments}&at=${encodeURIComponent(moment.toISOString())}${extra}`);

type Person = { id: number; status: string; isAdmin: boolean; access: { via: string; teamId?: number }[]; teams: { id: number }[]; roles: { id: number; scope: string; permissions: string[] }[]; permissions: string[] };

/** A review's people, each as one comparable line of facts. */
const summary = (body: { people: Person[] }) =>
  body.people.map((p) => ({
    id: p.id,
    status: p.status,
    access: p.access.map((a) => (a.via === 'team' ? `team:${a.teamId}` : a.via)),
    teams: p.teams.map((t) => t.id),
    roles: p.roles.map((r) => `${r.scope}:${r.id}:${r.permissions.join('+')}`),
    permissions: p.permissions,
  }));

const ALL = [...ALL_PERMISSION_KEYS].sort();
const adminRoles = () => ids.adminRoles.map((id) => expect.stringMatching(new RegExp(`^company:${id}:`)));
const ada = (teams: number[] = []) => ({ id: company.userId, status: 'active', access: ['admin'], teams, roles: adminRoles(), permissions: ALL });

describe('an access review as of a past moment', () => {
  it('day 0: the administrator, and Alice by a grant to her with the Tester role (TMT_READ, TMT_WRITE)', async () => {
    const r = await at(moments[0]!);
    expect(r.status).toBe(200);
    expect(r.body.at).toBe(moments[0]!.toISOString());
    expect(r.body.workspace).toEqual({ id: ids.payments, name: 'Payments', archived: false });
    expect(summary(r.body)).toEqual([
      ada(),
      { id: ids.alice, status: 'active', access: ['user'], teams: [], roles: [`company:${ids.tester}:TMT_READ+TMT_WRITE`], permissions: ['TMT_READ', 'TMT_WRITE'] },
    ]);
    expect(r.body.grants).toEqual({ users: [{ id: ids.alice, name: 'alice', email: 'alice@review.test' }], teams: [] });
  });

  it('day 1: Bob and Carol in through the team, Bob with the Auditor member role', async () => {
    const r = await at(moments[1]!);
    expect(summary(r.body)).toEqual([
      ada(),
      { id: ids.alice, status: 'active', access: ['user'], teams: [], roles: [`company:${ids.tester}:TMT_READ+TMT_WRITE`], permissions: ['TMT_READ', 'TMT_WRITE'] },
      { id: ids.bob, status: 'active', access: [`team:${ids.qa}`], teams: [ids.qa], roles: [`workspace:${ids.auditor}:AUDIT_READ`], permissions: ['AUDIT_READ'] },
      { id: ids.carol, status: 'active', access: [`team:${ids.qa}`], teams: [ids.qa], roles: [], permissions: [] },
    ]);
    expect(r.body.grants.teams).toEqual([{ id: ids.qa, name: 'QA, "core"', memberIds: [ids.bob, ids.carol] }]);
  });

  it("day 2: the Tester role's new keys, Carol's new role, Bob out of the team (his member role kept, no way in)", async () => {
    const r = await at(moments[2]!);
    expect(summary(r.body)).toEqual([
      ada(),
      { id: ids.alice, status: 'active', access: ['user'], teams: [], roles: [`company:${ids.tester}:TMT_DELETE+TMT_READ`], permissions: ['TMT_DELETE', 'TMT_READ'] },
      { id: ids.bob, status: 'active', access: [], teams: [], roles: [`workspace:${ids.auditor}:AUDIT_READ`], permissions: [] },
      { id: ids.carol, status: 'active', access: [`team:${ids.qa}`], teams: [ids.qa], roles: [`company:${ids.tester}:TMT_DELETE+TMT_READ`], permissions: ['TMT_DELETE', 'TMT_READ'] },
    ]);
  });

  it("day 3: Alice's grant revoked, Bob granted directly, Carol deactivated", async () => {
    const r = await at(moments[3]!);
    expect(summary(r.body)).toEqual([
      ada(),
      { id: ids.bob, status: 'active', access: ['user'], teams: [], roles: [`workspace:${ids.auditor}:AUDIT_READ`], permissions: ['AUDIT_READ'] },
      { id: ids.carol, status: 'deactivated', access: [`team:${ids.qa}`], teams: [ids.qa], roles: [`company:${ids.tester}:TMT_DELETE+TMT_READ`], permissions: ['TMT_DELETE', 'TMT_READ'] },
    ]);
    expect(r.body.grants.users.map((u: { id: number }) => u.id)).toEqual([ids.bob]);
  });

  it("day 4: Alice an administrator, Bob's member role removed, the team's access revoked", async () => {
    const r = await at(moments[4]!);
    expect(summary(r.body)).toEqual([
      ada(),
      { id: ids.alice, status: 'active', access: ['admin'], teams: [], roles: [`company:${ids.tester}:TMT_DELETE+TMT_READ`], permissions: ALL },
      { id: ids.bob, status: 'active', access: ['user'], teams: [], roles: [], permissions: [] },
    ]);
    expect(r.body.grants).toEqual({ users: [{ id: ids.bob, name: 'bob', email: 'bob@review.test' }], teams: [] });
  });
});

describe('who could use a permission key', () => {
  it('AUDIT_READ on day 1: the administrator, and Bob through his member role, in by the team', async () => {
    const r = await at(moments[1]!, '&permissionKey=AUDIT_READ');
    expect(r.status).toBe(200);
    const holders = r.body.permissionKey.holders;
    expect(r.body.permissionKey.key).toBe('AUDIT_READ');
    expect(holders.map((h: { userId: number }) => h.userId)).toEqual([company.userId, ids.bob]);
    expect(holders[0].through[0]).toEqual({ kind: 'admin' });
    expect(holders[1]).toEqual({
      userId: ids.bob,
      name: 'bob',
      email: 'bob@review.test',
      through: [{ kind: 'role', roleId: ids.auditor, roleName: 'Auditor', scope: 'workspace' }],
      access: [{ via: 'team', teamId: ids.qa, teamName: 'QA, "core"' }],
    });
  });

  it('TMT_READ on day 2 and day 3: the deactivated Carol no longer could, though her role still gave it', async () => {
    const day2 = (await at(moments[2]!, '&permissionKey=TMT_READ')).body.permissionKey.holders;
    expect(day2.map((h: { userId: number }) => h.userId)).toEqual([company.userId, ids.alice, ids.carol]);
    expect(day2[1].through).toEqual([{ kind: 'role', roleId: ids.tester, roleName: 'Tester', scope: 'company' }]);
    expect(day2[2].access).toEqual([{ via: 'team', teamId: ids.qa, teamName: 'QA, "core"' }]);
    const day3 = (await at(moments[3]!, '&permissionKey=TMT_READ')).body.permissionKey.holders;
    expect(day3.map((h: { userId: number }) => h.userId)).toEqual([company.userId]);
  });

  it('TMT_WRITE after day 2: nobody but the administrator (the role lost the key)', async () => {
    const before = (await at(moments[1]!, '&permissionKey=TMT_WRITE')).body.permissionKey.holders;
    expect(before.map((h: { userId: number }) => h.userId)).toEqual([company.userId, ids.alice]);
    const after = (await at(moments[2]!, '&permissionKey=TMT_WRITE')).body.permissionKey.holders;
    expect(after.map((h: { userId: number }) => h.userId)).toEqual([company.userId]);
  });
});

describe('CSV', () => {
  it('one row per person and grant, with a header, quoted where needed (format=csv or Accept: text/csv)', async () => {
    const byFormat = await at(moments[1]!, '&format=csv');
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(byFormat.headers.get('content-disposition')).toMatch(/^attachment; filename="access-review-\d+-.*\.csv"$/);
    const lines = (byFormat.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,workspaceId,userId,name,email,status,grant,grantId,grantName,via,permissions');
    const m = moments[1]!.toISOString();
    const bob = lines.filter((l) => l.includes(`,${ids.bob},bob,`));
    expect(bob).toEqual([
      `${m},${ids.payments},${ids.bob},bob,bob@review.test,active,workspace-access,${ids.qa},"QA, ""core""",team,`,
      `${m},${ids.payments},${ids.bob},bob,bob@review.test,active,team-member,${ids.qa},"QA, ""core""",,`,
      `${m},${ids.payments},${ids.bob},bob,bob@review.test,active,workspace-role,${ids.auditor},Auditor,,AUDIT_READ`,
    ]);
    const alice = lines.filter((l) => l.includes(`,${ids.alice},alice,`));
    expect(alice).toEqual([
      `${m},${ids.payments},${ids.alice},alice,alice@review.test,active,workspace-access,,,user,`,
      `${m},${ids.payments},${ids.alice},alice,alice@review.test,active,company-role,${ids.tester},Tester,,TMT_READ TMT_WRITE`,
    ]);
    const byAccept = await http(server.url, 'GET', `/api/v1/access-review?workspaceId=${ids.payments}&at=${encodeURIComponent(m)}`, {
      token: (await signIn(server.url, company.email, company.password)).body.token,
      headers: { accept: 'text/csv' },
    });
    expect(byAccept.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(byAccept.body).toBe(byFormat.body);
  });

  it('with a permission key: only those who could use it, by their ways in and what gave them the key', async () => {
    const r = await at(moments[1]!, '&permissionKey=AUDIT_READ&format=csv');
    const rows = (r.body as string).trimEnd().split('\r\n').slice(1);
    expect(rows.filter((l) => l.includes(`,${ids.bob},bob,`)).map((l) => l.split(',')[6])).toEqual(['workspace-access', 'workspace-role']);
    expect(rows.some((l) => l.includes(`,${ids.carol},carol,`) || l.includes(`,${ids.alice},alice,`))).toBe(false);
  });
});

describe('rebuilt from the events, not from today', () => {
  it("a grant revoked today is gone now and still there at an earlier moment", async () => {
    await ok(admin.delete(`/workspaces/${ids.payments}/access/users/${ids.bob}`));
    const now = await review(`workspaceId=${ids.payments}`);
    expect(now.status).toBe(200);
    expect(summary(now.body).map((p) => p.id)).toEqual([company.userId, ids.alice]);
    expect((await admin.get(`/workspaces/${ids.payments}/access`)).body.users).toEqual([]);
    const past = await at(moments[4]!);
    expect(summary(past.body).find((p) => p.id === ids.bob)).toMatchObject({ access: ['user'] });
  });

  it('answers without writing anything: the log holds as many events after the reviews as before', async () => {
    const count = async () => Number((await server.process.platform.db.query<{ n: string }>('SELECT count(*)::text AS n FROM es_events')).rows[0]!.n);
    const before = await count();
    for (const m of moments) expect((await at(m, '&permissionKey=TMT_READ')).status).toBe(200);
    expect((await at(moments[0]!, '&format=csv')).status).toBe(200);
    expect(await count()).toBe(before);
  });
});

describe('the OpenAPI document', () => {
  it('declares the route with its query parameters and the AccessReview answer', async () => {
    const doc = (await http(server.url, 'GET', '/openapi.json')).body;
    const op = doc.paths['/api/v1/access-review']?.get;
    expect(op?.summary).toMatch(/AUDIT_READ/);
    expect(op.parameters.map((p: { name: string; required?: boolean }) => `${p.name}${p.required ? '!' : ''}`).sort()).toEqual(['at', 'format', 'permissionKey', 'workspaceId!']);
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AccessReview' });
    expect(Object.keys(doc.components.schemas.AccessReview.properties)).toEqual(['at', 'workspace', 'people', 'grants', 'permissionKey']);
  });
});

describe('the moment asked', () => {
  it('takes a date alone as its midnight UTC, and a time with any zone', async () => {
    const day = moments[2]!.toISOString().slice(0, 10);
    const byDate = await review(`workspaceId=${ids.payments}&at=${day}`);
    expect(byDate.status).toBe(200);
    expect(byDate.body.at).toBe(`${day}T00:00:00.000Z`);
    // The same instant written at +02:00: 14:00:00+02:00 is 12:00:00Z.
    const instant = Math.floor(moments[1]!.getTime() / 1000) * 1000;
    const written = `${new Date(instant + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
    const byZone = await review(`workspaceId=${ids.payments}&at=${encodeURIComponent(written)}`);
    expect(byZone.status, JSON.stringify(byZone.body)).toBe(200);
    expect(byZone.body.at).toBe(new Date(instant).toISOString());
  });
});

describe('bad input', () => {
  it('an `at` that is not a time: 400 VALIDATION_FAILED naming it', async () => {
    for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '2026-02-30', '2026-11-01T12:00:00', '12345']) {
      const r = await review(`workspaceId=${ids.payments}&at=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(errorCode(r)).toBe('VALIDATION_FAILED');
      expect(r.body.details).toEqual([{ path: 'query.at', message: expect.any(String) }]);
    }
  });

  it('an `at` in the future: 400 AT_IN_FUTURE', async () => {
    const r = await review(`workspaceId=${ids.payments}&at=${encodeURIComponent(new Date(Date.now() + DAY).toISOString())}`);
    expect(r.status).toBe(400);
    expect(errorCode(r)).toBe('AT_IN_FUTURE');
  });

  it("another company's workspace, an unknown one, and one that did not exist yet then: 404", async () => {
    const theirs = await review(`workspaceId=${other.workspaceId}`);
    expect(theirs.status).toBe(404);
    expect(errorCode(theirs)).toBe('NOT_FOUND');
    expect((await review(`workspaceId=${other.workspaceId}`, client(server.url, other.token))).status).toBe(200);
    expect((await review('workspaceId=999999')).status).toBe(404);
    const beforeIt = new Date(moments[0]!.getTime() - 2 * DAY);
    expect((await at(beforeIt)).status).toBe(404);
  });

  it('a permission key outside the catalog, or no workspace: 400', async () => {
    expect(errorCode(await review(`workspaceId=${ids.payments}&permissionKey=NOT_A_KEY`))).toBe('VALIDATION_FAILED');
    expect((await review('')).status).toBe(400);
  });

  it('a caller without AUDIT_READ: 403; without a token: 401', async () => {
    const bob = await signIn(server.url, 'bob@review.test', 'member password 1');
    expect(bob.status).toBe(200);
    const r = await review(`workspaceId=${ids.payments}`, client(server.url, bob.body.token));
    expect(r.status).toBe(403);
    expect(errorCode(r)).toBe('FORBIDDEN');
    expect((await http(server.url, 'GET', `/api/v1/access-review?workspaceId=${ids.payments}`)).status).toBe(401);
  });
});
