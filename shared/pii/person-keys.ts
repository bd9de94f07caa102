import { randomBytes } from 'node:crypto';
import { SealedValueError, type SecretBox } from '#shared/auth/index.js';
import { applySchema, type Database, type Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';

/*
 * The keys of persons' data: one random AES-256 key per person (`user:<id>`), kept in `pii_keys` sealed
 * with the installation's secrets key. Erasing a person deletes the key's bytes and keeps the row as the
 * record of the erasure (`erased_at`, `erased_by`), so nothing sealed for them opens again, and nothing
 * new is sealed for them.
 */

const DDL = `
CREATE TABLE IF NOT EXISTS pii_keys (
  subject text PRIMARY KEY,
  company_id bigint,
  sealed_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  erased_at timestamptz,
  erased_by text,
  CHECK ((sealed_key IS NULL) = (erased_at IS NOT NULL))
);
-- Set while events recorded before sealing existed may hold personal data as it was typed
-- (npm run pii:migrate seals them and clears it).
CREATE TABLE IF NOT EXISTS pii_migration (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  pending_through bigint,
  migrated_at timestamptz
)`;

/** Creates the tables; marks the log as awaiting the migration when it already holds events (an upgrade). */
export async function migratePersonKeys(db: Database, logHead: () => Promise<bigint>): Promise<void> {
  await applySchema(db, 'pii_keys', DDL);
  const { rows } = await db.query(`SELECT 1 FROM pii_migration`);
  if (rows.length > 0) return;
  const head = await logHead();
  await db.query(`INSERT INTO pii_migration (id, pending_through) VALUES (true, $1) ON CONFLICT (id) DO NOTHING`, [head > 0n ? String(head) : null]);
}

/** The last position of events that may hold personal data unsealed; null when there are none. */
export async function migrationPendingThrough(db: Sql): Promise<bigint | null> {
  const { rows } = await db.query<{ p: string | null }>(`SELECT pending_through::text AS p FROM pii_migration`);
  const p = rows[0]?.p;
  return p === null || p === undefined ? null : BigInt(p);
}

/** A person's key: its bytes, or `erased` when the person was erased. */
export type PersonKey = Buffer | 'erased';

const context = (subject: string) => `pii-key:${subject}`;

/** How long a key read for opening is kept in a process (an erasure elsewhere is seen after at most this). */
export const OPEN_CACHE_MS = 5_000;

export class PersonKeys {
  /** Keys made or found by sealing, kept for this process's appends (sealing with a key erased since seals nothing readable). */
  private readonly sealing = new Map<string, PersonKey>();
  /** Keys read for opening, with when they were read. */
  private readonly opening = new Map<string, { key: PersonKey; at: number }>();

  constructor(
    private readonly db: Sql,
    private readonly box: SecretBox,
  ) {}

  /** The same keys read and made through `sql` (a transaction: PGlite has one connection, which it holds). */
  within(sql: Sql): PersonKeys {
    return new PersonKeys(sql, this.box);
  }

  /** The key this process keeps for sealing a person's data, if it has one (no query, no await). */
  keptForSealing(subject: string): PersonKey | undefined {
    return this.sealing.get(subject);
  }

  /** The key to seal a person's data with: made on first use; `erased` for an erased person. */
  async forSealing(subject: string, companyId: number | null): Promise<PersonKey> {
    const known = this.sealing.get(subject);
    if (known) return known;
    const sealed = this.box.seal(randomBytes(32).toString('base64'), context(subject));
    await this.db.query(`INSERT INTO pii_keys (subject, company_id, sealed_key) VALUES ($1, $2, $3) ON CONFLICT (subject) DO NOTHING`, [subject, companyId, sealed]);
    const key = (await this.lookup([subject])).get(subject) ?? 'erased';
    if (this.sealing.size > 10_000) this.sealing.clear();
    this.sealing.set(subject, key);
    return key;
  }

  /** The keys to open these persons' data with: kept ones read within OPEN_CACHE_MS, the rest in one query. */
  async forOpening(subjects: ReadonlySet<string>): Promise<Map<string, PersonKey>> {
    const found = new Map<string, PersonKey>();
    const missing: string[] = [];
    const now = Date.now();
    for (const s of subjects) {
      const kept = this.opening.get(s);
      if (kept && now - kept.at < OPEN_CACHE_MS) found.set(s, kept.key);
      else missing.push(s);
    }
    if (missing.length === 0) return found;
    if (this.opening.size > 10_000) this.opening.clear();
    for (const [s, key] of await this.lookup(missing)) {
      found.set(s, key);
      this.opening.set(s, { key, at: now });
    }
    return found;
  }

  /** The keys of these persons, as stored now (one query); a person without a row has none. */
  async lookup(subjects: readonly string[]): Promise<Map<string, PersonKey>> {
    const found = new Map<string, PersonKey>();
    if (subjects.length === 0) return found;
    const { rows } = await this.db.query<{ subject: string; sealed_key: string | null }>(
      `SELECT subject, sealed_key FROM pii_keys WHERE subject = ANY($1::text[])`,
      [[...new Set(subjects)]],
    );
    for (const r of rows) found.set(r.subject, r.sealed_key === null ? 'erased' : this.unsealed(r.subject, r.sealed_key));
    return found;
  }

  /**
   * A stored key opened with the installation's keys. One none of them opens is refused (503), never read
   * as erased: a process started with another SECRETS_KEY than the rest would otherwise write placeholders
   * into the read models it builds.
   */
  private unsealed(subject: string, sealed: string): Buffer {
    try {
      return Buffer.from(this.box.open(sealed, context(subject)), 'base64');
    } catch (err) {
      if (!(err instanceof SealedValueError)) throw err;
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `Personal data cannot be opened: the key of ${subject} is sealed under a key this process does not have (every process needs the same SECRETS_KEY; docs/operations.md, "Secrets at rest")`,
        { cause: err },
      );
    }
  }

  /**
   * Seals again, under the current secrets key, every person key sealed under an older one (a rotation
   * of SECRETS_KEY: docs/operations.md, "Secrets at rest"); answers how many, and how many no configured
   * key opens (they stay as they are).
   */
  async sealAgain(): Promise<{ sealed: number; unopened: number }> {
    const { rows } = await this.db.query<{ subject: string; sealed_key: string }>(
      `SELECT subject, sealed_key FROM pii_keys WHERE sealed_key IS NOT NULL AND sealed_key NOT LIKE $1`,
      [`sealed:v1:${this.box.currentKeyId}:%`],
    );
    let sealed = 0;
    let unopened = 0;
    for (const r of rows) {
      let key: Buffer;
      try {
        key = this.unsealed(r.subject, r.sealed_key);
      } catch {
        unopened++;
        continue;
      }
      const { rowCount } = await this.db.query(`UPDATE pii_keys SET sealed_key = $3 WHERE subject = $1 AND sealed_key = $2`, [
        r.subject,
        r.sealed_key,
        this.box.seal(key.toString('base64'), context(r.subject)),
      ]);
      sealed += rowCount;
    }
    return { sealed, unopened };
  }

  /**
   * Destroys a person's key for good (a row is kept, or made, saying when and by whom); answers whether
   * this call erased them (false: they were erased before).
   */
  async erase(subject: string, companyId: number | null, by: string, at: Date): Promise<boolean> {
    this.sealing.set(subject, 'erased');
    this.opening.set(subject, { key: 'erased', at: Date.now() });
    const { rowCount } = await this.db.query(
      `INSERT INTO pii_keys (subject, company_id, sealed_key, erased_at, erased_by) VALUES ($1, $2, NULL, $3, $4)
       ON CONFLICT (subject) DO UPDATE SET sealed_key = NULL, erased_at = $3, erased_by = $4 WHERE pii_keys.erased_at IS NULL`,
      [subject, companyId, at.toISOString(), by],
    );
    return rowCount > 0;
  }

  /** When a person was erased; null when they were not. */
  async erasedAt(subject: string): Promise<Date | null> {
    const { rows } = await this.db.query<{ at: string | Date | null }>(`SELECT erased_at AS at FROM pii_keys WHERE subject = $1`, [subject]);
    const at = rows[0]?.at;
    return at === null || at === undefined ? null : new Date(at);
  }

  /** Forgets every kept key (another process may have erased one): a projection's rebuild starts so. */
  forget(): void {
    this.sealing.clear();
    this.opening.clear();
  }
}
