/** A SQL session: a pool, a single connection, or an open transaction. */
export interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: R[]; rowCount: number }>;
}

export interface QueryOptions {
  /**
   * Names a statement that runs very often with the same text (an append, a page of the log): the
   * PostgreSQL adapter then parses and plans it once per connection instead of on every call. One
   * name must always go with one text. PGlite ignores it.
   */
  prepare?: string;
}

/**
 * The SQL database port: PostgreSQL through `pg` in production, PGlite in-process in the embedded mode.
 * Both speak the same dialect, so the event store and every read model use one set of statements.
 */
export interface Database extends Sql {
  readonly dialect: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons (schema migrations); no parameters. */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}
