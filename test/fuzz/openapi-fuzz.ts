/**
 * A fuzzer driven by the platform's own OpenAPI document: for every operation it builds a valid
 * request from the schemas (path and query parameters, JSON body), then variants that each carry one
 * hostile value (unstorable text, oversized or wrongly typed values, malformed JSON, a wrong content
 * type, forged credentials), and sends them all. A finding is a 5xx, a request that hangs, an error
 * answer without the error contract's code, or hostile text that was accepted (2xx).
 */

type Schema = Record<string, unknown>;
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface FuzzCase {
  /** `METHOD /template/path` */
  operation: string;
  variant: string;
  method: string;
  /** Path with query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Hostile text was put somewhere in the request: it must never be accepted. */
  hostileText: boolean;
}

export interface FuzzFinding {
  case: FuzzCase;
  problem: string;
  status?: number;
  body?: string;
}

/** A small seeded generator (mulberry32), so a run is repeatable from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text PostgreSQL or JSON cannot hold faithfully: the edge must refuse it with 400 INVALID_INPUT. */
const UNSTORABLE = ['a\u0000b', 'a\ud800b', '\udfffz'];
/** Encoded forms for path and query: a NUL byte, and an invalid UTF-8 sequence of a lone surrogate. */
const UNSTORABLE_ENCODED = ['a%00b', 'a%ED%A0%80b'];
/** Odd but storable values: they must never cause a 5xx. */
const ODD_STRINGS = ['', ' ', 'x'.repeat(5_000), '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>', '%', '%zz', '😀'.repeat(50), '{"$ne":null}'];
const ODD_NUMBERS: unknown[] = [-1, 0, 1e308, -1e308, 2 ** 53 + 1, 1.5, '12', 'NaN', true, null];
const ODD_TYPES: unknown[] = [null, [], {}, 'text', 7, true];

/** Resolves a `$ref` into the document's components. */
function deref(doc: OpenApiDocument, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 20) return {};
  const ref = schema.$ref as string | undefined;
  if (ref?.startsWith('#/components/schemas/')) return deref(doc, doc.components?.schemas?.[ref.slice(21)], depth + 1);
  return schema;
}

const UUID = () => '00000000-0000-4000-8000-0000000000ff';

/** A value valid for the schema, as plain as possible (ids that match nothing real). */
export function validValue(doc: OpenApiDocument, raw: Schema | undefined, depth = 0): unknown {
  const schema = deref(doc, raw);
  if (depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options?.length) {
      const concrete = options.map((o) => deref(doc, o)).find((o) => o.type !== 'null') ?? options[0];
      return validValue(doc, concrete, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Schema[]).map((s) => validValue(doc, s, depth + 1) as object));
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'string': {
      const format = schema.format as string | undefined;
      if (format === 'uuid') return UUID();
      if (format === 'email') return 'fuzz@example.test';
      if (format === 'date-time') return '2030-01-02T03:04:05.000Z';
      if (format === 'date') return '2030-01-02';
      if (format === 'uri' || format === 'url') return 'http://127.0.0.1:9/fuzz';
      const min = Number(schema.minLength ?? 1);
      return 'fuzz-value'.padEnd(Math.max(min, 1), 'x').slice(0, Math.max(min, Math.min(10, Number(schema.maxLength ?? 10))));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined);
      const max = schema.maximum as number | undefined;
      // Ids far beyond anything created, so no operation finds (or deletes) a real resource.
      if (max !== undefined && max >= 2_000_000_000) return 2_000_000_001;
      return Math.max(Number(min ?? 1), Math.min(Number(max ?? 1), 1));
    }
    case 'boolean':
      return false;
    case 'array': {
      const minItems = Number(schema.minItems ?? 0);
      return Array.from({ length: minItems }, () => validValue(doc, schema.items as Schema, depth + 1));
    }
    case 'object':
    default: {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(props)) if (required.has(name)) out[name] = validValue(doc, prop, depth + 1);
      return out;
    }
  }
}

/** Paths (as key lists) of the string leaves of a value, for one-at-a-time substitutions. */
function leaves(value: unknown, path: (string | number)[] = [], out: { path: (string | number)[]; value: unknown }[] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...path, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  else if (path.length > 0) out.push({ path, value });
  return out;
}

function replaced(value: unknown, path: (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaced(v, rest, next) : v));
  const obj = { ...(value as Record<string, unknown>) };
  obj[head as string] = replaced(obj[head as string], rest, next);
  return obj;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function paramValue(doc: OpenApiDocument, p: Parameter): string {
  const v = validValue(doc, p.schema);
  if (Array.isArray(v)) return v.length ? String(v[0]) : '';
  return String(v ?? 'x');
}

/** The optional string properties of an object body (absent from its valid form). */
function optionalStrings(doc: OpenApiDocument, raw: Schema | undefined, valid: unknown): string[] {
  const schema = deref(doc, raw);
  if (!valid || typeof valid !== 'object' || Array.isArray(valid)) return [];
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props)
    .filter(([name, prop]) => !(name in valid) && validValue(doc, prop) !== undefined && typeof validValue(doc, prop) === 'string')
    .map(([name]) => name);
}

/** Credentials in `Authorization: Basic` that are not: unstorable once decoded, undecodable, truncated, huge. */
const BASIC_GARBAGE: { value: string; hostileText: boolean }[] = [
  { value: `Basic ${Buffer.from('a\u0000b:secret').toString('base64')}`, hostileText: true },
  { value: `Basic ${Buffer.from('client:a%00b').toString('base64')}`, hostileText: true },
  { value: `Basic ${Buffer.from('%ED%A0%80:secret').toString('base64')}`, hostileText: true },
  { value: `Basic ${Buffer.from('%zz:secret').toString('base64')}`, hostileText: false },
  { value: `Basic ${Buffer.from('no-colon').toString('base64')}`, hostileText: false },
  { value: 'Basic %00', hostileText: false },
  { value: 'Basic', hostileText: false },
  { value: `Basic ${'A'.repeat(9_000)}`, hostileText: false },
];

type Build = (variant: string, over: { body?: string | null; headers?: Record<string, string>; query?: [string, string][]; hostileText?: boolean }) => FuzzCase;

/**
 * The cases of an operation that takes form-urlencoded parameters (`POST /oauth/token`): a valid form,
 * unstorable text in each parameter (percent-encoded NUL, an encoded lone surrogate), a repeated
 * parameter, odd values, and HTTP Basic garbage.
 */
function formCases(doc: OpenApiDocument, raw: Schema, random: () => number, build: Build): FuzzCase[] {
  const schema = deref(doc, raw);
  const names = Object.keys((schema.properties ?? {}) as Record<string, Schema>);
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const encode = (fields: Record<string, string>) => Object.entries(fields).map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  // Every parameter with a plain value (its documented example where it has one), so the checks behind
  // the first one are reached.
  const base = Object.fromEntries(names.map((name) => [name, encodeURIComponent(String(validValue(doc, props[name]) ?? 'x'))]));
  // RFC 6749 client authentication goes in the header or in the form, never both: the header's cases
  // leave the form's client parameters out.
  const withoutClient = Object.fromEntries(Object.entries(base).filter(([name]) => !name.startsWith('client_')));
  const form = (variant: string, fields: Record<string, string> | string, over: { headers?: Record<string, string>; hostileText?: boolean } = {}) =>
    build(variant, { body: typeof fields === 'string' ? fields : encode(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: '', ...over.headers }, hostileText: over.hostileText ?? false });
  // Without the fuzzer's bearer token, which the form's own client authentication would refuse first.
  const out = [form('form valid', base)];
  for (const name of names) {
    out.push(form(`form ${name} unstorable`, { ...base, [name]: pick(random, UNSTORABLE_ENCODED) }, { hostileText: true }));
    out.push(form(`form ${name} odd`, { ...base, [name]: encodeURIComponent(pick(random, ODD_STRINGS)) }));
    out.push(form(`form ${name} repeated`, `${encode(base)}&${encodeURIComponent(name)}=x`));
  }
  out.push(form('form malformed escapes', '%%%=%zz&=&&'));
  for (const basic of BASIC_GARBAGE) out.push(form(`basic ${basic.value.slice(0, 30)}`, withoutClient, { headers: { authorization: basic.value }, hostileText: basic.hostileText }));
  out.push(build('json basic garbage', { headers: { authorization: pick(random, BASIC_GARBAGE).value } }));
  return out;
}

/** Builds the cases of every operation: one valid request and `variants` hostile ones each. */
export function buildCases(doc: OpenApiDocument, options: { seed: number; variants: number; skip?: (method: string, path: string) => boolean }): FuzzCase[] {
  const random = seeded(options.seed);
  const cases: FuzzCase[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (options.skip?.(method, template)) continue;
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const query = params.filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const validBody = bodySchema ? validValue(doc, bodySchema) : undefined;
      const formSchema = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
      const operation = `${method.toUpperCase()} ${template}`;
      const build = (variant: string, over: { path?: Record<string, string>; query?: [string, string][]; body?: string | null; headers?: Record<string, string>; hostileText?: boolean }): FuzzCase => {
        let url = template;
        for (const p of pathParams) url = url.replace(`{${p.name}}`, over.path?.[p.name] ?? encodeURIComponent(paramValue(doc, p)));
        const q = over.query ?? query.filter((p) => p.required).map((p): [string, string] => [p.name, paramValue(doc, p)]);
        if (q.length > 0) url += `?${q.map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith('%raw:') ? v.slice(5) : encodeURIComponent(v)}`).join('&')}`;
        const body = over.body === null ? undefined : (over.body ?? (validBody !== undefined ? JSON.stringify(validBody) : undefined));
        const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...over.headers };
        return { operation, variant, method: method.toUpperCase(), url, headers, ...(body !== undefined ? { body } : {}), hostileText: over.hostileText ?? false };
      };
      const variants: FuzzCase[] = [build('valid', {})];
      // Unstorable text in one string field of the body at a time, optional fields too (a body whose
      // fields are all optional has no string in its valid form).
      const strings = [...leaves(validBody).filter((l) => typeof l.value === 'string').map((l) => l.path), ...optionalStrings(doc, bodySchema, validBody).map((name) => [name])];
      for (const path of strings.slice(0, 4)) {
        variants.push(build(`body ${path.join('.')} unstorable`, { body: JSON.stringify(replaced(validBody, path, pick(random, UNSTORABLE))), hostileText: true }));
      }
      if (formSchema) variants.push(...formCases(doc, formSchema, random, build));
      // Unstorable text in a path or query parameter.
      for (const p of pathParams.slice(0, 2)) variants.push(build(`path ${p.name} unstorable`, { path: { [p.name]: pick(random, UNSTORABLE_ENCODED) }, hostileText: true }));
      for (const p of query.slice(0, 2)) variants.push(build(`query ${p.name} unstorable`, { query: [[p.name, `%raw:${pick(random, UNSTORABLE_ENCODED)}`]], hostileText: true }));
      // Odd values, wrong types, malformed documents.
      const pool: (() => FuzzCase)[] = [];
      for (const p of pathParams) pool.push(() => build(`path ${p.name} odd`, { path: { [p.name]: encodeURIComponent(pick(random, ODD_STRINGS)) || '%20' } }));
      for (const p of query) pool.push(() => build(`query ${p.name} odd`, { query: [[p.name, pick(random, [...ODD_STRINGS, ...ODD_NUMBERS.map(String)])]] }));
      for (const p of query) pool.push(() => build(`query ${p.name} repeated`, { query: Array.from({ length: 200 }, (): [string, string] => [p.name, 'x']) }));
      const all = leaves(validBody);
      for (const leaf of all) {
        pool.push(() => build(`body ${leaf.path.join('.')} odd`, { body: JSON.stringify(replaced(validBody, leaf.path, typeof leaf.value === 'number' ? pick(random, ODD_NUMBERS) : pick(random, [...ODD_STRINGS, ...ODD_TYPES]))) }));
      }
      if (bodySchema) {
        pool.push(() => build('body malformed JSON', { body: '{"a":' }));
        pool.push(() => build('body of the wrong type', { body: JSON.stringify(pick(random, [[], 'text', 12, null])) }));
        pool.push(() => build('body wrong content type', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
        pool.push(() => build('body deeply nested', { body: `${'['.repeat(5_000)}${']'.repeat(5_000)}` }));
        pool.push(() => build('body missing', { body: null }));
      }
      pool.push(() => build('workspace header odd', { headers: { 'x-workspace-id': pick(random, ['abc', '-1', '0', '99999999999999999999', '1e3', ' ']) } }));
      pool.push(() => build('forged bearer', { headers: { authorization: pick(random, ['Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'Bearer x.y.z', `Bearer ${'a'.repeat(9_000)}`, 'Basic Zm9vOmJhcg==', 'Bearer']) } }));
      pool.push(() => build('no credentials', { headers: { authorization: '' } }));
      for (let i = 0; i < options.variants && pool.length > 0; i++) variants.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!());
      cases.push(...variants);
    }
  }
  return cases;
}

/** The error code of an answer in any of the platform's error envelopes. */
function errorCodeOf(body: unknown): string | undefined {
  const b = body as { code?: unknown; error?: unknown; value?: { error?: unknown } } | null;
  if (!b || typeof b !== 'object') return undefined;
  if (typeof b.code === 'string') return b.code;
  if (b.error && typeof b.error === 'object' && typeof (b.error as { code?: unknown }).code === 'string') return (b.error as { code: string }).code;
  if (typeof b.error === 'string') return b.error;
  if (b.value && typeof b.value.error === 'string') return b.value.error;
  return undefined;
}

/**
 * Sends every case (a few at a time) with the given default headers (credentials, workspace) and
 * returns the findings. `onProgress` is told how many were sent.
 */
export async function runCases(
  base: string,
  cases: readonly FuzzCase[],
  options: { headers: Record<string, string>; timeoutMs: number; concurrency?: number; onProgress?: (done: number) => void },
): Promise<{ findings: FuzzFinding[]; statuses: Record<string, number> }> {
  const findings: FuzzFinding[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const c = cases[next++];
      if (!c) return;
      const headers = { ...options.headers, ...c.headers };
      for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
      let status = 0;
      let text = '';
      try {
        const res = await fetch(new URL(c.url, base), { method: c.method, headers, ...(c.body !== undefined ? { body: c.body } : {}), redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
        status = res.status;
        text = await res.text();
        const type = res.headers.get('content-type') ?? '';
        statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
        if (status >= 500) findings.push({ case: c, problem: 'server error', status, body: text.slice(0, 300) });
        else if (status >= 400 && status !== 404 && !type.includes('json')) findings.push({ case: c, problem: `error answer is not JSON (${type})`, status, body: text.slice(0, 200) });
        else if (status >= 400 && type.includes('json') && !errorCodeOf(text ? JSON.parse(text) : null)) findings.push({ case: c, problem: 'error answer without a code', status, body: text.slice(0, 200) });
        else if (c.hostileText && status >= 200 && status < 300) findings.push({ case: c, problem: 'unstorable text was accepted', status, body: text.slice(0, 200) });
      } catch (err) {
        const name = (err as Error).name;
        findings.push({ case: c, problem: name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : `request failed: ${(err as Error).message}`, status });
      }
      options.onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return { findings, statuses };
}
