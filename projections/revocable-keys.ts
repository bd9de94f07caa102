import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import type { DomainEvent } from '#shared/es/index.js';
import { applyByType, type Projection } from './types.js';
import { type Row, iso } from '#shared/db/index.js';

/**
 * The read model of a module's revocable API keys (device testing, health checks): one table of keys by
 * hash, for verifying a key on each request and for the keys endpoints. Each module names its table
 * and its two events (`shared/es/revocable-key-decider.ts`); the rows and queries are the same.
 */
export interface RevocableKeysTable {
  /** Projection name, also the checkpoint key. */
  name: string;
  /** Table name (a constant of the module, never input). */
  table: string;
  created: string;
  revoked: string;
}

/** What a key's created event carries. */
interface KeyCreated {
  keyId: string;
  keyHash: string;
  prefix: string;
  name: string;
  userId: number;
  companyId: number;
  workspaceId: number;
  signIn?: string;
}

export function revocableKeysProjection(t: RevocableKeysTable): Projection {
  return {
    name: t.name,
    // 2: how each key's creator was signed in (`sign_in`), for keys held where single sign-on is required.
    version: 2,
    eventTypes: [t.created, t.revoked],
    schema: `
      CREATE TABLE IF NOT EXISTS ${t.table} (
        key_id text PRIMARY KEY,
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        name text NOT NULL,
        user_id integer NOT NULL,
        company_id integer NOT NULL,
        workspace_id integer NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      ALTER TABLE ${t.table} ADD COLUMN IF NOT EXISTS sign_in text NOT NULL DEFAULT 'password';
      CREATE INDEX IF NOT EXISTS ${t.table}_workspace ON ${t.table} (company_id, workspace_id, created_at);`,
    tables: [t.table],
    // The module names its two event types; each has its handler, as every read model's do.
    apply: applyByType<DomainEvent>({
      [t.created]: async (tx, { payload }, at) => {
        const p = payload as KeyCreated;
        await tx.query(
          `INSERT INTO ${t.table} (key_id, key_hash, prefix, name, user_id, company_id, workspace_id, created_at, sign_in)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT (key_id) DO NOTHING`,
          [p.keyId, p.keyHash, p.prefix, p.name, p.userId, p.companyId, p.workspaceId, at, p.signIn ?? 'password'],
        );
      },
      [t.revoked]: async (tx, { payload }, at) => {
        const { keyId } = payload as { keyId: string };
        await tx.query(`UPDATE ${t.table} SET revoked_at = coalesce(revoked_at, $2) WHERE key_id = $1`, [keyId, at]);
      },
    }),
  };
}

/** A key as listed: never its value or hash. */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  createdBy: number;
  workspaceId: number;
  createdAt: string;
  revokedAt: string | null;
  revoked: boolean;
  /** How its creator was signed in when they made it. */
  signIn: 'password' | 'sso';
}

/** Who a live key acts for, and where. */
export interface ActiveKey {
  keyId: string;
  userId: number;
  companyId: number;
  workspaceId: number;
  createdAt: Date;
  signIn: 'password' | 'sso';
}

export interface KeyScope {
  companyId: number;
  workspaceId: number;
}

const toView = (r: Row): KeyView => ({
  id: String(r.key_id),
  name: String(r.name),
  prefix: String(r.prefix),
  createdBy: Number(r.user_id),
  workspaceId: Number(r.workspace_id),
  createdAt: iso(r.created_at),
  revokedAt: r.revoked_at ? iso(r.revoked_at) : null,
  revoked: r.revoked_at !== null && r.revoked_at !== undefined,
  signIn: r.sign_in === 'sso' ? 'sso' : 'password',
});

/** The queries of one key table; every one but the hash look-up is scoped to a company and workspace. */
export function revocableKeyQueries(table: string) {
  return {
    /** Keys of the workspace, oldest first. */
    async list(db: Sql, scope: KeyScope, paging: { page: number; size: number }): Promise<Page<KeyView>> {
      const params = [scope.companyId, scope.workspaceId];
      const [rows, total] = await Promise.all([
        db.query(`SELECT * FROM ${table} WHERE company_id = $1 AND workspace_id = $2 ORDER BY created_at, key_id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`, params),
        db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table} WHERE company_id = $1 AND workspace_id = $2`, params),
      ]);
      return toPage(rows.rows.map(toView), Number(total.rows[0]?.n ?? 0), paging.page, paging.size);
    },

    /** One key of the workspace, or null. */
    async find(db: Sql, scope: KeyScope, keyId: string): Promise<KeyView | null> {
      const r = await db.query(`SELECT * FROM ${table} WHERE key_id = $1 AND company_id = $2 AND workspace_id = $3`, [keyId, scope.companyId, scope.workspaceId]);
      return r.rows[0] ? toView(r.rows[0]) : null;
    },

    /** How many live keys the company holds, in all its workspaces (its plan's limit). */
    async activeInCompany(db: Sql, companyId: number): Promise<number> {
      const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1 AND revoked_at IS NULL`, [companyId]);
      return r.rows[0]!.n;
    },

    /** The live key with this hash. */
    async activeByHash(db: Sql, keyHash: string): Promise<ActiveKey | null> {
      const r = await db.query(`SELECT key_id, user_id, company_id, workspace_id, created_at, sign_in FROM ${table} WHERE key_hash = $1 AND revoked_at IS NULL`, [keyHash]);
      const row = r.rows[0];
      return row
        ? { keyId: String(row.key_id), userId: Number(row.user_id), companyId: Number(row.company_id), workspaceId: Number(row.workspace_id), createdAt: new Date(row.created_at as string), signIn: row.sign_in === 'sso' ? 'sso' : 'password' }
        : null;
    },
  };
}
