import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validValue, type OpenApiDocument } from '#test/fuzz/openapi-fuzz.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A POST or PUT whose body fields are all optional takes no body at all (and an empty one sent as
 * JSON) as `{}`; one that needs a body refuses its absence with 400 VALIDATION_FAILED naming `body`
 * (docs/api-conventions.md, "Request bodies"). The operations come from the OpenAPI document, so a
 * new one is covered without being listed here.
 */
type Schema = Record<string, any>;
let server: TestServer;
let a: SignedUpCompany;
let doc: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer({ AGENT_ENABLED: 'false' });
  a = await signUpCompany(server.url, 'absent-body');
  doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const deref = (s: Schema | undefined): Schema => (s?.$ref ? deref(doc.components!.schemas![String(s.$ref).split('/').pop()!] as Schema) : (s ?? {}));

/** An object schema without required properties, alone or as a branch of a union. */
function allOptional(raw: Schema | undefined): boolean {
  const s = deref(raw);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return branches.some(allOptional);
  return s.type === 'object' && (s.required ?? []).length === 0;
}

interface Operation {
  method: string;
  template: string;
  url: string;
}

function operations(select: (body: Schema) => boolean): Operation[] {
  const out: Operation[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops) as [string, any][]) {
      const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      if (!body || !select(body)) continue;
      let url = template;
      for (const p of (op.parameters ?? []).filter((p: any) => p.in === 'path')) url = url.replace(`{${p.name}}`, encodeURIComponent(String(validValue(doc, p.schema))));
      out.push({ method: method.toUpperCase(), template, url });
    }
  }
  return out;
}

/** What an answer must not be when the absent body is taken as `{}`: a refusal of the body itself, or a fault. */
function refusedTheBody(res: { status: number; body: any }): boolean {
  const text = JSON.stringify(res.body ?? '');
  return res.status >= 500 || /received (null|undefined)|not valid JSON|body is required/i.test(text) || ['MALFORMED_JSON', 'VALIDATION_FAILED'].includes(res.body?.code ?? res.body?.error?.code);
}

/**
 * Operations whose documented fields are all optional but whose empty action means nothing: the schema
 * asks for at least one change (a reservation's range or note, a host's name or workspaces), or the
 * handler reads a definition the loose schema lets through (a mock service's name, module, routes).
 * Their absent body is refused with 400 VALIDATION_FAILED.
 */
const EMPTY_ACTION_MEANINGLESS = ['PUT /df/api/reservations/{reservationId}', 'PUT /df/api/hosts/{hostId}', 'POST /tmt/api/v1/mock-services'];

async function send(op: Operation, variant: 'no body' | 'empty JSON body', headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(new URL(op.url, server.url), {
    method: op.method,
    headers: variant === 'no body' ? headers : { ...headers, 'content-type': 'application/json' },
    ...(variant === 'empty JSON body' ? { body: '' } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('absent request bodies', () => {
  it('takes no body, and an empty JSON body, as {} on every operation whose body fields are all optional', { timeout: 120_000 }, async () => {
    const table = operations(allOptional).filter((o) => !EMPTY_ACTION_MEANINGLESS.includes(`${o.method} ${o.template}`));
    const names = table.map((o) => `${o.method} ${o.template}`);
    // The operations this rule exists for are among them.
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /df/api/reservations/{reservationId}/rejoin',
        'PUT /api/v1/workspaces/{id}',
        'PUT /df/api/quotas',
        'POST /oauth/token',
        'POST /healthcheck/api/v1/heartbeat/{token}',
      ]),
    );
    expect(table.length).toBeGreaterThanOrEqual(16);
    const headers = { authorization: `Bearer ${a.token}`, 'x-workspace-id': String(a.workspaceId) };
    const refused: unknown[] = [];
    for (const op of table) {
      for (const variant of ['no body', 'empty JSON body'] as const) {
        const answer = await send(op, variant, headers);
        if (refusedTheBody(answer)) refused.push({ operation: `${op.method} ${op.template}`, variant, ...answer });
      }
    }
    expect(refused).toEqual([]);
  });

  it('applies an absent body as an empty change: a workspace PUT with no body changes nothing', async () => {
    const before = await http(server.url, 'GET', `/api/v1/workspaces/${a.workspaceId}`, { token: a.token });
    const res = await fetch(`${server.url}/api/v1/workspaces/${a.workspaceId}`, { method: 'PUT', headers: { authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: a.workspaceId, name: before.body.name, description: before.body.description });
  });

  it('refuses an absent body where the empty action means nothing, with 400 VALIDATION_FAILED', async () => {
    const headers = { authorization: `Bearer ${a.token}`, 'x-workspace-id': String(a.workspaceId) };
    const table = operations(allOptional).filter((o) => EMPTY_ACTION_MEANINGLESS.includes(`${o.method} ${o.template}`));
    expect(table.map((o) => `${o.method} ${o.template}`).sort()).toEqual([...EMPTY_ACTION_MEANINGLESS].sort());
    for (const op of table) {
      for (const variant of ['no body', 'empty JSON body'] as const) {
        const answer = await send(op, variant, headers);
        expect([op.template, variant, answer.status, answer.body.code]).toEqual([op.template, variant, 400, 'VALIDATION_FAILED']);
        expect(answer.body.details.length).toBeGreaterThan(0);
      }
    }
  });

  it('refuses the absence of a body an operation needs with 400 VALIDATION_FAILED naming the body', async () => {
    const headers = { authorization: `Bearer ${a.token}`, 'x-workspace-id': String(a.workspaceId) };
    for (const init of [{ headers }, { headers: { ...headers, 'content-type': 'application/json' }, body: '' }]) {
      const res = await fetch(`${server.url}/api/v1/roles`, { method: 'POST', ...init });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Request body is required', details: [{ path: 'body' }] });
      const v1 = await fetch(`${server.url}/v1/projects`, { method: 'POST', ...init });
      expect(v1.status).toBe(400);
      expect(await v1.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED', details: [{ path: 'body' }] } });
    }
    // Malformed JSON is still malformed.
    const bad = await fetch(`${server.url}/api/v1/roles`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('MALFORMED_JSON');
  });
});
