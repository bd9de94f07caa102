import pg from 'pg';
import type { Database, Sql } from './types.js';

// Return int8 and numeric as strings is pg's default; counts and ids that fit are parsed by callers.

/** Opens a pool on a PostgreSQL server. */
export function openPostgres(url: string, options: { max?: number } = {}): Database {
  // A connection that cannot be made within 5 s fails the query (answered 503) instead of waiting.
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server would otherwise crash the process.
  pool.on('error', () => {});
  // So would one out of the pool's idle list at that moment but in no query (being ended by the pool's
  // `end`, between a checkout and its first query): PostgreSQL's shutdown sends every connection a FATAL
  // message, and a client emits it as 'error' with nobody listening. What uses the client next fails
  // and is answered; the listener only keeps the process up.
  pool.on('connect', (client) => client.on('error', () => {}));
  const query: Sql['query'] = async (text, params, options) => {
    const r = await pool.query(options?.prepare ? { name: options.prepare, text, values: params as unknown[] | undefined } : { text, values: params as unknown[] | undefined });
    return { rows: r.rows, rowCount: r.rowCount ?? 0 };
  };
  return {
    dialect: 'postgres',
    query,
    async exec(text) {
      await pool.query(text);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client whose server goes away emits 'error' on itself (not on the pool): without a
      // listener that would be an uncaught exception. The query in flight fails and is answered instead.
      let broken: Error | undefined;
      const onError = (err: Error) => (broken = err);
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const tx: Sql = {
          query: async (text, params, options) => {
            const r = await client.query(options?.prepare ? { name: options.prepare, text, values: params as unknown[] | undefined } : { text, values: params as unknown[] | undefined });
            return { rows: r.rows, rowCount: r.rowCount ?? 0 };
          },
        };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed rather than returned to the pool.
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
