import type { TeamView, UserView } from '#projections/org-directory/index.js';
import { AppError, type ErrorCode } from '#shared/errors.js';

/**
 * The SCIM 2.0 protocol as this platform speaks it (RFC 7643, RFC 7644; docs/modules/scim.md): the
 * resources, list answers, errors, the filters and PATCH operations the directories send.
 */
export const SCIM = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** The `scimType` values of RFC 7644 §3.12 this platform answers with. */
export type ScimType = 'invalidFilter' | 'invalidValue' | 'invalidSyntax' | 'invalidPath' | 'uniqueness' | 'mutability' | 'tooMany';

const CODES = {
  invalidFilter: 'SCIM_INVALID_FILTER',
  invalidValue: 'SCIM_INVALID_VALUE',
  invalidSyntax: 'SCIM_INVALID_SYNTAX',
  invalidPath: 'SCIM_INVALID_PATH',
  mutability: 'SCIM_MUTABILITY',
  tooMany: 'SCIM_TOO_MANY',
  uniqueness: 'SCIM_UNIQUENESS',
} as const satisfies Record<ScimType, ErrorCode>;

/**
 * A refusal of a SCIM request: 404 and 401 as the platform's own codes, the rest by `scimType`. The
 * error handler answers it in SCIM's shape (`{schemas: [Error], status, scimType?, detail}`).
 */
export class ScimError extends AppError {
  constructor(status: 401 | 404, detail: string);
  constructor(status: 400 | 409, detail: string, scimType: ScimType);
  constructor(status: number, detail: string, scimType?: ScimType) {
    super(scimType ? CODES[scimType] : status === 401 ? 'UNAUTHORIZED' : 'NOT_FOUND', detail);
  }
}

// ------------------------------------------------------------------------------------------- resources

const splitName = (full: string): { givenName: string; familyName: string } => {
  const parts = full.trim().split(/\s+/);
  return { givenName: parts[0] ?? '', familyName: parts.slice(1).join(' ') };
};

/** A user as a SCIM User: `userName` is the sign-in address; `active` is false once deactivated. */
export function userResource(u: UserView, base: string): Record<string, unknown> {
  return {
    schemas: [SCIM.user],
    id: String(u.id),
    userName: u.email,
    name: { formatted: u.name, ...splitName(u.name) },
    displayName: u.name,
    ...(u.title ? { title: u.title } : {}),
    emails: [{ value: u.email, type: 'work', primary: true }],
    ...(u.phone ? { phoneNumbers: [{ value: u.phone, type: 'work' }] } : {}),
    active: u.status !== 'deactivated',
    meta: { resourceType: 'User', created: u.createdAt, location: `${base}/Users/${u.id}` },
  };
}

/** A team as a SCIM Group: its members by user id. */
export function groupResource(t: TeamView, base: string): Record<string, unknown> {
  return {
    schemas: [SCIM.group],
    id: String(t.id),
    displayName: t.name,
    members: t.memberIds.map((id) => ({ value: String(id), $ref: `${base}/Users/${id}`, type: 'User' })),
    meta: { resourceType: 'Group', location: `${base}/Groups/${t.id}` },
  };
}

/** A list answer; `startIndex` is 1-based. */
export function listResponse(resources: unknown[], total: number, startIndex: number): Record<string, unknown> {
  return { schemas: [SCIM.list], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** What a SCIM User body says of a person, in the platform's terms. */
export interface PersonInput {
  email: string | undefined;
  name: string | undefined;
  title: string | null | undefined;
  phone: string | null | undefined;
  active: boolean | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The longest name part or full name a directory may send for a person. */
export const MAX_NAME = 200;
/** The longest address (RFC 5321's limit on a path). */
export const MAX_ADDRESS = 254;
/** The users feature's own bounds on the other fields a directory fills. */
const MAX_TITLE = 128;
const MAX_PHONE = 64;

/**
 * A text attribute as `str` reads it, refused (400 `invalidValue`) above `max` characters: a directory
 * is a client like any other, and an unbounded name would be stored, shown and searched everywhere.
 */
function bounded(v: unknown, path: string, max: number): string | undefined {
  const value = str(v);
  if (value !== undefined && value.length > max) throw new ScimError(400, `${path} is longer than ${max} characters`, 'invalidValue');
  return value;
}

/** Directories send booleans as `true`, or as the strings `"True"`/`"False"` (Entra ID). */
export function scimBoolean(v: unknown, path: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw new ScimError(400, `${path} must be a boolean`, 'invalidValue');
}

/** The primary (or first) e-mail of a SCIM `emails` list. */
function primaryEmail(emails: unknown): string | undefined {
  if (!Array.isArray(emails)) return undefined;
  const list = emails.filter((e): e is { value: unknown; primary?: unknown } => typeof e === 'object' && e !== null);
  return bounded((list.find((e) => e.primary === true || e.primary === 'true') ?? list[0])?.value, 'emails.value', MAX_ADDRESS);
}

/** The full name of a SCIM `name` object or `displayName`. */
function fullName(body: Record<string, unknown>): string | undefined {
  const name = typeof body.name === 'object' && body.name !== null ? (body.name as Record<string, unknown>) : {};
  const parts = [bounded(name.givenName, 'name.givenName', MAX_NAME), bounded(name.familyName, 'name.familyName', MAX_NAME)].filter(Boolean).join(' ');
  const formatted = bounded(name.formatted, 'name.formatted', MAX_NAME);
  const displayName = bounded(body.displayName, 'displayName', MAX_NAME);
  return boundedName(formatted ?? (parts || undefined) ?? displayName);
}

/** A full name made of parts, within the bound of one. */
function boundedName(full: string | undefined): string | undefined {
  return bounded(full, 'name', MAX_NAME);
}

/** Reads a User resource body (POST, PUT); the address is `userName` when it is one, else the primary e-mail. */
export function personOf(body: Record<string, unknown>): PersonInput {
  const userName = bounded(body.userName, 'userName', MAX_ADDRESS);
  const email = userName && userName.includes('@') ? userName : primaryEmail(body.emails);
  const phones = Array.isArray(body.phoneNumbers) ? (body.phoneNumbers as { value?: unknown }[]) : undefined;
  return {
    email: email?.toLowerCase(),
    name: fullName(body),
    title: 'title' in body ? (bounded(body.title, 'title', MAX_TITLE) ?? null) : undefined,
    phone: phones ? (bounded(phones[0]?.value, 'phoneNumbers.value', MAX_PHONE) ?? null) : undefined,
    active: 'active' in body ? scimBoolean(body.active, 'active') : undefined,
  };
}

// --------------------------------------------------------------------------------------------- filters

/** The one filter form directories send to find a resource: `<attribute> eq "<value>"`. */
export interface EqFilter {
  attribute: string;
  value: string;
}

/**
 * Parses `attribute eq "value"` (attribute names case-insensitive, RFC 7644 §3.4.2.2); anything else is
 * 400 `invalidFilter`, naming what is supported, rather than an answer that ignores the filter.
 */
export function parseFilter(filter: string | undefined, attributes: readonly string[]): EqFilter | null {
  if (filter === undefined || filter.trim() === '') return null;
  const m = /^\s*([A-Za-z][\w.$]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  const attribute = m ? attributes.find((a) => a.toLowerCase() === m[1]!.toLowerCase()) : undefined;
  if (!m || !attribute) {
    throw new ScimError(400, `Unsupported filter; use ${attributes.map((a) => `${a} eq "…"`).join(' or ')}`, 'invalidFilter');
  }
  return { attribute, value: m[2]!.replace(/\\(.)/g, '$1') };
}

/** `startIndex` (1-based) and `count` of a list request, within bounds. */
export function pagingOf(query: { startIndex?: number | undefined; count?: number | undefined }, max: number): { startIndex: number; count: number } {
  return { startIndex: Math.max(1, query.startIndex ?? 1), count: Math.min(max, Math.max(0, query.count ?? max)) };
}

// ----------------------------------------------------------------------------------------------- PATCH

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace';
  path: string | undefined;
  value: unknown;
}

/** The operations of a PatchOp body (`op` case-insensitive, as Entra ID sends `Replace`). */
export function patchOperations(body: Record<string, unknown>): PatchOperation[] {
  const schemas = Array.isArray(body.schemas) ? body.schemas : [];
  if (!schemas.includes(SCIM.patch)) throw new ScimError(400, `A PATCH body names the schema ${SCIM.patch}`, 'invalidSyntax');
  if (!Array.isArray(body.Operations) || body.Operations.length === 0) throw new ScimError(400, 'Operations must be a non-empty list', 'invalidSyntax');
  if (body.Operations.length > 1000) throw new ScimError(400, 'At most 1000 operations', 'tooMany');
  return body.Operations.map((raw, i) => {
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace') throw new ScimError(400, `Operations[${i}].op must be add, remove or replace`, 'invalidSyntax');
    return { op, path: typeof o.path === 'string' ? o.path : undefined, value: o.value };
  });
}

/**
 * The User changes of PATCH operations: `replace`/`add` of active, name, displayName, title,
 * userName, emails and phoneNumbers, with a path or as an object value without one.
 */
export function userPatch(ops: PatchOperation[]): PersonInput {
  const out: PersonInput = { email: undefined, name: undefined, title: undefined, phone: undefined, active: undefined };
  const apply = (path: string, value: unknown) => {
    const p = path.toLowerCase();
    if (p === 'active') out.active = scimBoolean(value, 'active');
    else if (p === 'displayname' || p === 'name.formatted') out.name = bounded(value, path, MAX_NAME) ?? out.name;
    else if (p === 'name' && typeof value === 'object' && value !== null) out.name = fullName({ name: value }) ?? out.name;
    else if (p === 'name.givenname' || p === 'name.familyname') out.name = boundedName(mergeName(out.name, p, bounded(value, path, MAX_NAME)));
    else if (p === 'title') out.title = bounded(value, path, MAX_TITLE) ?? null;
    else if (p === 'username') out.email = bounded(value, path, MAX_ADDRESS)?.toLowerCase();
    else if (p === 'emails' || /^emails\[.*\]\.value$/.test(p)) out.email = (Array.isArray(value) ? primaryEmail(value) : bounded(value, path, MAX_ADDRESS))?.toLowerCase();
    else if (p === 'phonenumbers' || /^phonenumbers\[.*\]\.value$/.test(p)) {
      out.phone = (Array.isArray(value) ? bounded((value[0] as { value?: unknown })?.value, path, MAX_PHONE) : bounded(value, path, MAX_PHONE)) ?? null;
    }
    else if (p === 'externalid' || p.startsWith('urn:')) return; // not kept: the platform's id is the resource id
    else throw new ScimError(400, `Unsupported path "${path}"`, 'invalidPath');
  };
  for (const op of ops) {
    if (op.op === 'remove') {
      if (op.path?.toLowerCase() === 'title') out.title = null;
      else if (op.path?.toLowerCase() === 'phonenumbers') out.phone = null;
      else throw new ScimError(400, `Cannot remove "${op.path ?? ''}"`, 'mutability');
      continue;
    }
    if (op.path) apply(op.path, op.value);
    else if (typeof op.value === 'object' && op.value !== null) for (const [k, v] of Object.entries(op.value)) apply(k, v);
    else throw new ScimError(400, 'An operation without a path takes an object value', 'invalidValue');
  }
  return out;
}

function mergeName(current: string | undefined, part: string, value: string | undefined): string | undefined {
  if (!value) return current;
  return part === 'name.givenname' ? value : [current, value].filter(Boolean).join(' ');
}

/** Member ids of a `members` value (`[{value: "12"}, …]`). */
export function memberIds(value: unknown): number[] {
  if (!Array.isArray(value)) throw new ScimError(400, 'members must be a list of {value}', 'invalidValue');
  return value.map((m) => {
    const id = Number((m as { value?: unknown })?.value);
    if (!Number.isSafeInteger(id) || id <= 0) throw new ScimError(400, 'A member value is a user id', 'invalidValue');
    return id;
  });
}

/**
 * The membership changes of a Group PATCH: `add`/`remove` of `members` (and Entra ID's
 * `members[value eq "12"]` to remove one), `replace` of `members` or `displayName`.
 */
export function groupPatch(ops: PatchOperation[]): { add: number[]; remove: number[]; replace: number[] | undefined; name: string | undefined } {
  const out = { add: [] as number[], remove: [] as number[], replace: undefined as number[] | undefined, name: undefined as string | undefined };
  for (const op of ops) {
    const path = op.path?.toLowerCase();
    const one = path ? /^members\[value eq "(\d+)"\]$/.exec(path) : null;
    if (op.op === 'remove' && one) out.remove.push(Number(one[1]));
    else if (path === 'members' && op.op === 'add') out.add.push(...memberIds(op.value));
    else if (path === 'members' && op.op === 'remove') {
      if (op.value === undefined) out.replace = [];
      else out.remove.push(...memberIds(op.value));
    } else if (path === 'members' && op.op === 'replace') out.replace = memberIds(op.value);
    else if (path === 'displayname' && op.op !== 'remove') out.name = str(op.value);
    else if (!path && op.op !== 'remove' && typeof op.value === 'object' && op.value !== null) {
      const v = op.value as Record<string, unknown>;
      if ('displayName' in v) out.name = str(v.displayName);
      if ('members' in v) (op.op === 'add' ? out.add : (out.replace = [])).push(...memberIds(v.members));
    } else throw new ScimError(400, `Unsupported operation ${op.op} ${op.path ?? ''}`.trim(), 'invalidPath');
  }
  return out;
}
