import type { Sql } from '#shared/db/index.js';
import { iso, isoOrNull, json, type Row } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { deviceCountsOfHosts } from '../df-devices/index.js';

/** An enrolled host as the API shows it (never its token). */
export interface HostView {
  id: string;
  name: string;
  /** The workspaces its devices serve; `null` for every workspace of the company. */
  workspaceIds: number[] | null;
  /** `pending`: enrolled, waiting for its first connection; `active` once it has connected; `revoked`. */
  status: 'pending' | 'active' | 'revoked';
  tokenPrefix: string;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
  /** When it first connected; null while it never has. */
  firstConnectedAt: string | null;
  /** Its devices: all it has reported, and those online now. */
  devices: { total: number; online: number };
}

const SELECT = `SELECT h.* FROM df_hosts h`;

/** The hosts of these rows with their devices' counts, which df-devices holds. */
async function withDevices(db: Sql, rows: Row[]): Promise<HostView[]> {
  const counts = await deviceCountsOfHosts(db, rows.map((r) => String(r.host_id)));
  return rows.map((r) => toView(r, counts.get(String(r.host_id)) ?? { total: 0, online: 0 }));
}

function toView(r: Row, devices: { total: number; online: number }): HostView {
  return {
    id: String(r.host_id),
    name: String(r.name),
    workspaceIds: json<number[] | null>(r.workspace_ids),
    // A host that reported devices has connected, even when that was before first connections were recorded.
    status: r.revoked_at ? 'revoked' : r.first_connected_at || devices.total > 0 ? 'active' : 'pending',
    tokenPrefix: String(r.token_prefix),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    revokedAt: isoOrNull(r.revoked_at),
    firstConnectedAt: isoOrNull(r.first_connected_at),
    devices,
  };
}

/** The company's hosts, newest first; revoked ones only when asked. */
export async function listHosts(db: Sql, companyId: number, options: { page: number; size: number; includeRevoked: boolean }): Promise<Page<HostView>> {
  const filter = `h.company_id = $1${options.includeRevoked ? '' : ' AND h.revoked_at IS NULL'}`;
  const total = await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM df_hosts h WHERE ${filter}`, [companyId]);
  const rows = await db.query(`${SELECT} WHERE ${filter} ORDER BY h.created_at DESC, h.host_id LIMIT $2 OFFSET $3`, [companyId, options.size, options.page * options.size]);
  return toPage(await withDevices(db, rows.rows), Number(total.rows[0]?.n ?? 0), options.page, options.size);
}

/** One host of the company, or null (another company's host is not found). */
export async function findHost(db: Sql, companyId: number, hostId: string): Promise<HostView | null> {
  const r = await db.query(`${SELECT} WHERE h.company_id = $1 AND h.host_id = $2`, [companyId, hostId]);
  return r.rows[0] ? (await withDevices(db, [r.rows[0]]))[0]! : null;
}
