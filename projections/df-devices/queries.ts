import type { Page } from '#shared/paging.js';
import type { Sql } from '#shared/db/index.js';

/** A device as the API shows it (decisions.md, "Device testing"), with the caller's alias and favorite. */
export interface DeviceView {
  id: string;
  name: string;
  alias: string | null;
  platform: string;
  osVersion: string;
  model: string;
  manufacturer: string;
  type: string;
  isRealDevice: boolean;
  status: string;
  nodeName: string;
  hubId: string;
  favorite: boolean;
  lastSeenAt: string;
  provider: string;
  screen: { width: number; height: number; scale: number };
  sessionType: string | null;
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


interface Scope {
  companyId: number;
  userId: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** WHERE clause for the caller's visible devices and the filters, leaving out `except` (facet counts). */
function where(scope: Scope, f: DeviceFilters, params: unknown[], except?: Facet): string {
  params.push(scope.companyId, scope.userId);
  const clauses = ['(d.company_id IS NULL OR d.company_id = $1)'];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(`$${params.length}`));
  };
  const multi = (facet: Facet | null, column: string, values: string[] | undefined) => {
    if (values && values.length > 0 && facet !== except) add((n) => `${column} = ANY(${n}::text[])`, values);
  };
  if (f.search) {
    add(
      (n) =>
        `(d.name ILIKE ${n} OR p.alias ILIKE ${n} OR d.model ILIKE ${n} OR d.manufacturer ILIKE ${n} OR d.os_version ILIKE ${n} OR d.node_name ILIKE ${n} OR d.device_id ILIKE ${n})`,
      `%${escapeLike(f.search)}%`,
    );
  }
  multi('platform', 'd.platform', f.platform);
  multi('osVersion', 'd.os_version', f.osVersion);
  multi('model', 'd.model', f.model);
  multi('type', 'd.type', f.type);
  multi('status', 'd.status', f.status);
  multi('nodeName', 'd.node_name', f.nodeName);
  multi(null, 'd.hub_id', f.hubId);
  multi(null, 'd.session_type', f.sessionType);
  if (f.excludeType && f.excludeType.length > 0) add((n) => `NOT (d.type = ANY(${n}::text[]))`, f.excludeType);
  if (f.isRealDevice !== undefined) add((n) => `d.is_real = ${n}`, f.isRealDevice);
  if (f.favorite !== undefined) add((n) => `coalesce(p.favorite, false) = ${n}`, f.favorite);
  return clauses.join(' AND ');
}

const FROM = `FROM df_devices d LEFT JOIN df_device_prefs p ON p.device_id = d.device_id AND p.user_id = $2`;

const SELECT = `SELECT d.device_id, d.name, p.alias, d.platform, d.os_version, d.model, d.manufacturer, d.type, d.is_real, d.status,
  d.node_name, d.hub_id, coalesce(p.favorite, false) AS favorite, d.last_seen_at, d.provider, d.screen, d.session_type`;

type Row = Record<string, unknown>;

function toView(r: Row, now: Date): DeviceView {
  const screen = (typeof r.screen === 'string' ? JSON.parse(r.screen) : r.screen) as DeviceView['screen'];
  return {
    id: String(r.device_id),
    name: String(r.name),
    alias: (r.alias as string | null) ?? null,
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
    sessionType: (r.session_type as string | null) ?? null,
  };
}

/** One page of the caller's devices. */
export async function listDevices(
  db: Sql,
  scope: Scope,
  filters: DeviceFilters,
  paging: { page: number; size: number; sortBy: DeviceSort; sortDir: 'asc' | 'desc' },
  now = new Date(),
): Promise<Page<DeviceView>> {
  const params: unknown[] = [];
  const w = where(scope, filters, params);
  const order = `${DEVICE_SORT_COLUMNS[paging.sortBy]} ${paging.sortDir === 'desc' ? 'DESC' : 'ASC'}, d.device_id ASC`;
  const [rows, total] = await Promise.all([
    db.query(`${SELECT} ${FROM} WHERE ${w} ORDER BY ${order} LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n ${FROM} WHERE ${w}`, params),
  ]);
  const totalElements = Number(total.rows[0]?.n ?? 0);
  return {
    content: rows.rows.map((r) => toView(r, now)),
    page: paging.page,
    size: paging.size,
    totalElements,
    totalPages: Math.ceil(totalElements / paging.size),
  };
}

/** Counts per value of each facet, each under every filter but its own (so a chosen value keeps its siblings). */
export async function deviceFacets(db: Sql, scope: Scope, filters: DeviceFilters): Promise<Record<Facet, { value: string; count: number }[]>> {
  const entries = await Promise.all(
    (Object.keys(FACETS) as Facet[]).map(async (facet) => {
      const params: unknown[] = [];
      const w = where(scope, filters, params, facet);
      const r = await db.query<{ value: string; n: unknown }>(
        `SELECT ${FACETS[facet]} AS value, count(*) AS n ${FROM} WHERE ${w} GROUP BY 1 ORDER BY 2 DESC, 1 ASC`,
        params,
      );
      return [facet, r.rows.map((row) => ({ value: row.value, count: Number(row.n) }))] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Facet, { value: string; count: number }[]>;
}

/** One device the caller may see, or null. */
export async function findDevice(db: Sql, scope: Scope, deviceId: string, now = new Date()): Promise<DeviceView | null> {
  const r = await db.query(`${SELECT} ${FROM} WHERE (d.company_id IS NULL OR d.company_id = $1) AND d.device_id = $3`, [scope.companyId, scope.userId, deviceId]);
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

/** Every device a host has had. */
export async function devicesOfHost(db: Sql, hostId: string): Promise<DeviceRow[]> {
  const r = await db.query(`SELECT device_id, host_id, status, health, session_id, company_id FROM df_devices WHERE host_id = $1`, [hostId]);
  return r.rows.map(toRow);
}

/** Hosts with at least one device not offline. */
export async function hostsWithOnlineDevices(db: Sql): Promise<string[]> {
  const r = await db.query<{ host_id: string }>(`SELECT DISTINCT host_id FROM df_devices WHERE status <> 'offline'`);
  return r.rows.map((row) => row.host_id);
}

function toRow(row: Row): DeviceRow {
  return {
    deviceId: String(row.device_id),
    hostId: String(row.host_id),
    status: String(row.status),
    health: String(row.health),
    sessionId: (row.session_id as string | null) ?? null,
    companyId: row.company_id === null || row.company_id === undefined ? null : Number(row.company_id),
  };
}
