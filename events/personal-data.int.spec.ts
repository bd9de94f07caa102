import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '#shared/auth/index.js';
import type { EventStore } from '#shared/es/index.js';
import { migratePersonKeys, PersonalData, PersonKeys, sealingEventStore } from '#shared/pii/index.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import { PERSONAL_DATA } from './personal-data.js';

/*
 * Whose the personal data of the platform's own events is, through the sealing store over a real SQL
 * store (PGlite): a booking's note is its holder's, whoever wrote it or moved the booking, while the
 * address a request came from stays its actor's.
 */

let spec: Awaited<ReturnType<typeof openPgliteStore>>;
let store: EventStore;

beforeAll(async () => {
  spec = await openPgliteStore();
  await migratePersonKeys(spec.db, () => spec.store.headPosition());
  store = sealingEventStore(spec.store, new PersonalData(new PersonKeys(spec.db, new SecretBox(randomBytes(32))), PERSONAL_DATA));
}, 60_000);

afterAll(async () => {
  await spec?.close();
});

const HOLDER = 9;
const ADMIN = 2;
const meta = (actorId: number) => ({ occurredAt: '2026-11-30T10:00:00.000Z', companyId: 1, actorId, clientAddress: '192.0.2.44' });
const stored = async (stream: string) =>
  (await spec.db.query<{ payload: Record<string, unknown>; metadata: Record<string, unknown> }>(`SELECT payload, metadata FROM es_events WHERE stream_id = $1 ORDER BY revision`, [stream])).rows;

describe("a booking's note", () => {
  it('is sealed under its holder when an administrator books for them and when an administrator moves the booking; the address stays the actor’s', async () => {
    const booking = { reservationId: 'r-1', deviceId: 'd-1' };
    await store.append(
      'device-bookings-d-1',
      [
        { type: 'DeviceReservationScheduled', payload: { ...booking, userId: HOLDER, companyId: 1, workspaceId: 1, startAt: '2026-12-01T10:00:00.000Z', endAt: '2026-12-01T11:00:00.000Z', note: 'Flaky login on 14' }, metadata: meta(ADMIN) },
        { type: 'DeviceReservationRescheduled', payload: { ...booking, userId: HOLDER, startAt: '2026-12-01T10:00:00.000Z', endAt: '2026-12-01T12:00:00.000Z', note: 'Flaky login on 14' }, metadata: meta(ADMIN) },
      ],
      'no_stream',
    );
    const rows = await stored('device-bookings-d-1');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.payload.note).toMatch(new RegExp(`^pii:v1:user:${HOLDER}:`));
      expect(row.metadata.clientAddress).toMatch(new RegExp(`^pii:v1:user:${ADMIN}:`));
    }
    expect((await store.readStream('device-bookings-d-1')).map((e) => (e.payload as { note: string }).note)).toEqual(['Flaky login on 14', 'Flaky login on 14']);
  });
});
