import { applySchema, type Database } from '#shared/db/index.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL,
    status integer,
    headers text,
    body text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);
`;

// One statement decides who holds a key: a new key is inserted; a row past its time to live, or a
// claim whose request stopped answering (its process died), is taken over; any other row is left as
// it is and nothing is returned. PostgreSQL's ON CONFLICT makes the second of two concurrent claims
// wait for the first and then see its row, so exactly one of them runs the handler.
const CLAIM = `
  INSERT INTO idempotency_keys (scope, key, fingerprint, state, created_at) VALUES ($1, $2, $3, 'running', $4)
  ON CONFLICT (scope, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, state = 'running', status = NULL, headers = NULL, body = NULL, created_at = EXCLUDED.created_at
    WHERE idempotency_keys.created_at <= $5 OR (idempotency_keys.state = 'running' AND idempotency_keys.created_at <= $6)
  RETURNING created_at
`;

/** Where a key stands once a request has tried to claim it. */
export type Claim =
  | { kind: 'claimed'; createdAt: Date }
  | { kind: 'running'; fingerprint: string }
  | { kind: 'done'; fingerprint: string; status: number; headers: Record<string, string>; body: string }
  | { kind: 'not-kept'; fingerprint: string; status: number; erased: boolean };

/** A key held by one request: the row it claimed, known by its claim time (a takeover makes a new one). */
export interface HeldKey {
  scope: string;
  key: string;
  createdAt: Date;
}

type Row = { fingerprint: string; state: string; status: number | null; headers: string | null; body: string | null; created_at: Date | string };

/**
 * The keys and kept answers of idempotent requests (table `idempotency_keys`), on the platform's SQL
 * database so that every process of an installation and every restart sees the same keys.
 */
export class IdempotencyStore {
  private schema: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly limits: { ttlMs: number; inFlightMs: number },
  ) {}

  private ready(): Promise<void> {
    this.schema ??= applySchema(this.db, 'idempotency_keys', SCHEMA).catch((err: unknown) => {
      this.schema = undefined;
      throw err;
    });
    return this.schema;
  }

  /** Claims `key` for a request, or says who has it: a running request, or a kept answer. */
  async claim(scope: string, key: string, fingerprint: string, now: Date): Promise<Claim> {
    await this.ready();
    const expired = new Date(now.getTime() - this.limits.ttlMs);
    const stale = new Date(now.getTime() - this.limits.inFlightMs);
    // Between a refused claim and the read, the holder may release the key (its answer was a 5xx): claim again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await this.db.query<{ created_at: Date | string }>(CLAIM, [scope, key, fingerprint, now, expired, stale]);
      if (claimed.rows[0]) return { kind: 'claimed', createdAt: new Date(claimed.rows[0].created_at) };
      const { rows } = await this.db.query<Row>('SELECT fingerprint, state, status, headers, body, created_at FROM idempotency_keys WHERE scope = $1 AND key = $2', [scope, key]);
      const row = rows[0];
      if (!row) continue;
      if (row.state === 'running' || row.status === null) return { kind: 'running', fingerprint: row.fingerprint };
      if (row.state === 'done' && row.body !== null) {
        return { kind: 'done', fingerprint: row.fingerprint, status: row.status, headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body: row.body };
      }
      return { kind: 'not-kept', fingerprint: row.fingerprint, status: row.status, erased: row.state === 'erased' };
    }
    return { kind: 'running', fingerprint };
  }

  /** Keeps the answer of the request holding `held`, to be answered again. */
  async complete(held: HeldKey, answer: { status: number; headers: Record<string, string>; body: string }): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET state = 'done', status = $4, headers = $5, body = $6 WHERE scope = $1 AND key = $2 AND created_at = $3`,
      [held.scope, held.key, held.createdAt, answer.status, JSON.stringify(answer.headers), answer.body],
    );
  }

  /** Records that the request holding `held` was done with `status`, its answer not kept (too large, streamed). */
  async completeUnkept(held: HeldKey, status: number): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET state = 'not-kept', status = $4 WHERE scope = $1 AND key = $2 AND created_at = $3`, [held.scope, held.key, held.createdAt, status]);
  }

  /** Lets the key go (the request failed on the server's side): the next request with it runs. */
  async release(held: HeldKey): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at = $3', [held.scope, held.key, held.createdAt]);
  }

  /**
   * A company's kept answers (sealed), with what names their row: scopes start with `c{companyId}/`
   * (idempotency.ts). Read in pages of `pageSize` in key order, so a company with many kept answers is
   * never held in memory at once.
   */
  async *keptAnswersOf(companyId: number, pageSize = 500): AsyncGenerator<HeldKey & { body: string }> {
    await this.ready();
    let after: { scope: string; key: string } | null = null;
    for (;;) {
      const { rows } = await this.db.query<{ scope: string; key: string; created_at: Date | string; body: string }>(
        `SELECT scope, key, created_at, body FROM idempotency_keys
         WHERE scope LIKE $1 AND state = 'done' AND body IS NOT NULL AND ($2::text IS NULL OR (scope, key) > ($2::text, $3::text))
         ORDER BY scope, key LIMIT $4`,
        [`c${companyId}/%`, after?.scope ?? null, after?.key ?? null, pageSize],
      );
      for (const r of rows) yield { scope: r.scope, key: r.key, createdAt: new Date(r.created_at), body: r.body };
      if (rows.length < pageSize) return;
      const last: { scope: string; key: string } = rows[rows.length - 1]!;
      after = { scope: last.scope, key: last.key };
    }
  }

  /** Keeps an answer no longer because it named a person since erased: a repeat is told so, and runs nothing. */
  async forgetErased(held: HeldKey): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET state = 'erased', headers = NULL, body = NULL WHERE scope = $1 AND key = $2 AND created_at = $3`, [held.scope, held.key, held.createdAt]);
  }

  /** Deletes the rows past their time to live (a claim treats them as absent already). */
  async sweep(now: Date): Promise<number> {
    await this.ready();
    const { rowCount } = await this.db.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [new Date(now.getTime() - this.limits.ttlMs)]);
    return rowCount;
  }
}
