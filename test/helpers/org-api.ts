import { http, type JsonResponse } from './server.js';

/** A company created by sign-up, with its administrator's token and Default workspace. */
export interface SignedUpCompany {
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  userId: number;
  companyId: number;
  workspaceId: number;
}

let counter = 0;

/** Signs a new company up and reads back who its administrator is. */
export async function signUpCompany(base: string, label = 'co'): Promise<SignedUpCompany> {
  const n = `${label}-${process.pid}-${++counter}`;
  const email = `admin-${n}@example.test`;
  const password = 'correct horse battery';
  const r = await http(base, 'POST', '/api/v1/auth/signup', { body: { email, password, name: `Admin ${n}`, companyName: `Company ${n}` } });
  if (r.status !== 201) throw new Error(`sign-up failed: ${r.status} ${JSON.stringify(r.body)}`);
  const me = await http(base, 'GET', '/api/v1/users/me', { token: r.body.token });
  if (me.status !== 200) throw new Error(`users/me failed: ${me.status} ${JSON.stringify(me.body)}`);
  const ws = await http(base, 'GET', '/api/v1/workspaces/accessible', { token: r.body.token });
  return { email, password, token: r.body.token, refreshToken: r.body.refreshToken, userId: me.body.id, companyId: me.body.companyId, workspaceId: ws.body[0].id };
}

/** A client bound to one server and token. */
export function client(base: string, token: string) {
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse> =>
    http(base, method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call('PUT', path, body ?? {}, headers),
    patch: (path: string, body?: unknown) => call('PATCH', path, body ?? {}),
    delete: (path: string) => call('DELETE', path),
  };
}

export type Client = ReturnType<typeof client>;

/** Signs in and returns the token pair. */
export async function signIn(base: string, login: string, password: string): Promise<JsonResponse> {
  return http(base, 'POST', '/api/v1/auth/login', { body: { username: login, password } });
}

/** Creates a user of the company: invited, then activated with the token read from the mail. */
export async function createActiveUser(
  base: string,
  admin: Client,
  mails: readonly { to: string[]; raw: string }[],
  options: { email: string; roleIds?: number[]; workspaceIds?: number[]; password?: string; name?: string },
): Promise<{ id: number; email: string; password: string; token: string }> {
  const password = options.password ?? 'member password 1';
  const invited = await admin.post('/users/invite', { email: options.email, roleIds: options.roleIds ?? [], ...(options.workspaceIds ? { workspaceIds: options.workspaceIds } : {}) });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const token = latestInvitationToken(mails, options.email);
  const activated = await http(base, 'POST', '/api/v1/users/activate', { body: { token, password, name: options.name ?? options.email } });
  if (activated.status !== 200) throw new Error(`activate failed: ${activated.status} ${JSON.stringify(activated.body)}`);
  const pair = await signIn(base, options.email, password);
  if (pair.status !== 200) throw new Error(`sign-in failed: ${pair.status} ${JSON.stringify(pair.body)}`);
  return { id: invited.body.id, email: options.email, password, token: pair.body.token };
}

/** The invitation token of the newest mail to `to`. */
export function invitationTokenOf(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const m = /Token: ([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error('no token in the mail');
  return m[1]!;
}

/** A tiny valid PNG (1x1, transparent). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The invitation token of the newest mail already received for `email` (mail is sent before the invite answers). */
export function latestInvitationToken(mails: readonly { to: string[]; raw: string }[], email: string): string {
  const mail = mails.filter((m) => m.to.includes(email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return invitationTokenOf(mail.raw);
}

/** A multipart activation (or image upload) request over real HTTP. */
export async function postMultipart(
  base: string,
  method: 'POST' | 'PUT',
  path: string,
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array; type: string; filename?: string } | null,
  token?: string,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.name, new Blob([file.bytes], { type: file.type }), file.filename ?? 'image.bin');
  const res = await fetch(new URL(path, base), { method, body: form, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}
