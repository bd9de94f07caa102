import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Device, type Page, type PlatformClient, type TokenPair } from '@qa-platform/client';
import { REGENERATE, SCHEMA_FILE, schemaSource, type OpenApiDocument } from '../../scripts/client-schema.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

// The typed client (clients/api): its checked-in types are what the live OpenAPI document generates,
// and the client built on them works against a real server.
let server: TestServer;

beforeAll(async () => {
  // The same server the generator starts (scripts/client-schema.ts `liveDocument`).
  server = await startTestServer({ AGENT_ENABLED: 'false' });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

/** The first line where two texts part, for a failure message a person can act on. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const i = left.findIndex((line, n) => line !== right[n]);
  const at = i === -1 ? left.length : i;
  return `line ${at + 1}: checked in ${JSON.stringify(left[at] ?? '<end>')}, generated ${JSON.stringify(right[at] ?? '<end>')}`;
}

describe('clients/api/src/schema.ts', () => {
  let document: OpenApiDocument;
  let generated: string;

  it('is what the live OpenAPI document generates', async () => {
    const res = await fetch(new URL('/openapi.json', server.url));
    expect(res.status).toBe(200);
    document = (await res.json()) as OpenApiDocument;
    generated = await schemaSource(document);
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    if (checkedIn !== generated) expect.fail(`the checked-in client types differ from the API (${firstDifference(checkedIn, generated)}): ${REGENERATE}`);
  }, 120_000);

  it('does not depend on the order routes are registered in, and follows a changed schema', async () => {
    const reversed = { ...document, paths: Object.fromEntries(Object.entries(document.paths ?? {}).reverse()) };
    expect(await schemaSource(reversed)).toBe(generated);
    const changed = structuredClone(document);
    (changed.components!.schemas!.DfDevice as { description?: string }).description = 'A device, described anew';
    const text = await schemaSource(changed);
    expect(text).not.toBe(generated);
    expect(text).toContain('A device, described anew');
  }, 120_000);

  it('says it is generated and how to generate it again', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8').split('\n')[0]).toMatch(/^\/\/ Generated .*`npm run client:generate`/);
  });
});

describe('the typed client against a running server', () => {
  let pair: TokenPair;
  const email = `client-${process.pid}@example.test`;
  const password = 'correct horse battery';

  it('signs a company up and signs its administrator in', async () => {
    const anonymous = createClient({ baseUrl: server.url });
    const signedUp = await anonymous.POST('/api/v1/auth/signup', { body: { email, password, name: 'Client Admin', companyName: 'Client Company' } });
    expect(signedUp.response.status).toBe(201);
    expect(signedUp.data?.token).toEqual(expect.any(String));
    const signedIn = await anonymous.POST('/api/v1/auth/login', { body: { username: email, password } });
    expect(signedIn.response.status).toBe(200);
    pair = signedIn.data!;
    expect(pair.refreshToken).toEqual(expect.any(String));
  });

  it('answers a typed error for a wrong password, with its stable code', async () => {
    const wrong = await createClient({ baseUrl: server.url }).POST('/api/v1/auth/login', { body: { username: email, password: 'not the password' } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.data).toBeUndefined();
    expect(wrong.error?.code).toEqual(expect.any(String));
  });

  it('sends the token and the workspace header: the user, the workspace’s users and its devices', async () => {
    const signedIn: PlatformClient = createClient({ baseUrl: server.url, token: pair.token });
    const me = await signedIn.GET('/api/v1/users/me');
    expect(me.data?.email).toBe(email);
    const workspaces = await signedIn.GET('/api/v1/workspaces/accessible');
    const workspaceId = workspaces.data?.[0]?.id;
    expect(workspaceId).toEqual(expect.any(Number));

    const inWorkspace = createClient({ baseUrl: `${server.url}/`, token: () => pair.token, workspaceId: workspaceId! });
    const users = await inWorkspace.GET('/api/v1/users', { params: { query: { page: 0, size: 10 } } });
    expect(users.response.status).toBe(200);
    expect(users.data?.content.map((u) => u.email)).toEqual([email]);
    const devices = await inWorkspace.GET('/df/api/devices', { params: { query: { size: 5, status: ['available', 'in_use'] } } });
    expect(devices.response.status).toBe(200);
    const page: Page<Device> = devices.data!;
    expect(page).toMatchObject({ content: [], page: 0, size: 5, totalElements: 0 });
  });

  it('without a token, is refused with the platform’s code', async () => {
    const devices = await createClient({ baseUrl: server.url }).GET('/df/api/devices');
    expect(devices.response.status).toBe(401);
    expect(devices.error?.code).toEqual(expect.any(String));
  });
});
