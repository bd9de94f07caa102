import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { SecretBox } from '#shared/auth/index.js';
import type { Database, Sql } from '#shared/db/index.js';
import type { AuditPublicKey } from '#shared/audit/verify-chain.js';

/*
 * The installation's checkpoint signing keys: Ed25519, made with node:crypto. The private key is kept in
 * SQL sealed under the installation's secrets key (SECRETS_KEY, like identity provider secrets), bound to
 * its key id. One key signs at a time (the newest not retired); a rotation retires it and makes a new
 * one, and every key ever used stays in the published set, so old checkpoints keep verifying. The signing
 * key is looked up at each pass, so a rotation made by one process is followed by all.
 */

const MIGRATION = [
  `CREATE TABLE IF NOT EXISTS audit_signing_keys (
     key_id text PRIMARY KEY,
     public_jwk jsonb NOT NULL,
     private_sealed text NOT NULL,
     created_at timestamptz NOT NULL,
     retired_at timestamptz
   )`,
  `CREATE TABLE IF NOT EXISTS es_checkpoints (
     chain text COLLATE "C" NOT NULL,
     seq bigint NOT NULL,
     position bigint NOT NULL,
     head bytea NOT NULL,
     at text NOT NULL,
     key_id text NOT NULL,
     signature text NOT NULL,
     PRIMARY KEY (chain, seq)
   )`,
];

/** Creates the keys' and checkpoints' tables when missing. */
export async function migrateAuditChain(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('audit_chain_migrate'))`);
    for (const statement of MIGRATION) await tx.query(statement);
  });
}

const sealContext = (keyId: string) => `audit-signing-key:${keyId}`;

/** The key that signs now. */
export interface ActiveKey {
  keyId: string;
  sign(message: Buffer): string;
}

export class AuditSigningKeys {
  /** Private keys opened so far, by id (the current one is looked up each time: another process may have rotated). */
  private readonly opened = new Map<string, KeyObject>();

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly now: () => Date,
  ) {}

  /** Every key ever used, newest first, as a JWK set. */
  async publicKeys(): Promise<AuditPublicKey[]> {
    const { rows } = await this.db.query<{ public_jwk: AuditPublicKey }>(`SELECT public_jwk FROM audit_signing_keys ORDER BY created_at DESC, key_id`);
    return rows.map((r) => r.public_jwk);
  }

  /** Every key ever made, newest first: its id, when it was made and when it was retired (null: it signs now). */
  async list(): Promise<{ keyId: string; createdAt: string; retiredAt: string | null }[]> {
    const { rows } = await this.db.query<{ key_id: string; created_at: Date | string; retired_at: Date | string | null }>(
      `SELECT key_id, created_at, retired_at FROM audit_signing_keys ORDER BY created_at DESC, key_id`,
    );
    const iso = (t: Date | string) => new Date(t).toISOString();
    return rows.map((r) => ({ keyId: r.key_id, createdAt: iso(r.created_at), retiredAt: r.retired_at === null ? null : iso(r.retired_at) }));
  }

  /** The key that signs now, made on first use. */
  async current(): Promise<ActiveKey> {
    const { keyId, key } = (await this.newest(this.db)) ?? (await this.db.transaction((tx) => this.create(tx)));
    return { keyId, sign: (message) => sign(null, message, key).toString('base64url') };
  }

  /** Retires the signing key and makes a new one; answers the new key's id. */
  async rotate(): Promise<string> {
    const made = await this.db.transaction(async (tx) => {
      await tx.query(`UPDATE audit_signing_keys SET retired_at = $1 WHERE retired_at IS NULL`, [this.now().toISOString()]);
      return this.create(tx);
    });
    return made.keyId;
  }

  private async newest(sql: Sql): Promise<{ keyId: string; key: KeyObject } | null> {
    const { rows } = await sql.query<{ key_id: string; private_sealed: string }>(
      `SELECT key_id, private_sealed FROM audit_signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    );
    const row = rows[0];
    if (!row) return null;
    let key = this.opened.get(row.key_id);
    if (!key) {
      key = createPrivateKey(this.box.open(row.private_sealed, sealContext(row.key_id)));
      this.opened.set(row.key_id, key);
    }
    return { keyId: row.key_id, key };
  }

  private async create(tx: Sql): Promise<{ keyId: string; key: KeyObject }> {
    // Two processes making the first key at once: one waits, then uses the other's.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('audit_signing_key'))`);
    const existing = await this.newest(tx);
    if (existing) return existing;
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const jwk = publicKey.export({ format: 'jwk' });
    const keyId = `audit-${createHash('sha256').update(String(jwk.x)).digest('hex').slice(0, 16)}`;
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await tx.query(
      `INSERT INTO audit_signing_keys (key_id, public_jwk, private_sealed, created_at) VALUES ($1, $2, $3, $4)`,
      [keyId, JSON.stringify({ ...jwk, kid: keyId, alg: 'EdDSA', use: 'sig' }), this.box.seal(pem, sealContext(keyId)), this.now().toISOString()],
    );
    this.opened.set(keyId, privateKey);
    return { keyId, key: privateKey };
  }
}
