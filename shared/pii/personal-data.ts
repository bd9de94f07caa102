import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Sql } from '#shared/db/index.js';
import type { EventMetadata, NewEvent } from '#shared/es/index.js';
import type { PersonKey, PersonKeys } from './person-keys.js';

/*
 * Sealing and opening of personal data in events (crypto-shredding). A personal field's value is stored
 * as `pii:v1:<person>:<base64url of iv, ciphertext and tag>`, AES-256-GCM under the person's key with the
 * person as associated data; the history's chain hashes what is stored, so destroying a key later
 * changes no stored byte. Opening gives the value back, or its placeholder once the person is erased.
 */

/** What a field holds, which decides what it reads as once its person is erased. */
export type PersonalKind = 'name' | 'email' | 'username' | 'address' | 'agent' | 'text';

/** The personal fields of one event type (see events/personal-data.ts). */
export interface PersonalFields {
  /**
   * Whose the fields are: the user id in the payload's `userId` or `ownerId`, the event's actor, or the
   * `userId` of the object that holds each field (`holder`: an array of grants, each of its person).
   */
  person: 'userId' | 'ownerId' | 'actor' | 'holder';
  fields: Readonly<Record<string, PersonalKind>>;
  /** Only events whose payload field has this value hold personal data (a claimed name that is a username). */
  onlyWhen?: { field: string; equals: string };
}

export interface PersonalDataRules {
  byType: Readonly<Record<string, PersonalFields>>;
  /** Metadata fields that are the actor's personal data, on every event. */
  metadata: Readonly<Record<string, PersonalKind>>;
}

const PREFIX = 'pii:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The person a sealed value belongs to; null for a value that is not sealed. */
export function sealedPerson(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return null;
  const end = value.lastIndexOf(':');
  return end > PREFIX.length ? value.slice(PREFIX.length, end) : null;
}

/** What a field of an erased person reads as. */
export function erasedValue(kind: PersonalKind, person: string): string {
  const tag = person.replace(/[^a-z0-9]+/gi, '-');
  switch (kind) {
    case 'name':
      return 'Erased person';
    case 'email':
      return `erased-${tag}@erased.invalid`;
    case 'username':
      return `erased-${tag}`;
    case 'address':
    case 'agent':
      return 'erased';
    case 'text':
      return '[erased]';
  }
}

/** The person of a user id (`user:<id>`). */
export const userPerson = (userId: number): string => `user:${userId}`;

/** The person of a user id as an event holds it (a number, or digits); null for anything else. */
function personOfId(id: unknown): string | null {
  const n = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? userPerson(n) : null;
}

function sealValue(plain: string, person: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(person, 'utf8'));
  const body = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${person}:${body.toString('base64url')}`;
}

function openValue(sealed: string, person: string, key: PersonKey | undefined, kind: PersonalKind): string {
  if (key === undefined || key === 'erased') return erasedValue(kind, person);
  const body = Buffer.from(sealed.slice(sealed.lastIndexOf(':') + 1), 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(person, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    // Changed bytes: the chain's verification names the event; here it reads as nothing of anyone.
    return erasedValue(kind, person);
  }
}

/** Called with a personal value, its kind and the object that holds it. */
type Visit = (value: unknown, kind: PersonalKind, holder: Record<string, unknown>) => unknown;

/**
 * Calls `visit` on the value at `path` (dots; `*` for each element of an array) and stores what it
 * answers, copying only what changes: a node whose values all stay is returned as it is.
 */
function walk(node: unknown, segments: readonly string[], kind: PersonalKind, visit: Visit): unknown {
  if (node === null || typeof node !== 'object') return node;
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (!Array.isArray(node)) return node;
    const next = node.map((el) => walk(el, rest, kind, visit));
    return next.every((el, i) => el === node[i]) ? node : next;
  }
  if (Array.isArray(node) || !Object.hasOwn(node, head)) return node;
  const holder = node as Record<string, unknown>;
  const child = holder[head];
  const next = rest.length === 0 ? visit(child, kind, holder) : walk(child, rest, kind, visit);
  return next === child ? node : { ...holder, [head]: next };
}

interface EventLike {
  type: string;
  payload: unknown;
  metadata: EventMetadata;
}

export class PersonalData {
  private readonly paths: Map<string, { person: PersonalFields['person']; fields: [string[], PersonalKind][]; onlyWhen: PersonalFields['onlyWhen'] }>;
  /** The metadata fields of every event, listed once (every read visits them). */
  private readonly metadataFields: readonly [string, PersonalKind][];

  constructor(
    readonly keys: PersonKeys,
    private readonly rules: PersonalDataRules,
  ) {
    this.paths = new Map(
      Object.entries(rules.byType).map(([type, f]) => [type, { person: f.person, fields: Object.entries(f.fields).map(([p, k]) => [p.split('.'), k]), onlyWhen: f.onlyWhen }]),
    );
    this.metadataFields = Object.entries(rules.metadata);
  }

  /** The same sealing with its keys read and made through `sql` (a transaction). */
  within(sql: Sql): PersonalData {
    return new PersonalData(this.keys.within(sql), this.rules);
  }

  /** Whether events of this type may hold personal data in their payload. */
  holdsPersonalData(type: string): boolean {
    return this.paths.has(type);
  }

  /** The personal fields of this event, if it has any. */
  private ruleOf(e: EventLike) {
    const rule = this.paths.get(e.type);
    if (!rule?.onlyWhen) return rule;
    return (e.payload as Record<string, unknown> | null)?.[rule.onlyWhen.field] === rule.onlyWhen.equals ? rule : undefined;
  }

  /** The person whose fields these are, from the payload or the actor; null when there is none (or it is each field's holder's). */
  private personOf(event: EventLike, person: PersonalFields['person']): string | null {
    if (person === 'holder') return null;
    return personOfId(person === 'actor' ? event.metadata.actorId : (event.payload as Record<string, unknown> | null)?.[person]);
  }

  /** The events with each personal value sealed under its person's key (an erased person's as its placeholder). */
  async seal<E extends NewEvent>(events: readonly E[]): Promise<E[]> {
    const out: E[] = [];
    for (const e of events) {
      let payload = e.payload;
      let metadata = e.metadata;
      const rule = this.ruleOf(e);
      if (rule) {
        const owner = this.personOf(e, rule.person);
        const whose = (holder: Record<string, unknown>) => (rule.person === 'holder' ? personOfId(holder.userId) : owner);
        // First whose keys are needed, then each value sealed under its person's.
        const keys = new Map<string, PersonKey>();
        const needed = new Set<string>();
        for (const [segments, kind] of rule.fields) {
          walk(payload, segments, kind, (v, _k, holder) => {
            const p = whose(holder);
            if (p && typeof v === 'string' && sealedPerson(v) === null) needed.add(p);
            return v;
          });
        }
        for (const p of needed) keys.set(p, this.keys.keptForSealing(p) ?? (await this.keys.forSealing(p, e.metadata.companyId ?? null)));
        for (const [segments, kind] of rule.fields) {
          payload = walk(payload, segments, kind, (v, k, holder) => {
            const p = whose(holder);
            const key = p ? keys.get(p) : undefined;
            return p && key ? this.sealOne(v, p, key, k) : v;
          });
        }
      }
      const actor = this.personOf(e, 'actor');
      const metaFields = this.metadataFields.filter(([f]) => typeof metadata[f] === 'string');
      if (actor && metaFields.some(([f]) => sealedPerson(metadata[f]) === null)) {
        // A kept key seals without an await: this runs for nearly every event appended.
        const key = this.keys.keptForSealing(actor) ?? (await this.keys.forSealing(actor, e.metadata.companyId ?? null));
        metadata = { ...metadata };
        for (const [field, kind] of metaFields) metadata[field] = this.sealOne(metadata[field], actor, key, kind);
      }
      out.push(payload === e.payload && metadata === e.metadata ? e : { ...e, payload, metadata });
    }
    return out;
  }

  private sealOne(value: unknown, person: string, key: PersonKey, kind: PersonalKind): unknown {
    if (typeof value !== 'string' || sealedPerson(value) !== null) return value;
    return key === 'erased' ? erasedValue(kind, person) : sealValue(value, person, key);
  }

  /** The events with each sealed value opened (one key read for the lot); events without any come back as they are. */
  async open<E extends EventLike>(events: readonly E[]): Promise<E[]> {
    const persons = new Set<string>();
    const collect: Visit = (v) => {
      const p = sealedPerson(v);
      if (p) persons.add(p);
      return v;
    };
    for (const e of events) this.visit(e, collect);
    if (persons.size === 0) return events as E[];
    const keys = await this.keys.forOpening(persons);
    const opener: Visit = (v, kind) => {
      const p = sealedPerson(v);
      return p ? openValue(v as string, p, keys.get(p), kind) : v;
    };
    return events.map((e) => this.visit(e, opener));
  }

  /** One event with `visit` applied to each of its personal values (a copy when anything changed). */
  private visit<E extends EventLike>(e: E, visit: Visit): E {
    let payload = e.payload;
    const rule = this.ruleOf(e);
    if (rule) for (const [segments, kind] of rule.fields) payload = walk(payload, segments, kind, visit);
    let metadata = e.metadata;
    for (const [field, kind] of this.metadataFields) {
      if (!Object.hasOwn(metadata, field)) continue;
      const next = visit(metadata[field], kind, metadata);
      if (next !== metadata[field]) metadata = { ...metadata, [field]: next };
    }
    return payload === e.payload && metadata === e.metadata ? e : { ...e, payload, metadata };
  }
}
