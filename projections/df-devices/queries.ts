import type { Page } from '#shared/paging.js';
import type { Sql } from '#shared/db/index.js';
import { type Row, json, numOrNull, textOrNull } from '#shared/db/index.js';
import type { DeviceCapabilities } from '#shared/wire/index.js';
import type { DeviceHealthRecord, DeviceMendingRecord } from '#events/df/health.js';
import { containing } from '../queries.js';

/** What a device is, as its host reported it. */
export interface DeviceFactsRecord {
  name: string;
  platform: string;
  osVersion: string;
  model: string;
  manufacturer: string;
  type: string;
  isRealDevice: boolean;
  provider: string;
  screen: { width: number; height: number; scale: number };
  /** How the host shows the screen and takes input, and why on a fallback (absent until known). */
  capabilities?: DeviceCapabilities | undefined;
}

/** A device as the API shows it (docs/api-conventions.md, "Device testing"), with the caller's alias and favorite. */
export interface DeviceView extends Omit<DeviceFactsRecord, 'capabilities'> {
  id: string;
  capabilities: DeviceCapabilities | null;
  alias: string | null;
  status: string;
  nodeName: string;
  hubId: string;
  favorite: boolean;
  lastSeenAt: string;
  sessionType: string | null;
  /** Its health as last changed (docs/modules/device-health.md); null until its first reading. */
  health: DeviceHealthRecord | null;
  /** The mending under way (its status `mending` while it is not in a session or offline); null: none. */
  mending: DeviceMendingRecord | null;
}

export interface DeviceFilters {
  search?: string;
  platform?: string[];
  osVersion?: string[];
  model?: string[];
  type?: string[];
  excludeType?: string[];
  isRealDevice?: boolean;
  status?: string[];
  sessionType?: string[];
  nodeName?: string[];
  hubId?: string[];
  favorite?: boolean;
  /** Only devices whose health is read and not `healthy` (true), or only those that are healthy or not read yet (false). */
  needsAttention?: boolean;
}

export const DEVICE_SORT_COLUMNS = {
  name: 'lower(coalesce(p.alias, d.name))',
  status: 'd.status',
  platform: 'd.platform',
  osVersion: 'd.os_version',
  model: 'd.model',
  type: 'd.type',
  nodeName: 'd.node_name',
  hubId: 'd.hub_id',
  lastSeenAt: 'd.last_seen_at',
  favorite: 'coalesce(p.favorite, false)',
} as const;
export type DeviceSort = keyof typeof DEVICE_SORT_COLUMNS;

export const FACETS = { platform: 'd.platform', osVersion: 'd.os_version', model: 'd.model', type: 'd.type', status: 'd.status', nodeName: 'd.node_name' } as const;
export type Facet = keyof typeof FACETS;


/**
 * Who is looking: devices are visible in the company of their host's enrolment, in the workspaces the
 * enrolment names (all when it names none); devices of the operator's shared pool (no company) only
 * when the pool is on.
 */
export interface DeviceScope {
  companyId: number;
  workspaceId: number;
  userId: number;
  sharedPool?: boolean;
}
type Scope = DeviceScope;

/** The visibility clause; pushes its parameters. */
function visible(scope: Scope, params: unknown[]): string {
  params.push(scope.companyId, scope.workspaceId);
  const company = scope.sharedPool ? `(d.company_id = $${params.length - 1} OR d.company_id IS NULL)` : `d.company_id = $${params.length - 1}`;
  return `${company} AND (d.workspace_ids IS NULL OR $${params.length}::integer = ANY(d.workspace_ids))`;
}

/**
 * WHERE clause for the caller's visible devices and the filters, leaving out `except` (facet counts).
 * Without `aliases` the search does not look at the caller's aliases (the caller has none).
 */
function where(scope: Scope, f: DeviceFilters, params: unknown[], options: { except?: Facet; aliases?: boolean } = {}): string {
  const { except, aliases = true } = options;
  const clauses = [visible(scope, params)];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(`$${params.length}`));
  };
  const anyOf = (column: string, values: string[] | undefined) => {
    if (values && values.length > 0) add((n) => `${column} = ANY(${n}::text[])`, values);
  };
  if (f.search) {
    add(
      (n) =>
        `(d.name ILIKE ${n}${aliases ? ` OR p.alias ILIKE ${n}` : ''} OR d.model ILIKE ${n} OR d.manufacturer ILIKE ${n} OR d.os_version ILIKE ${n} OR d.node_name ILIKE ${n} OR d.device_id ILIKE ${n})`,
      containing(f.search),
    );
  }
  for (const facet of Object.keys(FACETS) as Facet[]) if (facet !== except) anyOf(FACETS[facet], f[facet]);
  anyOf('d.hub_id', f.hubId);
  anyOf('d.session_type', f.sessionType);
  if (f.excludeType && f.excludeType.length > 0) add((n) => `NOT (d.type = ANY(${n}::text[]))`, f.excludeType);
  if (f.isRealDevice !== undefined) add((n) => `d.is_real = ${n}`, f.isRealDevice);
  if (f.favorite !== undefined) add((n) => `coalesce(p.favorite, false) = ${n}`, f.favorite);
  if (f.needsAttention !== undefined) clauses.push(`coalesce(d.health_detail->>'state', 'healthy') ${f.needsAttention ? '<>' : '='} 'healthy'`);
  return clauses.join(' AND ');
}

/** The caller's preferences joined to devices; `$2` is the caller. */
const prefsJoin = (n: string) => `LEFT JOIN df_device_prefs p ON p.device_id = d.device_id AND p.user_id = ${n}`;

const COLUMNS = `d.device_id, d.name, d.platform, d.os_version, d.model, d.manufacturer, d.type, d.is_real, d.status,
  d.node_name, d.hub_id, d.last_seen_at, d.provider, d.screen, d.session_type, d.capabilities, d.health_detail, d.mending`;

const SELECT = `SELECT ${COLUMNS}, p.alias, coalesce(p.favorite, false) AS favorite`;


function toView(r: Row, now: Date): DeviceView {
  const screen = json<DeviceView['screen']>(r.screen);
  return {
    id: String(r.device_id),
    name: String(r.name),
    alias: textOrNull(r.alias),
    platform: String(r.platform),
    osVersion: String(r.os_version),
    model: String(r.model),
    manufacturer: String(r.manufacturer),
    type: String(r.type),
    isRealDevice: Boolean(r.is_real),
    status: String(r.status),
    nodeName: String(r.node_name),
    hubId: String(r.hub_id),
    favorite: Boolean(r.favorite),
    // An online device is seen right now (heartbeats are not events); an offline one when it left.
    lastSeenAt: (r.status === 'offline' ? new Date(r.last_seen_at as string | Date) : now).toISOString(),
    provider: String(r.provider),
    screen,
    sessionType: textOrNull(r.session_type),
    capabilities: r.capabilities === null || r.capabilities === undefined ? null : json<DeviceCapabilities>(r.capabilities),
    health: r.health_detail === null || r.health_detail === undefined ? null : json<DeviceHealthRecord>(r.health_detail),
    mending: r.mending === null || r.mending === undefined ? null : json<DeviceMendingRecord>(r.mending),
  };
}

/** Whether the user has named any device (only then does the name sort or the search need the aliases). */
async function hasAliases(db: Sql, userId: number): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM df_device_prefs WHERE user_id = $1 AND alias IS NOT NULL LIMIT 1`, [userId]);
  return r.rows.length > 0;
}

/**
 * One page of the caller's devices. The page reads `df_devices` alone whenever the caller's aliases
 * and favorites cannot change which rows match or their order (no favorite filter or sort, and no
 * aliases when sorting by name or searching): then a sort is an index range scan and the
 * preferences are joined to the page's rows only. The total comes from the page itself when the page
 * is the last one, else from `df_device_groups` when the filters are exact ones, else from a count.
 */
export async function listDevices(
  db: Sql,
  scope: Scope,
  filters: DeviceFilters,
  paging: { page: number; size: number; sortBy: DeviceSort; sortDir: 'asc' | 'desc' },
  now = new Date(),
): Promise<Page<DeviceView>> {
  const dir = paging.sortDir === 'desc' ? 'DESC' : 'ASC';
  const offset = paging.page * paging.size;
  const needsAliases = (paging.sortBy === 'name' || Boolean(filters.search)) && (await hasAliases(db, scope.userId));
  const prefsMatter = needsAliases || paging.sortBy === 'favorite' || filters.favorite !== undefined;
  const params: unknown[] = [];
  const w = where(scope, filters, params, { aliases: needsAliases });
  params.push(scope.userId);
  const user = `$${params.length}`;
  let rows: Row[];
  if (prefsMatter) {
    const order = `${DEVICE_SORT_COLUMNS[paging.sortBy]} ${dir}, d.device_id ASC`;
    rows = (await db.query(`${SELECT} FROM df_devices d ${prefsJoin(user)} WHERE ${w} ORDER BY ${order} LIMIT ${paging.size + 1} OFFSET ${offset}`, params)).rows;
  } else {
    const key = paging.sortBy === 'name' ? 'lower(d.name)' : DEVICE_SORT_COLUMNS[paging.sortBy];
    const order = `${key} ${dir}, d.device_id ASC`;
    rows = (
      await db.query(
        `${SELECT} FROM (SELECT ${COLUMNS} FROM df_devices d WHERE ${w} ORDER BY ${order} LIMIT ${paging.size + 1} OFFSET ${offset}) d
         ${prefsJoin(user)} ORDER BY ${order}`,
        params,
      )
    ).rows;
  }
  const more = rows.length > paging.size;
  if (more) rows = rows.slice(0, paging.size);
  let totalElements: number;
  if (!more && (rows.length > 0 || offset === 0)) {
    totalElements = offset + rows.length;
  } else if (!filters.search && filters.favorite === undefined && filters.needsAttention === undefined) {
    const gp: unknown[] = [];
    const gw = where(scope, filters, gp, { aliases: false });
    totalElements = Number((await db.query<{ n: unknown }>(`SELECT coalesce(sum(d.n), 0) AS n FROM df_device_groups d WHERE ${gw}`, gp)).rows[0]?.n ?? 0);
  } else {
    const cp: unknown[] = [];
    const cw = where(scope, filters, cp, { aliases: needsAliases });
    let join = '';
    if (needsAliases || filters.favorite !== undefined) {
      cp.push(scope.userId);
      join = prefsJoin(`$${cp.length}`);
    }
    totalElements = Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM df_devices d ${join} WHERE ${cw}`, cp)).rows[0]?.n ?? 0);
  }
  return {
    content: rows.map((r) => toView(r, now)),
    page: paging.page,
    size: paging.size,
    totalElements,
    totalPages: Math.ceil(totalElements / paging.size),
  };
}

/**
 * Counts per value of each facet, each under every filter but its own (so a chosen value keeps its
 * siblings). Without a search or favorite filter the counts sum `df_device_groups`.
 */
export async function deviceFacets(db: Sql, scope: Scope, filters: DeviceFilters): Promise<Record<Facet, { value: string; count: number }[]>> {
  // The groups do not keep health: a health filter counts the devices themselves.
  const grouped = !filters.search && filters.favorite === undefined && filters.needsAttention === undefined;
  const entries = await Promise.all(
    (Object.keys(FACETS) as Facet[]).map(async (facet) => {
      const params: unknown[] = [];
      const w = where(scope, filters, params, { except: facet });
      let sql: string;
      if (grouped) {
        sql = `SELECT ${FACETS[facet]} AS value, sum(d.n) AS n FROM df_device_groups d WHERE ${w} GROUP BY 1 HAVING sum(d.n) > 0 ORDER BY 2 DESC, 1 ASC`;
      } else {
        params.push(scope.userId);
        sql = `SELECT ${FACETS[facet]} AS value, count(*) AS n FROM df_devices d ${prefsJoin(`$${params.length}`)} WHERE ${w} GROUP BY 1 ORDER BY 2 DESC, 1 ASC`;
      }
      const r = await db.query<{ value: string; n: unknown }>(sql, params);
      return [facet, r.rows.map((row) => ({ value: row.value, count: Number(row.n) }))] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Facet, { value: string; count: number }[]>;
}

/** One device the caller may see, or null. */
export async function findDevice(db: Sql, scope: Scope, deviceId: string, now = new Date()): Promise<DeviceView | null> {
  const params: unknown[] = [];
  const w = visible(scope, params);
  params.push(scope.userId, deviceId);
  const r = await db.query(`${SELECT} FROM df_devices d ${prefsJoin(`$${params.length - 1}`)} WHERE ${w} AND d.device_id = $${params.length}`, params);
  return r.rows[0] ? toView(r.rows[0], now) : null;
}

export interface DeviceRow {
  deviceId: string;
  hostId: string;
  status: string;
  health: string;
  sessionId: string | null;
  companyId: number | null;
}

/** Routing facts of one device (no tenant check: for the service's own use). */
export async function deviceRow(db: Sql, deviceId: string): Promise<DeviceRow | null> {
  const r = await db.query(`SELECT device_id, host_id, status, health, session_id, company_id FROM df_devices WHERE device_id = $1`, [deviceId]);
  const row = r.rows[0];
  return row ? toRow(row) : null;
}

/** Where a device is placed: its host, company and workspaces (no tenant check: for the service's own use). */
export async function placementOfDevice(db: Sql, deviceId: string): Promise<{ hostId: string; companyId: number | null; workspaceIds: number[] | null } | null> {
  const r = await db.query<{ host_id: string; company_id: number | null; workspace_ids: number[] | null }>(`SELECT host_id, company_id, workspace_ids FROM df_devices WHERE device_id = $1`, [deviceId]);
  const row = r.rows[0];
  return row ? { hostId: row.host_id, companyId: row.company_id, workspaceIds: row.workspace_ids } : null;
}

/** A device's platform (`android`, `ios`, `web`), or null for a device the farm has never seen. */
export async function platformOfDevice(db: Sql, deviceId: string): Promise<string | null> {
  const r = await db.query<{ platform: string }>(`SELECT platform FROM df_devices WHERE device_id = $1`, [deviceId]);
  return r.rows[0]?.platform ?? null;
}

/** Every device held by a session now (its device and session ids): what the busy-device watchdog explains. */
export async function busyDevices(db: Sql): Promise<{ deviceId: string; sessionId: string }[]> {
  const r = await db.query<{ device_id: string; session_id: string }>(`SELECT device_id, session_id FROM df_devices WHERE session_id IS NOT NULL ORDER BY device_id`);
  return r.rows.map((row) => ({ deviceId: String(row.device_id), sessionId: String(row.session_id) }));
}

/** Every device a host has had. */
export async function devicesOfHost(db: Sql, hostId: string): Promise<DeviceRow[]> {
  const r = await db.query(`SELECT device_id, host_id, status, health, session_id, company_id FROM df_devices WHERE host_id = $1`, [hostId]);
  return r.rows.map(toRow);
}

/** A device of a host with the facts and placement the read model holds (what a hello is compared with). */
export interface HostDeviceRow extends DeviceRow {
  facts: DeviceFactsRecord;
  placement: { hostId: string; nodeName: string; hubId: string; companyId: number | null; workspaceIds: number[] | null };
}

/** Every device a host has had, with facts and placement. */
export async function inventoryOfHost(db: Sql, hostId: string): Promise<HostDeviceRow[]> {
  const r = await db.query(
    `SELECT device_id, host_id, status, health, session_id, company_id, name, platform, os_version, model, manufacturer, type, is_real, provider, screen, capabilities, node_name, hub_id, workspace_ids
     FROM df_devices WHERE host_id = $1`,
    [hostId],
  );
  return r.rows.map((row) => {
    const base = toRow(row);
    return {
      ...base,
      facts: {
        name: String(row.name),
        platform: String(row.platform),
        osVersion: String(row.os_version),
        model: String(row.model),
        manufacturer: String(row.manufacturer),
        type: String(row.type),
        isRealDevice: Boolean(row.is_real),
        provider: String(row.provider),
        screen: json<DeviceFactsRecord['screen']>(row.screen),
        ...(row.capabilities === null || row.capabilities === undefined ? {} : { capabilities: json<DeviceCapabilities>(row.capabilities) }),
      },
      placement: { hostId: base.hostId, nodeName: String(row.node_name), hubId: String(row.hub_id), companyId: base.companyId, workspaceIds: workspaceIdsOf(row.workspace_ids) },
    };
  });
}

/** Hosts with at least one device not offline. */
export async function hostsWithOnlineDevices(db: Sql): Promise<string[]> {
  const r = await db.query<{ host_id: string }>(`SELECT DISTINCT host_id FROM df_devices WHERE status <> 'offline'`);
  return r.rows.map((row) => row.host_id);
}

/** An `integer[]` column as PGlite and pg return it (an array; pg may hand a `{1,2}` literal). */
function workspaceIdsOf(value: unknown): number[] | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(Number);
  return String(value).replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

const toRow = (row: Row): DeviceRow => ({
  deviceId: String(row.device_id),
  hostId: String(row.host_id),
  status: String(row.status),
  health: String(row.health),
  sessionId: textOrNull(row.session_id),
  companyId: numOrNull(row.company_id),
});

/** How many devices each of these hosts has reported, and how many of them are not offline; a host without devices is not in the answer. */
export async function deviceCountsOfHosts(db: Sql, hostIds: readonly string[]): Promise<Map<string, { total: number; online: number }>> {
  if (hostIds.length === 0) return new Map();
  const r = await db.query<{ host_id: string; total: unknown; online: unknown }>(
    `SELECT host_id, count(*) AS total, count(*) FILTER (WHERE status <> 'offline') AS online FROM df_devices WHERE host_id = ANY($1::text[]) GROUP BY host_id`,
    [hostIds],
  );
  return new Map(r.rows.map((row) => [String(row.host_id), { total: Number(row.total), online: Number(row.online) }]));
}

/** Devices by status and platform, for the `qa_devices` gauge. */
/** Devices by the health state of their last reading (`unknown` before any) and platform, for the metrics. */
export async function deviceCountsByHealth(db: Sql): Promise<{ health: string; platform: string; count: number }[]> {
  const { rows } = await db.query<{ health: string; platform: string; n: unknown }>(
    `SELECT coalesce(health_detail->>'state', 'unknown') AS health, platform, count(*) AS n FROM df_devices GROUP BY 1, 2`,
  );
  return rows.map((r) => ({ health: r.health, platform: r.platform, count: Number(r.n) }));
}

export async function deviceCountsByStatus(db: Sql): Promise<{ status: string; platform: string; count: number }[]> {
  const { rows } = await db.query<{ status: string; platform: string; n: unknown }>(`SELECT status, platform, count(*) AS n FROM df_devices GROUP BY status, platform`);
  return rows.map((r) => ({ status: r.status, platform: r.platform, count: Number(r.n) }));
}

/** A device's name and model (no tenant check: for the service's own messages, e.g. the quarantine mail). */
export async function labelOfDevice(db: Sql, deviceId: string): Promise<{ name: string; model: string } | null> {
  const r = await db.query<{ name: string; model: string }>(`SELECT name, model FROM df_devices WHERE device_id = $1`, [deviceId]);
  const row = r.rows[0];
  return row ? { name: String(row.name), model: String(row.model ?? '') } : null;
}
