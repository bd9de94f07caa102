import type { Sql } from '#shared/db/index.js';
import type { CredentialScope } from '#shared/http/principal.js';
import { type Row, isoOrNull as iso, numOrNull } from '#shared/db/index.js';
import { oneOrNull } from '../queries.js';

/** Whose credentials a caller sees: every one of the workspace, or only their own (`userId`). */
export interface CredentialScopeFilter {
  companyId: number;
  workspaceId: number;
  /** Only this user's; null for all of the workspace. */
  userId: number | null;
}

/** A `/v1` API key as listed: never its value or hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: CredentialScope[];
  workspaceId: number;
  createdBy: number;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Its own request budget per rate-limit window; null: the deployment's default for credentials. */
  rateLimit: number | null;
  /** How its creator was signed in when they made it. */
  signIn: 'password' | 'sso';
  /** Whether an administrator approved it where single sign-on is required. */
  approved: boolean;
}

/** An OAuth client as listed: never its secret or hash. */
export interface OAuthClientView {
  id: string;
  clientId: string;
  name: string;
  scopes: CredentialScope[];
  workspaceId: number;
  createdBy: number;
  createdAt: string;
  lastUsedAt: string | null;
  rateLimit: number | null;
  signIn: 'password' | 'sso';
  approved: boolean;
}

const scopesOf = (v: unknown): CredentialScope[] => (Array.isArray(v) ? (v as CredentialScope[]) : []);

/** Whom a credential acts as, where, and what it may do. */
export interface CredentialGrant {
  userId: number;
  companyId: number;
  workspaceId: number;
  scopes: CredentialScope[];
}

const grantOf = (r: Row): CredentialGrant => ({
  userId: Number(r.user_id),
  companyId: Number(r.company_id),
  workspaceId: Number(r.workspace_id),
  scopes: scopesOf(r.scopes),
});

const origin = (r: Row) => ({ signIn: r.sign_in === 'sso' ? ('sso' as const) : ('password' as const), approved: r.approved_at !== null && r.approved_at !== undefined });

const keyView = (r: Row): ApiKeyView => ({
  id: String(r.key_id),
  name: String(r.name),
  prefix: String(r.prefix),
  scopes: scopesOf(r.scopes),
  workspaceId: Number(r.workspace_id),
  createdBy: Number(r.user_id),
  createdAt: iso(r.created_at)!,
  lastUsedAt: iso(r.last_used_at),
  revokedAt: iso(r.revoked_at),
  rateLimit: numOrNull(r.rate_limit),
  ...origin(r),
});

const clientView = (r: Row): OAuthClientView => ({
  id: String(r.id),
  clientId: String(r.client_id),
  name: String(r.name),
  scopes: scopesOf(r.scopes),
  workspaceId: Number(r.workspace_id),
  createdBy: Number(r.user_id),
  createdAt: iso(r.created_at)!,
  lastUsedAt: iso(r.last_used_at),
  rateLimit: numOrNull(r.rate_limit),
  ...origin(r),
});

const KEY_SELECT = `SELECT k.*, u.last_used_at, a.approved_at FROM org_api_keys k LEFT JOIN org_credential_usage u ON u.credential_id = k.key_id
  LEFT JOIN org_credential_approvals a ON a.credential_id = k.key_id`;
const CLIENT_SELECT = `SELECT c.*, u.last_used_at, a.approved_at FROM org_oauth_clients c LEFT JOIN org_credential_usage u ON u.credential_id = c.id
  LEFT JOIN org_credential_approvals a ON a.credential_id = c.id`;

/** API keys of the workspace (revoked ones too), oldest first. */
export async function listApiKeys(db: Sql, f: CredentialScopeFilter): Promise<ApiKeyView[]> {
  const r = await db.query(
    `${KEY_SELECT} WHERE k.company_id = $1 AND k.workspace_id = $2 AND ($3::integer IS NULL OR k.user_id = $3) ORDER BY k.created_at, k.key_id`,
    [f.companyId, f.workspaceId, f.userId],
  );
  return r.rows.map(keyView);
}

/** One API key the filter lets the caller see, or null. */
export async function findApiKey(db: Sql, f: CredentialScopeFilter, keyId: string): Promise<ApiKeyView | null> {
  return oneOrNull(
    db,
    `${KEY_SELECT} WHERE k.key_id = $1 AND k.company_id = $2 AND k.workspace_id = $3 AND ($4::integer IS NULL OR k.user_id = $4)`,
    [keyId, f.companyId, f.workspaceId, f.userId],
    keyView,
  );
}

/** The live key with this hash: who it acts as, where, what it may do, and its own request budget. */
export async function activeApiKeyByHash(
  db: Sql,
  keyHash: string,
): Promise<(CredentialGrant & { keyId: string; createdAt: Date; rateLimit: number | null; signIn: 'password' | 'sso' }) | null> {
  const sql = `SELECT key_id, user_id, company_id, workspace_id, scopes, created_at, rate_limit, sign_in FROM org_api_keys WHERE key_hash = $1 AND revoked_at IS NULL`;
  return oneOrNull(db, sql, [keyHash], (row) => ({
    keyId: String(row.key_id),
    ...grantOf(row),
    createdAt: new Date(row.created_at as string),
    rateLimit: numOrNull(row.rate_limit),
    signIn: row.sign_in === 'sso' ? 'sso' : 'password',
  }));
}

/** OAuth clients of the workspace (not deleted ones), oldest first. */
export async function listOAuthClients(db: Sql, f: CredentialScopeFilter): Promise<OAuthClientView[]> {
  const r = await db.query(
    `${CLIENT_SELECT} WHERE c.company_id = $1 AND c.workspace_id = $2 AND c.deleted_at IS NULL AND ($3::integer IS NULL OR c.user_id = $3)
      ORDER BY c.created_at, c.id`,
    [f.companyId, f.workspaceId, f.userId],
  );
  return r.rows.map(clientView);
}

/** One live OAuth client the filter lets the caller see, or null. */
export async function findOAuthClient(db: Sql, f: CredentialScopeFilter, id: string): Promise<OAuthClientView | null> {
  return oneOrNull(
    db,
    `${CLIENT_SELECT} WHERE c.id = $1 AND c.company_id = $2 AND c.workspace_id = $3 AND c.deleted_at IS NULL AND ($4::integer IS NULL OR c.user_id = $4)`,
    [id, f.companyId, f.workspaceId, f.userId],
    clientView,
  );
}

/** A live OAuth client by its public `client_id`, with its secret hash, for the token endpoint. */
export async function oauthClientByClientId(
  db: Sql,
  clientId: string,
): Promise<(CredentialGrant & { id: string; clientId: string; secretHash: string }) | null> {
  const sql = `SELECT id, client_id, secret_hash, scopes, user_id, company_id, workspace_id FROM org_oauth_clients WHERE client_id = $1 AND deleted_at IS NULL`;
  return oneOrNull(db, sql, [clientId], (row) => ({ id: String(row.id), clientId: String(row.client_id), secretHash: String(row.secret_hash), ...grantOf(row) }));
}

/** Records that a credential was used at `at` (the caller throttles this). */
export async function recordCredentialUse(db: Sql, credentialId: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO org_credential_usage (credential_id, last_used_at) VALUES ($1, $2)
     ON CONFLICT (credential_id) DO UPDATE SET last_used_at = GREATEST(org_credential_usage.last_used_at, EXCLUDED.last_used_at)`,
    [credentialId, at],
  );
}

/**
 * What a request with an OAuth client's token needs of the client, in one read: whether it has been
 * deleted (an unknown id counts as deleted: its tokens must not pass) and its own request budget.
 */
export async function oauthClientStanding(db: Sql, id: string): Promise<{ deleted: boolean; rateLimit: number | null; userId: number; signIn: 'password' | 'sso' }> {
  const r = await db.query<{ deleted: boolean; rate_limit: unknown; user_id: unknown; sign_in: unknown }>(
    `SELECT deleted_at IS NOT NULL AS deleted, rate_limit, user_id, sign_in FROM org_oauth_clients WHERE id = $1`,
    [id],
  );
  const row = r.rows[0];
  return { deleted: row?.deleted !== false, rateLimit: numOrNull(row?.rate_limit), userId: Number(row?.user_id ?? 0), signIn: row?.sign_in === 'sso' ? 'sso' : 'password' };
}

/** Whether an administrator approved this credential where single sign-on is required. */
export async function credentialApproved(db: Sql, credentialId: string): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM org_credential_approvals WHERE credential_id = $1`, [credentialId]);
  return r.rows.length > 0;
}
