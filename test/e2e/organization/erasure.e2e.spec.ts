import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#shared/db/index.js';
import { client, createActiveUser, signIn, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { tablesHolding } from '#test/helpers/db-search.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { http, errorCode, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/*
 * Erasing a person on both SQL stores: a person is invited, activated, signs in from a browser of a
 * name of their own, edits their profile and is written about in an access review; then an administrator
 * erases them. Their name, address, username and browser are then in no row of any table (events,
 * read models, anything else the database holds) and in no export, the read models say "Erased person",
 * and the history's chain still verifies.
 */

const MARK = 'Quincunx';

describe.each(['PGlite', 'PostgreSQL'] as const)('erasing a person on %s', (store) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let server: TestServer;
  let company: SignedUpCompany;
  let admin: Client;
  let db: Database;
  let person: { id: number; email: string };
  let before: string;
  let reviewId: number;
  const reviewKey = `review-${store}`;
  const teamKey = `team-${store}`;

  const tablesHoldingHere = (needle: string) => tablesHolding(db, needle);
  const usageRows = async (userId: number) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM org_sign_in_session_usage u JOIN org_sign_in_sessions s USING (session_id) WHERE s.user_id = $1`, [userId])).rows[0]!.n;

  beforeAll(async () => {
    if (store === 'PostgreSQL') database = await createTestDatabase('qa_erasure');
    smtp = await startSmtpListener();
    server = await startTestServer({ ...(database ? { DATABASE_URL: database.url } : {}), SMTP_URL: smtp.url });
    db = server.process.platform.db;
    company = await signUpCompany(server.url, 'erasure');
    admin = client(server.url, company.token);
    const email = `zelda.${MARK.toLowerCase()}-${store.toLowerCase()}@example.test`;
    const made = await createActiveUser(server.url, admin, smtp.mails, { email, name: `Zelda ${MARK}`, password: 'zelda password 1', workspaceIds: [company.workspaceId] });
    person = { id: made.id, email };
    // A sign-in from a browser whose name only this person uses, a profile edit, a grant an access review writes about.
    const login = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: email, password: 'zelda password 1' }, headers: { 'user-agent': `${MARK}Browser/1.0` } });
    expect(login.status).toBe(200);
    // A request of theirs: the address it came from is kept beside their sign-in session.
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: login.body.token })).status).toBe(200);
    expect((await admin.put(`/users/${person.id}`, { title: `Chief ${MARK} Officer`, phone: '+44 20 7946 0000' })).status).toBe(200);
    // A review of the workspace keeps the names its grants had when it started.
    // Sent with an Idempotency-Key: its kept answer names them, as does the review.
    const review = await admin.post('/access-reviews', { workspaceId: company.workspaceId }, { 'idempotency-key': reviewKey });
    expect(review.status).toBe(201);
    // And an idempotent answer that names nobody.
    expect((await admin.post('/teams', { name: `Team of ${store}` }, { 'idempotency-key': teamKey })).status).toBe(201);
    expect(JSON.stringify(review.body)).toContain(`Zelda ${MARK}`);
    reviewId = review.body.id;
    before = new Date().toISOString();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    await database?.drop();
  });

  it('keeps the personal data sealed in the events from the start, readable until erased', async () => {
    const { rows } = await db.query<{ type: string; text: string }>(`SELECT type, payload::text || metadata::text AS text FROM es_events e WHERE e.payload::text ILIKE $1 OR e.metadata::text ILIKE $1`, [`%${MARK}%`]);
    expect(rows).toEqual([]);
    const sealed = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM es_events WHERE type = 'UserInvited' AND payload->>'email' LIKE 'pii:v1:user:' || $1 || ':%'`, [String(person.id)]);
    expect(sealed.rows[0]!.n).toBe(1);
    // The read models hold the values (the search below would find them).
    expect(Object.keys(await tablesHoldingHere(MARK))).toEqual(expect.arrayContaining(['public.org_users']));
    expect((await admin.get(`/users/${person.id}`)).body).toMatchObject({ name: `Zelda ${MARK}`, email: person.email });
    await expect.poll(() => usageRows(person.id), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('refuses bad erasures: oneself, another company\'s person, nobody', async () => {
    expect(errorCode(await admin.post(`/users/${company.userId}/erase`))).toBe('CONFLICT');
    const other = await signUpCompany(server.url, 'erasure-other');
    expect((await client(server.url, other.token).post(`/users/${person.id}/erase`)).status).toBe(404);
    expect((await admin.post('/users/987654321/erase')).status).toBe(404);
    expect((await admin.post('/users/nope/erase')).status).toBe(400);
    expect((await admin.get(`/users/${person.id}`)).status).toBe(200);
  });

  it('erases the person: no row of any table and no export holds their data, the chain still verifies', async () => {
    const erased = await admin.post(`/users/${person.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ userId: person.id, readModels: 'done' });
    // The read models every request leans on (users, sign-in sessions, device sessions, bookings) are
    // rewritten in place, never emptied; the audit history and the reports are rebuilt.
    expect(erased.body.rewritten).toEqual(expect.arrayContaining(['org-directory', 'sign-in-sessions', 'sign-in-log', 'df-sessions', 'df-reservations', 'df-session-sharing']));
    expect(erased.body.rebuilt).toEqual(expect.arrayContaining(['org-audit', 'org-access-reviews']));
    expect(erased.body.rebuilt).not.toContain('org-directory');
    expect(await usageRows(person.id)).toBe(0);
    expect(await tablesHoldingHere(MARK)).toEqual({});
    expect(await tablesHoldingHere('+44 20 7946')).toEqual({});
    const key = await db.query<{ sealed_key: string | null; erased_by: string }>(`SELECT sealed_key, erased_by FROM pii_keys WHERE subject = $1`, [`user:${person.id}`]);
    expect(key.rows).toEqual([{ sealed_key: null, erased_by: `user:${company.userId}` }]);

    expect((await admin.get('/audit/verify')).body).toMatchObject({ ok: true });
    const bundle = await fetch(new URL('/api/v1/audit/bundle', server.url), { headers: { authorization: `Bearer ${company.token}` } });
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).toLowerCase()).not.toContain(MARK.toLowerCase());
    const csv = await fetch(new URL(`/api/v1/access-review?format=csv&workspaceId=${company.workspaceId}&at=${encodeURIComponent(before)}`, server.url), { headers: { authorization: `Bearer ${company.token}` } });
    expect((await csv.text()).toLowerCase()).not.toContain(MARK.toLowerCase());
  });

  it('keeps no idempotent answer that named them: a repeat is told so and writes nothing; other answers are answered again', async () => {
    const repeat = await admin.post('/access-reviews', { workspaceId: company.workspaceId }, { 'idempotency-key': reviewKey });
    expect(repeat.status).toBe(409);
    expect(errorCode(repeat)).toBe('IDEMPOTENCY_ANSWER_NOT_KEPT');
    expect(repeat.body.message).toContain('erased');
    expect(JSON.stringify(repeat.body)).not.toContain(MARK);
    expect((await admin.get('/access-reviews')).body.content.map((r: { id: number }) => r.id)).toEqual([reviewId]);
    const team = await admin.post('/teams', { name: `Team of ${store}` }, { 'idempotency-key': teamKey });
    expect(team.status).toBe(201);
    expect(team.headers.get('idempotent-replayed')).toBe('true');
  });

  it('shows an erased person where they were named, and erasing again changes nothing', async () => {
    expect((await admin.get(`/users/${person.id}`)).status).toBe(404);
    const audit = (await admin.get('/audit/events?size=200')).body.content as { actorId: number | null; actorName: string | null; eventType: string }[];
    const theirs = audit.filter((e) => e.actorId === person.id);
    expect(theirs.length).toBeGreaterThan(0);
    for (const e of theirs) expect(e.actorName).toBe('Erased person');
    expect(audit.map((e) => e.eventType)).toContain('UserErased');
    const review = (await admin.get(`/access-review?workspaceId=${company.workspaceId}&at=${encodeURIComponent(before)}`)).body;
    expect(JSON.stringify(review)).toContain('Erased person');
    const started = (await admin.get(`/access-reviews/${reviewId}`)).body;
    expect(JSON.stringify(started)).toContain('Erased person');
    expect(JSON.stringify(started)).not.toContain(MARK);

    const again = await admin.post(`/users/${person.id}/erase`);
    expect(again.status).toBe(200);
    const first = await db.query<{ at: string }>(`SELECT erased_at::text AS at FROM pii_keys WHERE subject = $1`, [`user:${person.id}`]);
    expect(new Date(again.body.erasedAt).getTime()).toBe(new Date(first.rows[0]!.at).getTime());
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM es_events WHERE type = 'UserErased' AND stream_id = $1`, [`user-${person.id}`]);
    expect(rows[0]!.n).toBe(1);
    // Their address is free again, and signing in as them finds nobody.
    expect((await signIn(server.url, person.email, 'zelda password 1')).status).toBe(401);
  });
});
