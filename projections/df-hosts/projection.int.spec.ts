import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dfDevicesProjection } from '../df-devices/projection.js';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import type { Projection } from '../types.js';
import { dfHostsProjection } from './projection.js';
import { findHost, listHosts } from './queries.js';

/** The hosts' queries count each host's devices from df-devices, so the spec runs both read models on one database. */
const hostsAndDevices: Projection = {
  ...dfHostsProjection,
  eventTypes: [...new Set([...dfHostsProjection.eventTypes, ...dfDevicesProjection.eventTypes])],
  schema: dfHostsProjection.schema + dfDevicesProjection.schema,
  tables: [...dfHostsProjection.tables, ...dfDevicesProjection.tables],
  async apply(tx, event) {
    if (dfHostsProjection.eventTypes.includes(event.type)) await dfHostsProjection.apply(tx, event);
    if (dfDevicesProjection.eventTypes.includes(event.type)) await dfDevicesProjection.apply(tx, event);
  },
};

const enrolled = (hostId: string, companyId: number, at = SPEC_TIME) => ({
  type: 'HostEnrolled',
  payload: { hostId, name: `rack-${hostId}`, companyId, workspaceIds: [5], tokenHash: `secret-hash-${hostId}`, tokenPrefix: `dfh_${hostId}` },
  streamId: `df-host-${hostId}`,
  metadata: { actorId: 7, companyId, occurredAt: at },
});
const at = (occurredAt: string) => ({ metadata: { occurredAt } });
const connected = (deviceId: string, hostId: string, status: string) => ({
  type: 'DeviceConnected',
  payload: {
    deviceId,
    facts: { name: deviceId, platform: 'android', osVersion: '14', model: 'Pixel 7', manufacturer: 'Google', type: 'phone', isRealDevice: true, provider: 'adb', screen: { width: 1080, height: 2400, scale: 1 } },
    placement: { hostId, nodeName: 'node-a', hubId: 'hub-1', companyId: 1, workspaceIds: null },
    status,
  },
});
const paging = { page: 0, size: 20, includeRevoked: false };

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(hostsAndDevices)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-hosts read model', () => {
  it('given a host enrolled, shows it to its company with its scope and token prefix, never its token, who enrolled it, and waiting for its first connection', async () => {
    await spec.given(enrolled('h1', 1));
    expect(await findHost(spec.db, 1, 'h1')).toEqual({
      id: 'h1',
      name: 'rack-h1',
      workspaceIds: [5],
      status: 'pending',
      tokenPrefix: 'dfh_h1',
      createdAt: SPEC_TIME,
      updatedAt: SPEC_TIME,
      revokedAt: null,
      firstConnectedAt: null,
      devices: { total: 0, online: 0 },
    });
    const rows = await spec.rows('SELECT * FROM df_hosts');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.created_by).toBe('7');
    expect(JSON.stringify(rows)).not.toContain('secret-hash');
  });

  it("given hosts of two companies, each company lists its own, newest first, and finds no other company's host", async () => {
    await spec.given(enrolled('h1', 1), enrolled('h2', 2), enrolled('h3', 1, '2026-01-03T00:00:00.000Z'));
    const page = await listHosts(spec.db, 1, paging);
    expect(page.content.map((h) => h.id)).toEqual(['h3', 'h1']);
    expect(page.totalElements).toBe(2);
    expect(await findHost(spec.db, 1, 'h2')).toBeNull();
    expect((await listHosts(spec.db, 2, paging)).content.map((h) => h.id)).toEqual(['h2']);
  });

  it('given a rename, a re-scope to every workspace and a token rotation, shows each change and when it was made', async () => {
    await spec.given(
      enrolled('h1', 1),
      { type: 'HostRenamed', payload: { hostId: 'h1', name: 'rack-2' }, ...at('2026-01-02T04:00:00.000Z') },
      { type: 'HostRescoped', payload: { hostId: 'h1', workspaceIds: null }, ...at('2026-01-02T05:00:00.000Z') },
      { type: 'HostTokenRotated', payload: { hostId: 'h1', tokenHash: 'secret-hash-2', tokenPrefix: 'dfh_new' }, ...at('2026-01-02T06:00:00.000Z') },
    );
    expect(await findHost(spec.db, 1, 'h1')).toMatchObject({ name: 'rack-2', workspaceIds: null, tokenPrefix: 'dfh_new', createdAt: SPEC_TIME, updatedAt: '2026-01-02T06:00:00.000Z' });
    expect(JSON.stringify(await spec.rows('SELECT * FROM df_hosts'))).not.toContain('secret-hash');
  });

  it('given a revocation, the host leaves the list unless revoked hosts are asked for, and is still found as revoked', async () => {
    await spec.given(enrolled('h1', 1), enrolled('h2', 1), { type: 'HostRevoked', payload: { hostId: 'h1', reason: 'retired' }, ...at('2026-01-04T00:00:00.000Z') });
    expect((await listHosts(spec.db, 1, paging)).content.map((h) => h.id)).toEqual(['h2']);
    expect((await listHosts(spec.db, 1, { ...paging, includeRevoked: true })).totalElements).toBe(2);
    expect(await findHost(spec.db, 1, 'h1')).toMatchObject({ status: 'revoked', revokedAt: '2026-01-04T00:00:00.000Z', updatedAt: '2026-01-04T00:00:00.000Z' });
  });

  it('given its first connection, the host is active from then on (a second record changes nothing)', async () => {
    const first = { type: 'HostFirstConnected', payload: { hostId: 'h1', nodeName: 'node-a' }, ...at('2026-01-05T00:00:00.000Z') };
    await spec.given(enrolled('h1', 1), enrolled('h2', 1), first, { ...first, ...at('2026-01-06T00:00:00.000Z') });
    expect(await findHost(spec.db, 1, 'h1')).toMatchObject({ status: 'active', firstConnectedAt: '2026-01-05T00:00:00.000Z', updatedAt: SPEC_TIME });
    expect(await findHost(spec.db, 1, 'h2')).toMatchObject({ status: 'pending', firstConnectedAt: null });
  });

  it('counts the devices each host has reported and those not offline', async () => {
    await spec.given(enrolled('h1', 1), enrolled('h2', 1), connected('a', 'h1', 'available'), connected('b', 'h1', 'offline'), connected('c', 'h2', 'in_use'));
    expect((await findHost(spec.db, 1, 'h1'))!.devices).toEqual({ total: 2, online: 1 });
    expect((await findHost(spec.db, 1, 'h2'))!.devices).toEqual({ total: 1, online: 1 });
    // Hosts that reported devices have connected (also when that was before first connections were recorded).
    expect((await findHost(spec.db, 1, 'h1'))!.status).toBe('active');
  });

  it('given the same events again (a replay after a crash), leaves the same rows', async () => {
    const recorded = await spec.given(enrolled('h1', 1), { type: 'HostRenamed', payload: { hostId: 'h1', name: 'rack-2' }, ...at('2026-01-02T04:00:00.000Z') });
    const before = await spec.rows('SELECT * FROM df_hosts');
    await spec.replay(recorded);
    expect(await spec.rows('SELECT * FROM df_hosts')).toEqual(before);
  });
});
