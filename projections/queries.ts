// What the read models' queries (`projections/<read-model>/queries.ts`) share: the workspace scope, a
// WHERE clause built condition by condition, a page of rows with the count of all, one row or null.
import type { Sql } from '#shared/db/index.js';
import type { Row } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';

/** A tenant's workspace: what most queries are limited to. */
export interface WorkspaceScope {
  companyId: number;
  workspaceId: number;
}

/** A LIKE/ILIKE pattern for text containing `text` literally (its `\`, `%` and `_` escaped). */
export const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The conditions of a WHERE clause, joined by AND, with their parameters numbered in order. */
export class Conditions {
  private constructor(
    private readonly clauses: string[],
    readonly params: unknown[],
  ) {}

  /** Conditions whose placeholders are `$1`, `$2`, ... in the order of `params`. */
  static of(clauses: readonly string[], params: readonly unknown[] = []): Conditions {
    return new Conditions([...clauses], [...params]);
  }

  /** Rows of the scope's company (`$1`) and workspace (`$2`), with more conditions that take no parameter. */
  static inWorkspace(scope: WorkspaceScope, ...more: string[]): Conditions {
    return Conditions.of(['company_id = $1', 'workspace_id = $2', ...more], [scope.companyId, scope.workspaceId]);
  }

  /** Adds the condition `sql(n)`, `n` the placeholder of `value` (`$3`). */
  add(sql: (n: string) => string, value: unknown): this {
    this.params.push(value);
    this.clauses.push(sql(`$${this.params.length}`));
    return this;
  }

  /** A copy that takes further conditions without changing this one. */
  copy(): Conditions {
    return Conditions.of(this.clauses, this.params);
  }

  /** The conditions joined by AND. */
  toString(): string {
    return this.clauses.join(' AND ');
  }
}

/** The count a `SELECT count(*) AS n ...` (or any single `n`) answers. */
export async function countOf(db: Sql, text: string, params: readonly unknown[]): Promise<number> {
  const r = await db.query<{ n: unknown }>(text, params);
  return Number(r.rows[0]?.n ?? 0);
}

/** The first row a query answers, mapped, or null when it answers none. */
export async function oneOrNull<T>(db: Sql, text: string, params: readonly unknown[], map: (row: Row) => T): Promise<T | null> {
  const r = await db.query(text, params);
  return r.rows[0] ? map(r.rows[0]) : null;
}

/** A page to read: its rows and, with the same FROM and WHERE, the number of rows on all pages. */
export interface PageQuery {
  /** The select list; every column when absent. */
  columns?: string;
  /** The FROM clause: a table, with its alias when the conditions use one. */
  from: string;
  where: Conditions;
  orderBy: string;
}

/** The rows of one window (`limit` rows after `offset`) and the total, read side by side. */
export async function rowsAndTotal(db: Sql, q: PageQuery, window: { limit: number; offset: number }): Promise<{ rows: Row[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.query(`SELECT ${q.columns ?? '*'} FROM ${q.from} WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${window.limit} OFFSET ${window.offset}`, q.where.params),
    countOf(db, `SELECT count(*) AS n FROM ${q.from} WHERE ${q.where}`, q.where.params),
  ]);
  return { rows: rows.rows, total };
}

/** Page `page` (0-based) of `size` rows, mapped, with the totals (docs/api-conventions.md, "Paging"). */
export async function readPage<T>(db: Sql, q: PageQuery, paging: { page: number; size: number }, map: (row: Row) => T): Promise<Page<T>> {
  const { rows, total } = await rowsAndTotal(db, q, { limit: paging.size, offset: paging.page * paging.size });
  return toPage(rows.map(map), total, paging.page, paging.size);
}
