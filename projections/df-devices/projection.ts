import type { DeviceEvent, DeviceHostEvent, DevicePreferenceEvent } from '#events/df/devices.js';
import { DEVICE_EVENT_TYPES, DEVICE_HOST_EVENT_TYPES, DEVICE_PREFERENCE_EVENT_TYPES } from '#events/df/devices.js';
import type { HostEvent } from '#events/df/hosts.js';
import type { HealthEvent } from '#events/df/health.js';
import type { ReservationEvent } from '#events/df/reservations.js';
import type { Sql } from '#shared/db/index.js';
import { applyByType, type Projection } from '../types.js';

type Holding = Extract<ReservationEvent, { type: (typeof HOLDING_EVENTS)[number] }>;
type Handled = DeviceEvent | DeviceHostEvent | DevicePreferenceEvent | Extract<HostEvent, { type: 'HostRescoped' }> | Holding | Extract<HealthEvent, { type: (typeof HEALTH_EVENTS)[number] }>;

/** The health events the device list shows: its health's changes and the mending under way. */
const HEALTH_EVENTS = ['DeviceHealthChanged', 'DeviceMendingStarted', 'DeviceMendingStepBegun', 'DeviceMendingEnded'] as const satisfies readonly HealthEvent['type'][];

/** The booking events that change which booking holds a device. */
const HOLDING_EVENTS = ['DeviceReservationActivated', 'DeviceReservationEnded', 'DeviceReservationCancelled', 'DeviceReservationExpired'] as const satisfies readonly ReservationEvent['type'][];

async function holdFor(tx: Sql, deviceId: string, reservationId: string): Promise<void> {
  await changing(tx, 'device_id = $1', [deviceId], () =>
    tx.query(`UPDATE df_devices SET reservation_id = $2, status = CASE WHEN status = 'available' THEN 'reserved' ELSE status END WHERE device_id = $1`, [deviceId, reservationId]),
  );
}

async function release(tx: Sql, deviceId: string, reservationId: string): Promise<void> {
  // Grouped by the device alone: the change clears the column the condition reads.
  await changing(tx, 'device_id = $1', [deviceId], () =>
    tx.query(`UPDATE df_devices SET reservation_id = NULL, status = CASE WHEN status = 'reserved' THEN 'available' ELSE status END WHERE device_id = $1 AND reservation_id = $2`, [deviceId, reservationId]),
  );
}

/** Every column the list filters on exactly (not search, not favorite): the key of `df_device_groups`. */
export const GROUP_COLUMNS = 'company_id, workspace_ids, status, platform, os_version, model, type, is_real, node_name, hub_id, session_type';
const GROUP_KEY = `concat_ws(chr(31), coalesce(company_id::text, '-'), coalesce(workspace_ids::text, '-'), status, platform, os_version, model, type, is_real::text, node_name, hub_id, coalesce(session_type, '-'))`;

/**
 * Moves the rows selected by `where` out of (`sign` −1) or into (+1) their groups. Called around every
 * change of `df_devices`, so `df_device_groups` always holds how many devices share each combination
 * of filterable values: list totals and facet counts sum a few hundred groups instead of counting rows.
 */
async function regroup(tx: Sql, where: string, params: unknown[], sign: 1 | -1): Promise<void> {
  await tx.query(
    `INSERT INTO df_device_groups (gkey, ${GROUP_COLUMNS}, n)
     SELECT ${GROUP_KEY}, ${GROUP_COLUMNS}, ${sign} * count(*)::integer FROM df_devices WHERE ${where} GROUP BY ${GROUP_COLUMNS}
     ON CONFLICT (gkey) DO UPDATE SET n = df_device_groups.n + excluded.n`,
    params,
  );
}

/** Runs a change of the rows selected by `where` with their groups kept in step. */
async function changing(tx: Sql, where: string, params: unknown[], change: () => Promise<unknown>): Promise<void> {
  await regroup(tx, where, params, -1);
  await change();
  await regroup(tx, where, params, 1);
}

/** The devices of a host batch still placed on that host and in the state the batch changes. */
async function batchIds(tx: Sql, deviceIds: string[], hostId: string, condition: string): Promise<string[]> {
  const r = await tx.query<{ device_id: string }>(`SELECT device_id FROM df_devices WHERE device_id = ANY($1::text[]) AND host_id = $2 AND ${condition}`, [deviceIds, hostId]);
  return r.rows.map((row) => row.device_id);
}

// Sort keys of the list (ascending and descending, the device id breaking ties ascending) and the
// selective exact filters, so a page is an index range scan and a filter does not scan every row.
const SORT_INDEXES = [
  ['name', 'lower(name)'],
  ['status', 'status'],
  ['platform', 'platform'],
  ['os_version', 'os_version'],
  ['model', 'model'],
  ['type', 'type'],
  ['node_name', 'node_name'],
  ['hub_id', 'hub_id'],
  ['last_seen_at', 'last_seen_at'],
]
  .map(
    ([name, expr]) => `
    CREATE INDEX IF NOT EXISTS df_devices_sort_${name} ON df_devices ((${expr}), device_id);
    CREATE INDEX IF NOT EXISTS df_devices_sort_${name}_desc ON df_devices ((${expr}) DESC, device_id);`,
  )
  .join('');

/**
 * The status a device shows, given the status its own events give it: an available device being mended
 * is `mending` (docs/modules/device-health.md, "Mending"); one that a booking holds now is `reserved` (to
 * everyone: the holder's sessions make it `in_use` as usual).
 */
const heldStatus = (status: string, reservation = 'reservation_id', mending = 'mending') =>
  `CASE WHEN ${status} = 'available' AND ${mending} IS NOT NULL THEN 'mending' WHEN ${status} = 'available' AND ${reservation} IS NOT NULL THEN 'reserved' ELSE ${status} END`;

/** Devices as the list shows them, and each user's aliases and favorites. */
/**
 * The planner's statistics of the device tables, kept fresh the way autovacuum's analyze threshold
 * would (PGlite has no autovacuum): after a fifth of the devices counted at the last ANALYZE (at least
 * 500) connected. With stale statistics a 10,000-device fleet looks empty to the planner, which then
 * picks plans that read every row for one page.
 */
const statistics = { connected: 0, rowsAtLastAnalyze: 0 };

async function analyzeWhenGrown(tx: Sql, connected = 1): Promise<void> {
  statistics.connected += connected;
  if (statistics.connected < Math.max(500, statistics.rowsAtLastAnalyze / 5)) return;
  await tx.query('ANALYZE df_devices');
  await tx.query('ANALYZE df_device_groups');
  const r = await tx.query<{ n: unknown }>(`SELECT reltuples AS n FROM pg_class WHERE relname = 'df_devices'`);
  statistics.rowsAtLastAnalyze = Math.max(0, Number(r.rows[0]?.n ?? 0));
  statistics.connected = 0;
}

type Connected = Extract<DeviceEvent, { type: 'DeviceConnected' }>['payload'] & { at: string };

/**
 * Devices connected (one, or a run of them: a host announcing itself, a rebuild) in three statements:
 * their groups out, one multi-row upsert, their groups in. A device connected twice in a run keeps its
 * last facts.
 */
async function connectMany(tx: Sql, run: readonly Connected[]): Promise<void> {
  const last = new Map<string, Connected>();
  for (const c of run) {
    last.delete(c.deviceId);
    last.set(c.deviceId, c);
  }
  const rows = [...last.values()];
  const ids = rows.map((r) => r.deviceId);
  const column = <T>(f: (r: Connected) => T) => rows.map(f);
  await changing(tx, 'device_id = ANY($1::text[])', [ids], () =>
    tx.query(
      `INSERT INTO df_devices (device_id, name, platform, os_version, model, manufacturer, type, is_real, provider, screen,
         host_id, node_name, hub_id, company_id, workspace_ids, status, last_seen_at, connected_at, capabilities)
       SELECT d, n, pl, ov, m, mf, t, r, pr, sc::jsonb, h, nn, hb, c, ws::integer[], st, at, at, cp::jsonb
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::text[],
                   $10::text[], $11::text[], $12::text[], $13::text[], $14::integer[], $15::text[], $16::text[], $17::timestamptz[], $18::text[])
         AS u(d, n, pl, ov, m, mf, t, r, pr, sc, h, nn, hb, c, ws, st, at, cp)
       ON CONFLICT (device_id) DO UPDATE SET name = excluded.name, platform = excluded.platform, os_version = excluded.os_version,
         model = excluded.model, manufacturer = excluded.manufacturer, type = excluded.type, is_real = excluded.is_real,
         provider = excluded.provider, screen = excluded.screen, host_id = excluded.host_id, node_name = excluded.node_name,
         hub_id = excluded.hub_id, company_id = excluded.company_id, workspace_ids = excluded.workspace_ids, status = ${heldStatus('excluded.status', 'df_devices.reservation_id', 'df_devices.mending')},
         last_seen_at = excluded.last_seen_at, connected_at = excluded.connected_at, capabilities = excluded.capabilities`,
      [
        ids,
        column((r) => r.facts.name),
        column((r) => r.facts.platform),
        column((r) => r.facts.osVersion),
        column((r) => r.facts.model),
        column((r) => r.facts.manufacturer),
        column((r) => r.facts.type),
        column((r) => r.facts.isRealDevice),
        column((r) => r.facts.provider),
        column((r) => JSON.stringify(r.facts.screen)),
        column((r) => r.placement.hostId),
        column((r) => r.placement.nodeName),
        column((r) => r.placement.hubId),
        column((r) => r.placement.companyId),
        // Arrays of differing lengths cannot be an unnest column: each travels as its array literal.
        column((r) => (r.placement.workspaceIds ? `{${r.placement.workspaceIds.join(',')}}` : null)),
        column((r) => r.status),
        column((r) => r.at),
        column((r) => (r.facts.capabilities ? JSON.stringify(r.facts.capabilities) : null)),
      ],
    ),
  );
  await analyzeWhenGrown(tx, rows.length);
}

export const dfDevicesProjection: Projection = {
  name: 'df-devices',
  version: 5,
  eventTypes: [...DEVICE_EVENT_TYPES, ...DEVICE_HOST_EVENT_TYPES, ...DEVICE_PREFERENCE_EVENT_TYPES, 'HostRescoped', ...HOLDING_EVENTS, ...HEALTH_EVENTS],
  schema: `
    CREATE TABLE IF NOT EXISTS df_devices (
      device_id text PRIMARY KEY,
      name text NOT NULL,
      platform text NOT NULL,
      os_version text NOT NULL,
      model text NOT NULL,
      manufacturer text NOT NULL,
      type text NOT NULL,
      is_real boolean NOT NULL,
      provider text NOT NULL,
      screen jsonb NOT NULL,
      host_id text NOT NULL,
      node_name text NOT NULL,
      hub_id text NOT NULL,
      company_id integer,
      workspace_ids integer[],
      status text NOT NULL,
      health text NOT NULL DEFAULT 'ok',
      session_id text,
      session_type text,
      -- the booking that holds the device now: an idle device it holds shows reserved
      reservation_id text,
      last_seen_at timestamptz NOT NULL,
      connected_at timestamptz NOT NULL
    );
    -- how the host shows the screen and takes input (DeviceInfo.capabilities), null until known
    ALTER TABLE df_devices ADD COLUMN IF NOT EXISTS capabilities jsonb;
    -- the device's health as its last change left it ({state, reasons, battery, storageFreeMb, checkedAt}), null until read
    ALTER TABLE df_devices ADD COLUMN IF NOT EXISTS health_detail jsonb;
    -- the mending under way ({since, until, step}), null when none: an available device shows mending
    ALTER TABLE df_devices ADD COLUMN IF NOT EXISTS mending jsonb;
    CREATE INDEX IF NOT EXISTS df_devices_host ON df_devices (host_id);
    CREATE INDEX IF NOT EXISTS df_devices_status ON df_devices (status);
    CREATE INDEX IF NOT EXISTS df_devices_name ON df_devices (name, device_id);
    CREATE INDEX IF NOT EXISTS df_devices_session_type ON df_devices (session_type) WHERE session_type IS NOT NULL;
    CREATE INDEX IF NOT EXISTS df_devices_company ON df_devices (company_id) WHERE company_id IS NOT NULL;${SORT_INDEXES}
    CREATE TABLE IF NOT EXISTS df_device_groups (
      gkey text PRIMARY KEY,
      company_id integer,
      workspace_ids integer[],
      status text NOT NULL,
      platform text NOT NULL,
      os_version text NOT NULL,
      model text NOT NULL,
      type text NOT NULL,
      is_real boolean NOT NULL,
      node_name text NOT NULL,
      hub_id text NOT NULL,
      session_type text,
      n integer NOT NULL
    );
    CREATE TABLE IF NOT EXISTS df_device_prefs (
      user_id integer NOT NULL,
      device_id text NOT NULL,
      alias text,
      favorite boolean NOT NULL DEFAULT false,
      PRIMARY KEY (user_id, device_id)
    );`,
  tables: ['df_devices', 'df_device_groups', 'df_device_prefs'],
  // Runs of `DeviceConnected` (registration, rebuilds) go in one upsert; other events one by one, in order.
  async applyBatch(tx, events) {
    let run: Connected[] = [];
    const flush = async () => {
      if (run.length > 0) await connectMany(tx, run);
      run = [];
    };
    for (const e of events) {
      if (e.type === 'DeviceConnected') {
        run.push({ ...(e.payload as Connected), at: e.metadata.occurredAt });
        continue;
      }
      await flush();
      await dfDevicesProjection.apply(tx, e);
    }
    await flush();
  },
  apply: applyByType<Handled>({
    DeviceConnected: (tx, event, at) => connectMany(tx, [{ ...event.payload, at }]),
    DeviceDisconnected: async (tx, event, at) => {
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET status = $2, last_seen_at = $3 WHERE device_id = $1`, [event.payload.deviceId, event.payload.status, at]),
      );
    },
    DeviceStatusChanged: async (tx, event) => {
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET status = ${heldStatus('$2')}, health = $3 WHERE device_id = $1`, [event.payload.deviceId, event.payload.status, event.payload.health]),
      );
    },
    DeviceAllocated: async (tx, event) => {
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET status = $2, session_id = $3, session_type = $4 WHERE device_id = $1`, [
          event.payload.deviceId, event.payload.status, event.payload.sessionId, event.payload.sessionType,
        ]),
      );
    },
    DeviceReleased: async (tx, event) => {
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET status = ${heldStatus('$2')}, session_id = NULL, session_type = NULL WHERE device_id = $1`, [event.payload.deviceId, event.payload.status]),
      );
    },
    // Another host's claim changes nothing of the device.
    DeviceClaimRefused: async () => {},
    DeviceMoved: async (tx, event, at) => {
      const p = event.payload.placement;
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET host_id = $2, node_name = $3, hub_id = $4, company_id = $5, workspace_ids = $6::integer[], status = 'offline', last_seen_at = $7 WHERE device_id = $1`, [
          event.payload.deviceId, p.hostId, p.nodeName, p.hubId, p.companyId, p.workspaceIds ? `{${p.workspaceIds.join(',')}}` : null, at,
        ]),
      );
    },
    HostDevicesDisconnected: async (tx, event, at) => {
      // Only devices still placed on this host and not offline already; one statement for the batch.
      const ids = await batchIds(tx, event.payload.deviceIds, event.payload.hostId, `status <> 'offline'`);
      if (ids.length === 0) return;
      await changing(tx, 'device_id = ANY($1::text[])', [ids], () =>
        tx.query(`UPDATE df_devices SET status = 'offline', last_seen_at = $2 WHERE device_id = ANY($1::text[])`, [ids, at]),
      );
    },
    HostDevicesReconnected: async (tx, event, at) => {
      const ids = await batchIds(tx, event.payload.deviceIds, event.payload.hostId, `status = 'offline'`);
      if (ids.length === 0) return;
      // The status each device has once online again (statusOf in the device decider).
      await changing(tx, 'device_id = ANY($1::text[])', [ids], () =>
        tx.query(
          `UPDATE df_devices SET status = CASE WHEN health = 'broken' THEN 'maintenance' WHEN session_id IS NOT NULL THEN 'in_use' WHEN mending IS NOT NULL THEN 'mending' WHEN reservation_id IS NOT NULL THEN 'reserved' ELSE 'available' END,
             last_seen_at = $2, connected_at = $2 WHERE device_id = ANY($1::text[])`,
          [ids, at],
        ),
      );
    },
    // A booking holds the device from its start to its end (or cancellation, expiry).
    DeviceReservationActivated: (tx, event) => holdFor(tx, event.payload.deviceId, event.payload.reservationId),
    DeviceReservationEnded: (tx, event) => release(tx, event.payload.deviceId, event.payload.reservationId),
    DeviceReservationCancelled: (tx, event) => release(tx, event.payload.deviceId, event.payload.reservationId),
    DeviceReservationExpired: (tx, event) => release(tx, event.payload.deviceId, event.payload.reservationId),
    // Health is no filter column: the row's groups do not move.
    DeviceHealthChanged: (tx, event) => tx.query(`UPDATE df_devices SET health_detail = $2::jsonb WHERE device_id = $1`, [event.payload.deviceId, JSON.stringify(event.payload.health)]),
    // A mending under way: an idle device (available, or held by a booking) shows `mending` until it ends.
    DeviceMendingStarted: async (tx, event) => {
      const mending = JSON.stringify({ since: event.payload.at, until: event.payload.until, step: null });
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET mending = $2::jsonb, status = CASE WHEN status IN ('available', 'reserved') THEN 'mending' ELSE status END WHERE device_id = $1`, [event.payload.deviceId, mending]),
      );
    },
    DeviceMendingStepBegun: (tx, event) => tx.query(`UPDATE df_devices SET mending = jsonb_set(mending, '{step}', to_jsonb($2::text)) WHERE device_id = $1 AND mending IS NOT NULL`, [event.payload.deviceId, event.payload.step]),
    DeviceMendingEnded: async (tx, event) => {
      await changing(tx, 'device_id = $1', [event.payload.deviceId], () =>
        tx.query(`UPDATE df_devices SET mending = NULL, status = CASE WHEN status = 'mending' THEN CASE WHEN reservation_id IS NOT NULL THEN 'reserved' ELSE 'available' END ELSE status END WHERE device_id = $1`, [event.payload.deviceId]),
      );
    },
    // A re-scoped host moves its devices to the workspaces it serves now.
    HostRescoped: async (tx, event) => {
      const ws = event.payload.workspaceIds;
      await changing(tx, 'host_id = $1', [event.payload.hostId], () =>
        tx.query(`UPDATE df_devices SET workspace_ids = $2::integer[] WHERE host_id = $1`, [event.payload.hostId, ws ? `{${ws.join(',')}}` : null]),
      );
    },
    DeviceAliasSet: async (tx, event) => {
      await tx.query(
        `INSERT INTO df_device_prefs (user_id, device_id, alias) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, device_id) DO UPDATE SET alias = $3`,
        [event.payload.userId, event.payload.deviceId, event.payload.alias],
      );
    },
    DeviceAliasRemoved: (tx, event) => tx.query(`UPDATE df_device_prefs SET alias = NULL WHERE user_id = $1 AND device_id = $2`, [event.payload.userId, event.payload.deviceId]),
    DeviceFavorited: async (tx, event) => {
      await tx.query(
        `INSERT INTO df_device_prefs (user_id, device_id, favorite) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, device_id) DO UPDATE SET favorite = $3`,
        [event.payload.userId, event.payload.deviceId, true],
      );
    },
    DeviceUnfavorited: async (tx, event) => {
      await tx.query(
        `INSERT INTO df_device_prefs (user_id, device_id, favorite) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, device_id) DO UPDATE SET favorite = $3`,
        [event.payload.userId, event.payload.deviceId, false],
      );
    },
  }),
};
