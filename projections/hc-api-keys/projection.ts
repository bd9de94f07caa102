import { HEALTHCHECK_API_KEY_EVENT_TYPES, type HealthcheckApiKeyEvent } from '#services/healthcheck/keys/events.js';
import type { Projection } from '../types.js';

/** Health-check API keys by hash, for `X-API-KEY` verification and the keys endpoints. */
export const hcApiKeysProjection: Projection = {
  name: 'hc-api-keys',
  version: 1,
  eventTypes: HEALTHCHECK_API_KEY_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS hc_api_keys (
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
    CREATE INDEX IF NOT EXISTS hc_api_keys_workspace ON hc_api_keys (company_id, workspace_id, created_at);`,
  tables: ['hc_api_keys'],
  async apply(tx, recorded) {
    const event = { type: recorded.type, payload: recorded.payload } as HealthcheckApiKeyEvent;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'HealthcheckApiKeyCreated': {
        const p = event.payload;
        await tx.query(
          `INSERT INTO hc_api_keys (key_id, key_hash, prefix, name, user_id, company_id, workspace_id, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (key_id) DO NOTHING`,
          [p.keyId, p.keyHash, p.prefix, p.name, p.userId, p.companyId, p.workspaceId, at],
        );
        return;
      }
      case 'HealthcheckApiKeyRevoked':
        await tx.query(`UPDATE hc_api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE key_id = $1`, [event.payload.keyId, at]);
        return;
      default: {
        const never: never = event;
        throw new Error(`Unhandled ${JSON.stringify(never)}`);
      }
    }
  },
};
