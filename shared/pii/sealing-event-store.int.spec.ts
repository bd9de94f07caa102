import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '#shared/auth/index.js';
import type { Database } from '#shared/db/index.js';
import type { EventStore } from '#shared/es/index.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import { migratePersonKeys, migrationPendingThrough, PersonalData, PersonKeys, sealingEventStore, type PersonalDataRules } from './index.js';

/*
 * The sealing store over a real SQL store (PGlite): what is stored is ciphertext, what is read is the
 * value, and after an erasure the placeholder; paths into arrays, claims that are personal only in one
 * scope, the actor's address in metadata; a rotation of the installation's key.
 */

const RULES: PersonalDataRules = {
  byType: {
    Registered: { person: 'userId', fields: { name: 'name', email: 'email' } },
    Results: { person: 'actor', fields: { 'results.*.notes': 'text' } },
    Claimed: { person: 'ownerId', fields: { name: 'username' }, onlyWhen: { field: 'scope', equals: 'username' } },
    Reviewed: { person: 'holder', fields: { 'items.*.userName': 'name' } },
  },
  metadata: { clientAddress: 'address' },
};

const meta = (actorId: number | string | null = 7) => ({ occurredAt: '2026-11-30T10:00:00.000Z', companyId: 1, actorId, clientAddress: '192.0.2.44' });

let spec: Awaited<ReturnType<typeof openPgliteStore>>;
let db: Database;
let keys: PersonKeys;
let store: EventStore;
const keyA = randomBytes(32);
const box = new SecretBox(keyA);

beforeAll(async () => {
  spec = await openPgliteStore();
  db = spec.db;
  await migratePersonKeys(db, () => spec.store.headPosition());
  keys = new PersonKeys(db, box);
  store = sealingEventStore(spec.store, new PersonalData(keys, RULES));
}, 60_000);

afterAll(async () => {
  await spec?.close();
});

const stored = async (stream: string) => (await db.query<{ payload: unknown; metadata: Record<string, unknown> }>(`SELECT payload, metadata FROM es_events WHERE stream_id = $1 ORDER BY revision`, [stream])).rows;

describe('the sealing event store', () => {
  it('stores ciphertext and reads values, through every read', async () => {
    expect(await migrationPendingThrough(db)).toBeNull();
    await store.append('user-7', [{ type: 'Registered', payload: { userId: 7, name: 'Ada Lovelace', email: 'ada@example.test', plan: 'pro' }, metadata: meta() }], 'no_stream');
    const [row] = await stored('user-7');
    expect(JSON.stringify(row)).not.toMatch(/Ada|ada@|192\.0\.2\.44/);
    expect(row!.payload).toMatchObject({ userId: 7, plan: 'pro', name: expect.stringMatching(/^pii:v1:user:7:/) });
    expect(row!.metadata.clientAddress).toMatch(/^pii:v1:user:7:/);
    const [read] = await store.readStream('user-7');
    expect(read!.payload).toEqual({ userId: 7, name: 'Ada Lovelace', email: 'ada@example.test', plan: 'pro' });
    expect(read!.metadata.clientAddress).toBe('192.0.2.44');
    expect((await store.readAll({ filter: { eventTypes: ['Registered'] } }))[0]!.payload).toMatchObject({ name: 'Ada Lovelace' });
    const sub = store.subscribe({ filter: { eventTypes: ['Registered'] } });
    for await (const e of sub) {
      expect(e.payload).toMatchObject({ email: 'ada@example.test' });
      break;
    }
    await sub.close();
  });

  it('seals each element of an array path, and a claim only in the scope where it is personal', async () => {
    await store.append('run-1', [{ type: 'Results', payload: { results: [{ id: 'a', notes: 'flaky on Tuesdays' }, { id: 'b', notes: null }] }, metadata: meta(7) }], 'any');
    await store.append('claim-1', [{ type: 'Claimed', payload: { scope: 'username', name: 'ada', ownerId: 7 }, metadata: meta() }], 'any');
    await store.append('review-1', [{ type: 'Reviewed', payload: { items: [{ userId: 7, userName: 'Ada Lovelace' }, { userId: 9, userName: 'Alan Turing' }, { teamName: 'Payments' }] }, metadata: meta() }], 'any');
    const [review] = await stored('review-1');
    expect(review!.payload).toMatchObject({ items: [{ userName: expect.stringMatching(/^pii:v1:user:7:/) }, { userName: expect.stringMatching(/^pii:v1:user:9:/) }, { teamName: 'Payments' }] });
    await store.append('claim-2', [{ type: 'Claimed', payload: { scope: 'team-name:1', name: 'Payments', ownerId: 3 }, metadata: meta() }], 'any');
    const [run] = await stored('run-1');
    expect(JSON.stringify(run)).not.toContain('Tuesdays');
    expect((run!.payload as { results: { notes: unknown }[] }).results[1]!.notes).toBeNull();
    expect((await stored('claim-1'))[0]!.payload).toMatchObject({ name: expect.stringMatching(/^pii:v1:user:7:/) });
    expect((await stored('claim-2'))[0]!.payload).toMatchObject({ name: 'Payments' });
    expect((await store.readStream('run-1'))[0]!.payload).toEqual({ results: [{ id: 'a', notes: 'flaky on Tuesdays' }, { id: 'b', notes: null }] });
  });

  it('reads an erased person as erased everywhere, changes no stored byte, and seals nothing new for them', async () => {
    const before = await db.query(`SELECT position, chain_hash FROM es_events ORDER BY position`);
    expect(await keys.erase('user:7', 1, 'user:1', new Date('2026-11-30T11:00:00Z'))).toBe(true);
    expect(await keys.erase('user:7', 1, 'user:1', new Date('2026-11-30T12:00:00Z'))).toBe(false);
    expect((await db.query(`SELECT position, chain_hash FROM es_events ORDER BY position`)).rows).toEqual(before.rows);
    const [read] = await store.readStream('user-7');
    expect(read!.payload).toEqual({ userId: 7, name: 'Erased person', email: 'erased-user-7@erased.invalid', plan: 'pro' });
    expect(read!.metadata.clientAddress).toBe('erased');
    expect((await store.readStream('run-1'))[0]!.payload).toMatchObject({ results: [{ notes: '[erased]' }, { notes: null }] });
    expect((await store.readStream('claim-1'))[0]!.payload).toMatchObject({ name: 'erased-user-7' });
    // Of a review's grants, only the erased person's name goes.
    expect((await store.readStream('review-1'))[0]!.payload).toEqual({ items: [{ userId: 7, userName: 'Erased person' }, { userId: 9, userName: 'Alan Turing' }, { teamName: 'Payments' }] });
    // A late event about them keeps only the placeholder.
    await store.append('user-7', [{ type: 'Registered', payload: { userId: 7, name: 'Ada again', email: 'x@example.test' }, metadata: meta(1) }], 'any');
    expect(JSON.stringify((await stored('user-7'))[1])).not.toContain('Ada again');
    expect((await keys.erasedAt('user:7'))?.toISOString()).toBe('2026-11-30T11:00:00.000Z');
  });

  it('seals the person keys again under a new installation key, and refuses (503) to read with a key no configured key opens', async () => {
    await store.append('user-8', [{ type: 'Registered', payload: { userId: 8, name: 'Grace Hopper', email: 'grace@example.test' }, metadata: meta(8) }], 'no_stream');
    const keyB = randomBytes(32);
    const rotated = new SecretBox(keyB, [keyA]);
    const again = new PersonKeys(db, rotated);
    // Persons 1 (an actor above), 8 and 9; 7 is erased.
    expect(await again.sealAgain()).toEqual({ sealed: 3, unopened: 0 });
    expect(await again.sealAgain()).toEqual({ sealed: 0, unopened: 0 });
    const afterRotation = sealingEventStore(spec.store, new PersonalData(new PersonKeys(db, new SecretBox(keyB)), RULES));
    expect((await afterRotation.readStream('user-8'))[0]!.payload).toMatchObject({ name: 'Grace Hopper' });
    // A process with another key: never placeholders in what it reads (or builds), a refusal naming the cause.
    const stranger = new PersonKeys(db, new SecretBox(randomBytes(32)));
    const lost = sealingEventStore(spec.store, new PersonalData(stranger, RULES));
    await expect(lost.readStream('user-8')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('SECRETS_KEY') });
    expect(await stranger.sealAgain()).toEqual({ sealed: 0, unopened: 3 });
  });
});
