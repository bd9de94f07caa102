// Reading SQL rows the same way in every read model: PostgreSQL (`pg`) and PGlite answer timestamps as
// Date objects (or strings on some paths) and json columns parsed (or as text).

/** A row as a driver returns it: column name to value. */
export type Row = Record<string, unknown>;

/** A timestamp column as ISO 8601. */
export const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** A nullable timestamp column as ISO 8601, or null. */
export const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));

/** A json or jsonb column as its value. */
export const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** A nullable numeric column as a number, or null (`bigint` and `numeric` arrive as strings). */
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A nullable text column as a string, or null. */
export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
