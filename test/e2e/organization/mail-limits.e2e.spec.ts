import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * Floods of what sends mail or creates companies, from one client address: the mails that reach the
 * SMTP listener stop at the per-recipient limit, requests past the per-address limit are refused 429
 * with `Retry-After`, and a password reset answers the same whether the account exists or its mails
 * for the hour are spent. The tests run in order and share the address's hourly counters.
 */
const MAIL_PER_ADDRESS = 14;
const MAIL_PER_EMAIL = 3;
const SIGNUP_PER_ADDRESS = 5;

let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let server: TestServer;
let company: SignedUpCompany;

const forgot = (email: string) => http(server.url, 'POST', '/api/v1/auth/forgot-password', { body: { email } });
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).length;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    APP_URL: 'https://qa.example.test',
    MAIL_MAX_PER_ADDRESS_PER_HOUR: String(MAIL_PER_ADDRESS),
    MAIL_MAX_PER_EMAIL_PER_HOUR: String(MAIL_PER_EMAIL),
    SIGNUP_MAX_PER_ADDRESS_PER_HOUR: String(SIGNUP_PER_ADDRESS),
  });
  // The first sign-up of this address's hour.
  company = await signUpCompany(server.url, 'mail-limits');
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('mail and sign-up limits', () => {
  it('sends at most the per-recipient limit of reset mails, answering every request the same, for a known and an unknown address', async () => {
    const answers = [];
    // 8 for the account, 2 for nobody: 10 of the address's 14.
    for (let i = 0; i < 8; i++) answers.push(await forgot(company.email));
    for (let i = 0; i < 2; i++) answers.push(await forgot('nobody-here@example.test'));
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.body).toEqual(answers[0]!.body);
    }
    expect(mailsTo(company.email)).toBe(MAIL_PER_EMAIL);
    expect(mailsTo('nobody-here@example.test')).toBe(0);
  });

  it('refuses an administrator a fourth invitation mail to one address within the hour, 429 with Retry-After', async () => {
    const admin = client(server.url, company.token);
    const invitee = 'invitee@example.test';
    const answers = [];
    // 4 more requests that send mail: the address is at 14 of 14 after them.
    for (let i = 0; i < 4; i++) answers.push(await admin.post('/users/invite', { email: invitee, roleIds: [] }));
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 429]);
    expect(errorCode(answers[3]!)).toBe('TOO_MANY_REQUESTS');
    expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(mailsTo(invitee)).toBe(MAIL_PER_EMAIL);
  });

  it('answers 429 with Retry-After past the per-address limit, the same for a known and an unknown account, and sends nothing more', async () => {
    const before = smtp.mails.length;
    const known = await forgot(company.email);
    const unknown = await forgot('nobody-here@example.test');
    for (const r of [known, unknown]) {
      expect(r.status).toBe(429);
      expect(errorCode(r)).toBe('TOO_MANY_REQUESTS');
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    expect({ ...known.body, message: '' }).toEqual({ ...unknown.body, message: '' });
    expect(smtp.mails.length).toBe(before);
  });

  it('lets one address sign up only so many companies an hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await http(server.url, 'POST', '/api/v1/auth/signup', {
        body: { email: `flood-${i}@example.test`, password: 'correct horse battery', name: `Flood ${i}`, companyName: `Flood ${i}` },
      });
      statuses.push(r.status);
      if (r.status === 429) {
        expect(errorCode(r)).toBe('TOO_MANY_REQUESTS');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // One sign-up was the company's own, before the flood.
    expect(statuses.filter((s) => s === 201)).toHaveLength(SIGNUP_PER_ADDRESS - 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - (SIGNUP_PER_ADDRESS - 1));
    const refused = await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: 'flood-29@example.test', password: 'correct horse battery' } });
    expect(refused.status).toBe(401);
  });
});
