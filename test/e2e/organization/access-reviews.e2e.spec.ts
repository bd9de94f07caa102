import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/*
 * The access review workflow (/api/v1/access-reviews) against the real server on PGlite. A workspace has
 * grants of every kind: users granted access, a team granted access and its members, member roles there,
 * company roles and administrators of the people who can enter. An administrator starts a review, marks
 * some grants keep and some revoke (one of them removed meanwhile by hand), completes it; the revoked
 * grants are gone (the directory and a fresh as-of review agree), the kept ones remain, the evidence
 * (JSON and CSV) lists every decision, and the audit history has the review's events beside the
 * revocations' ordinary ones, all of one request. Bad input is refused with its code and changes nothing.
 */

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;
let other: SignedUpCompany;
let admin: Client;
let otherAdmin: Client;

const ids = { payments: 0, qa: 0, tester: 0, auditor: 0, alice: 0, bob: 0, carol: 0, dave: 0, erin: 0, frank: 0, adminRoles: [] as number[] };
let frank: Client;
let erin: Client;
let reviewId = 0;
/** A second review of the workspace, started beside the first. */
let secondId = 0;
let items: { id: string; kind: string; user: { id: number } | null; team: { id: number } | null; role: { id: number } | null }[] = [];

const ok = async (p: Promise<{ status: number; body: unknown }>) => {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body as any;
};

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  company = await signUpCompany(server.url, 'reviews');
  other = await signUpCompany(server.url, 'reviews-other');
  admin = client(server.url, company.token);
  otherAdmin = client(server.url, other.token);
  ids.adminRoles = (await ok(admin.get('/users/me'))).roleIds;
  ids.tester = (await ok(admin.post('/roles', { name: 'Tester', permissions: ['TMT_READ', 'TMT_WRITE'] }))).id;
  ids.auditor = (await ok(admin.post('/roles', { name: 'Auditor', permissions: ['AUDIT_READ'] }))).id;
  const user = (name: string, roleIds: number[] = []) => createActiveUser(server.url, admin, smtp.mails, { email: `${name.toLowerCase()}-${process.pid}@reviews.test`, roleIds, name });
  ids.alice = (await user('Alice', [ids.tester])).id;
  ids.bob = (await user('Bob')).id;
  ids.carol = (await user('Carol')).id;
  ids.dave = (await user('Dave')).id;
  const e = await user('Erin');
  ids.erin = e.id;
  erin = client(server.url, e.token);
  const f = await user('Frank', [ids.auditor]);
  ids.frank = f.id;
  frank = client(server.url, f.token);
  ids.payments = (await ok(admin.post('/workspaces', { name: 'Payments' }))).id;
  ids.qa = (await ok(admin.post('/teams', { name: 'QA' }))).id;
  await ok(admin.post(`/teams/${ids.qa}/members/${ids.bob}`));
  await ok(admin.post(`/teams/${ids.qa}/members/${ids.erin}`));
  await ok(admin.post(`/workspaces/${ids.payments}/access/users`, { userId: ids.alice }));
  await ok(admin.post(`/workspaces/${ids.payments}/access/users`, { userId: ids.carol }));
  await ok(admin.post(`/workspaces/${ids.payments}/access/teams`, { teamId: ids.qa }));
  await ok(admin.post(`/workspaces/${ids.payments}/members/roles`, { userId: ids.bob, roleIds: [ids.auditor] }));
  await ok(admin.post(`/workspaces/${ids.payments}/members/roles`, { userId: ids.carol, roleIds: [ids.tester] }));
  await ok(admin.patch(`/users/${ids.dave}/admin`, { isAdmin: true }));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const decide = (itemId: string, decision: unknown, note?: string, as: Client = admin) => as.put(`/access-reviews/${reviewId}/items/${itemId}`, { decision, ...(note !== undefined ? { note } : {}) });
const itemId = (kind: string, ...parts: number[]) => [kind, ...parts].join('-');
/** The grants to revoke, and the ones to keep: everything else. */
const REVOKE = () => [
  itemId('workspace-user', ids.alice),
  itemId('team-member', ids.qa, ids.bob),
  itemId('team-member', ids.qa, ids.erin),
  itemId('workspace-role', ids.carol, ids.tester),
  itemId('company-role', ids.alice, ids.tester),
  itemId('admin', ids.dave),
];

describe('an access review of a workspace', () => {
  it('starts with every grant of the workspace as an item with a stable id, all undecided', async () => {
    const r = await admin.post('/access-reviews', { workspaceId: ids.payments });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    reviewId = r.body.id;
    items = r.body.items;
    expect(r.body).toMatchObject({
      workspace: { id: ids.payments, name: 'Payments' },
      status: 'open',
      startedBy: { id: company.userId, email: company.email },
      completedAt: null,
      completedBy: null,
    });
    expect(items.map((i) => i.id)).toEqual([
      itemId('workspace-user', ids.alice),
      itemId('workspace-user', ids.carol),
      itemId('workspace-team', ids.qa),
      itemId('team-member', ids.qa, ids.bob),
      itemId('team-member', ids.qa, ids.erin),
      itemId('admin', company.userId),
      ...ids.adminRoles.map((role) => itemId('company-role', company.userId, role)),
      itemId('company-role', ids.alice, ids.tester),
      itemId('workspace-role', ids.bob, ids.auditor),
      itemId('workspace-role', ids.carol, ids.tester),
      itemId('admin', ids.dave),
    ]);
    expect(r.body.items.find((i: { id: string }) => i.id === itemId('company-role', ids.alice, ids.tester))).toMatchObject({
      kind: 'company-role',
      user: { id: ids.alice, name: 'Alice' },
      role: { id: ids.tester, name: 'Tester', permissions: ['TMT_READ', 'TMT_WRITE'] },
      decision: null,
      outcome: null,
    });
    expect(r.body.counts).toEqual({ items: items.length, undecided: items.length, keep: 0, revoke: 0 });
    // The same grants have the same ids in a second review.
    const again = await ok(admin.post('/access-reviews', { workspaceId: ids.payments }));
    secondId = again.id;
    expect(again.items.map((i: { id: string }) => i.id)).toEqual(items.map((i) => i.id));
    const list = await ok(admin.get(`/access-reviews?workspaceId=${ids.payments}`));
    expect(list.content.map((x: { id: number }) => x.id)).toEqual([again.id, reviewId]);
  });

  it('refuses a workspace of another company, an unknown one, and one that is no id', async () => {
    for (const workspaceId of [other.workspaceId, 99_999_999]) {
      const r = await admin.post('/access-reviews', { workspaceId });
      expect([r.status, errorCode(r)]).toEqual([404, 'NOT_FOUND']);
    }
    const bad = await admin.post('/access-reviews', { workspaceId: 'payments' });
    expect([bad.status, errorCode(bad)]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await ok(otherAdmin.get('/access-reviews'))).content).toEqual([]);
  });

  it('records decisions with their notes; a decision not keep or revoke, an unknown item and a bad item id are refused', async () => {
    const first = await decide(itemId('workspace-user', ids.alice), 'revoke', 'Moved to another team');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ decision: 'revoke', note: 'Moved to another team', decidedBy: { id: company.userId, email: company.email } });
    expect(Date.parse(first.body.decidedAt)).not.toBeNaN();
    const maybe = await decide(itemId('workspace-user', ids.carol), 'maybe');
    expect([maybe.status, errorCode(maybe)]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await decide(itemId('workspace-user', 424242), 'keep');
    expect([unknown.status, errorCode(unknown)]).toEqual([404, 'NOT_FOUND']);
    const badId = await decide('not an item', 'keep');
    expect([badId.status, errorCode(badId)]).toEqual([400, 'VALIDATION_FAILED']);
    // Revoking one's own administrator is refused, as its own route refuses it.
    const own = await decide(itemId('admin', company.userId), 'revoke');
    expect([own.status, errorCode(own)]).toEqual([409, 'CONFLICT']);
    const review = await ok(admin.get(`/access-reviews/${reviewId}`));
    expect(review.items.filter((i: { decision: string | null }) => i.decision !== null).map((i: { id: string }) => i.id)).toEqual([itemId('workspace-user', ids.alice)]);
  });

  it('refuses to complete while a grant is undecided, naming each, and changes nothing', async () => {
    const r = await admin.post(`/access-reviews/${reviewId}/complete`);
    expect([r.status, errorCode(r)]).toEqual([409, 'ACCESS_REVIEW_UNDECIDED']);
    expect(r.body.details.map((d: { itemId: string }) => d.itemId)).toEqual(items.map((i) => i.id).filter((id) => id !== itemId('workspace-user', ids.alice)));
    expect((await ok(admin.get(`/workspaces/${ids.payments}/access`))).users.map((u: { id: number }) => u.id)).toEqual([ids.alice, ids.carol]);
    expect((await ok(admin.get(`/access-reviews/${reviewId}`))).status).toBe('open');
  });

  it("answers 404 for another company's review, and 403 to a person without AUDIT_READ", async () => {
    for (const r of [
      await otherAdmin.get(`/access-reviews/${reviewId}`),
      await otherAdmin.put(`/access-reviews/${reviewId}/items/${itemId('workspace-user', ids.carol)}`, { decision: 'keep' }),
      await otherAdmin.post(`/access-reviews/${reviewId}/complete`),
      await otherAdmin.get(`/access-reviews/${reviewId}/evidence`),
    ]) {
      expect([r.status, errorCode(r)]).toEqual([404, 'NOT_FOUND']);
    }
    const forbidden = await erin.get(`/access-reviews/${reviewId}`);
    expect([forbidden.status, errorCode(forbidden)]).toEqual([403, 'FORBIDDEN']);
  });

  it('marks every grant; a completion by a reviewer without the keys the revocations need is refused and changes nothing', async () => {
    const revoke = new Set(REVOKE());
    for (const i of items) {
      if (i.id === itemId('workspace-user', ids.alice)) continue;
      await ok(decide(i.id, revoke.has(i.id) ? 'revoke' : 'keep', revoke.has(i.id) ? undefined : 'Still needed'));
    }
    const decided = await ok(admin.get(`/access-reviews/${reviewId}`));
    expect(decided.counts).toEqual({ items: items.length, undecided: 0, keep: items.length - revoke.size, revoke: revoke.size });
    // Frank holds AUDIT_READ (his Auditor role) but none of the keys the revocations' own routes ask.
    const refused = await frank.post(`/access-reviews/${reviewId}/complete`);
    expect([refused.status, errorCode(refused)]).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.message).toMatch(/WORKSPACE_MANAGE.*TEAM_MANAGE.*USER_MANAGE.*USER_ADMIN_MANAGE/);
    expect(await ok(admin.get(`/access-reviews/${reviewId}`))).toEqual(decided);
    expect((await ok(admin.get(`/users/${ids.dave}`))).isAdmin).toBe(true);
  });

  it('completes: revokes what was marked revoke by the ordinary commands, a grant gone meanwhile counted as done', async () => {
    // Erin leaves the team by hand before the review is completed.
    await ok(admin.delete(`/teams/${ids.qa}/members/${ids.erin}`));
    const r = await admin.post(`/access-reviews/${reviewId}/complete`, {}, { 'x-request-id': `complete-review-${reviewId}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'completed', completedBy: { id: company.userId } });
    const outcomes = Object.fromEntries(r.body.items.map((i: { id: string; outcome: unknown }) => [i.id, i.outcome]));
    for (const id of REVOKE()) {
      if (id === itemId('team-member', ids.qa, ids.erin)) expect(outcomes[id]).toMatchObject({ result: 'already-gone', message: expect.stringContaining('Already gone') });
      else expect(outcomes[id], id).toEqual({ result: 'revoked', code: null, message: null });
    }
    for (const i of items) if (!REVOKE().includes(i.id)) expect(outcomes[i.id], i.id).toBeNull();
  });

  it('leaves the revoked grants gone and the kept ones in place, as the directory and a fresh review as of now agree', async () => {
    const access = await ok(admin.get(`/workspaces/${ids.payments}/access`));
    expect(access.users.map((u: { id: number }) => u.id)).toEqual([ids.carol]);
    expect(access.teams.map((t: { id: number }) => t.id)).toEqual([ids.qa]);
    expect((await ok(admin.get(`/teams/${ids.qa}`))).memberIds).toEqual([]);
    expect((await ok(admin.get(`/users/${ids.alice}`))).roleIds).toEqual([]);
    expect((await ok(admin.get(`/users/${ids.dave}`))).isAdmin).toBe(false);
    expect((await ok(admin.get(`/users/${company.userId}`))).isAdmin).toBe(true);
    const members = await ok(admin.get(`/workspaces/${ids.payments}/members`));
    expect(members.find((m: { userId: number }) => m.userId === ids.carol).roles).toEqual([]);

    const now = await ok(admin.get(`/access-review?workspaceId=${ids.payments}`));
    expect(now.grants).toEqual({ users: [expect.objectContaining({ id: ids.carol })], teams: [{ id: ids.qa, name: 'QA', memberIds: [] }] });
    const people = Object.fromEntries(now.people.map((p: { id: number; access: unknown; roles: { id: number; scope: string }[] }) => [p.id, { access: p.access, roles: p.roles.map((x) => `${x.scope}:${x.id}`) }]));
    expect(Object.keys(people).map(Number).sort((a, b) => a - b)).toEqual([company.userId, ids.bob, ids.carol].sort((a, b) => a - b));
    expect(people[company.userId]!.access).toEqual([{ via: 'admin' }]);
    expect(people[ids.carol]).toEqual({ access: [{ via: 'user' }], roles: [] });
    // Bob's member role was kept; his way in (the team) was revoked.
    expect(people[ids.bob]).toEqual({ access: [], roles: [`workspace:${ids.auditor}`] });
  });

  it('refuses a second completion and a decision after completion, changing nothing', async () => {
    const before = await ok(admin.get(`/access-reviews/${reviewId}`));
    const twice = await admin.post(`/access-reviews/${reviewId}/complete`);
    expect([twice.status, errorCode(twice)]).toEqual([409, 'ACCESS_REVIEW_COMPLETED']);
    const late = await decide(itemId('workspace-user', ids.carol), 'revoke');
    expect([late.status, errorCode(late)]).toEqual([409, 'ACCESS_REVIEW_COMPLETED']);
    expect(await ok(admin.get(`/access-reviews/${reviewId}`))).toEqual(before);
    expect((await ok(admin.get(`/workspaces/${ids.payments}/access`))).users.map((u: { id: number }) => u.id)).toEqual([ids.carol]);
  });

  it('exports the evidence as JSON and CSV: who started and completed it, and every decision with who, when, the note and the outcome', async () => {
    const json = await admin.get(`/access-reviews/${reviewId}/evidence`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toBe(`attachment; filename="access-review-${reviewId}-evidence.json"`);
    const evidence = json.body;
    expect(evidence).toMatchObject({ id: reviewId, workspace: { id: ids.payments, name: 'Payments' }, status: 'completed', startedBy: { email: company.email }, completedBy: { email: company.email } });
    expect(Date.parse(evidence.completedAt)).toBeGreaterThanOrEqual(Date.parse(evidence.startedAt));
    expect(evidence.items).toHaveLength(items.length);
    for (const i of evidence.items) {
      expect(i.decision, i.id).toBe(REVOKE().includes(i.id) ? 'revoke' : 'keep');
      expect(i.decidedBy.email).toBe(company.email);
      expect(typeof i.grant).toBe('string');
    }
    expect(evidence.items.find((i: { id: string }) => i.id === itemId('workspace-user', ids.alice))).toMatchObject({ note: 'Moved to another team', outcome: { result: 'revoked' } });
    expect(evidence.items.find((i: { id: string }) => i.id === itemId('admin', ids.dave)).grant).toMatch(/^Dave <dave-\d+@reviews\.test> is a company administrator$/);

    const csv = await admin.get(`/access-reviews/${reviewId}/evidence?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (csv.body as string).trimEnd().split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.slice(0, 4)).toEqual(['reviewId', 'workspaceId', 'workspaceName', 'status']);
    expect(lines).toHaveLength(items.length + 1);
    const column = (line: string, name: string) => line.split(',')[header.indexOf(name)];
    const byItem = Object.fromEntries(lines.slice(1).map((l) => [column(l, 'itemId'), l]));
    for (const i of items) {
      expect(column(byItem[i.id]!, 'decision'), i.id).toBe(REVOKE().includes(i.id) ? 'revoke' : 'keep');
      expect(column(byItem[i.id]!, 'decidedByEmail')).toBe(company.email);
    }
    expect(column(byItem[itemId('team-member', ids.qa, ids.erin)]!, 'result')).toBe('already-gone');
    expect(column(byItem[itemId('workspace-user', ids.carol)]!, 'note')).toBe('Still needed');
    const viaAccept = await admin.get(`/access-reviews/${reviewId}/evidence`, { accept: 'text/csv' });
    expect(viaAccept.body).toBe(csv.body);
  });

  it("puts the review's events in the audit history, and the revocations' ordinary events of the same request", async () => {
    const audit = await ok(admin.get(`/audit/events?resourceType=access-review&resourceId=${reviewId}&size=100`));
    const types = audit.content.map((e: { eventType: string }) => e.eventType);
    expect(types[0]).toBe('AccessReviewCompleted');
    expect(types.at(-1)).toBe('AccessReviewStarted');
    expect(types.filter((t: string) => t === 'AccessReviewItemDecided')).toHaveLength(items.length);
    expect(audit.content[0]).toMatchObject({ resourceName: 'Access review of Payments', workspaceId: ids.payments, actorId: company.userId, correlationId: `complete-review-${reviewId}` });
    const sameRequest = await ok(admin.get(`/audit/events?size=100`));
    const revocations = sameRequest.content
      .filter((e: { correlationId: string | null; eventType: string }) => e.correlationId === `complete-review-${reviewId}` && !e.eventType.startsWith('AccessReview'))
      .map((e: { eventType: string; resourceId: string }) => `${e.eventType}:${e.resourceId}`)
      .sort();
    expect(revocations).toEqual(
      [`AdminRevoked:${ids.dave}`, `TeamMemberRemoved:${ids.qa}`, `UserRolesReplaced:${ids.alice}`, `WorkspaceAccessRevoked:${ids.payments}`, `WorkspaceMemberRoleRemoved:${ids.payments}`].sort(),
    );
  });

  it("refuses to revoke an archived workspace's grants until it is unarchived, changing nothing", async () => {
    const second = await ok(admin.get(`/access-reviews/${secondId}`));
    for (const i of second.items as { id: string }[]) {
      await ok(admin.put(`/access-reviews/${secondId}/items/${i.id}`, { decision: i.id === itemId('workspace-user', ids.carol) ? 'revoke' : 'keep' }));
    }
    await ok(admin.put(`/workspaces/${ids.payments}/archive`));
    try {
      const r = await admin.post(`/access-reviews/${secondId}/complete`);
      expect([r.status, errorCode(r)]).toEqual([409, 'WORKSPACE_ARCHIVED']);
      expect((await ok(admin.get(`/access-reviews/${secondId}`))).status).toBe('open');
    } finally {
      await ok(admin.put(`/workspaces/${ids.payments}/unarchive`));
    }
    const done = await ok(admin.post(`/access-reviews/${secondId}/complete`));
    expect(done.items.find((i: { id: string }) => i.id === itemId('workspace-user', ids.carol)).outcome).toMatchObject({ result: 'revoked' });
    // Its other grants marked keep; the ones the first review revoked were listed in it as they were at its start.
    expect((await ok(admin.get(`/workspaces/${ids.payments}/access`))).users).toEqual([]);
  });
});
