import { engineEvents, type EngineEvent } from '#events/autorunner/engines.js';
import { applyByType, type Projection } from '../types.js';

/** Test engines by token hash, for `X-Engine-Token` verification and the engines endpoints. */
export const arEnginesProjection: Projection = {
  name: 'ar-engines',
  version: 2,
  eventTypes: engineEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS ar_engines (
      engine_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      name text NOT NULL,
      labels jsonb NOT NULL,
      token_hash text NOT NULL,
      token_prefix text NOT NULL,
      registered_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      token_rotated_at timestamptz,
      revoked_at timestamptz,
      sign_in text NOT NULL DEFAULT 'password'
    );
    ALTER TABLE ar_engines ADD COLUMN IF NOT EXISTS sign_in text NOT NULL DEFAULT 'password';
    CREATE INDEX IF NOT EXISTS ar_engines_workspace ON ar_engines (company_id, workspace_id, created_at);
    CREATE INDEX IF NOT EXISTS ar_engines_token ON ar_engines (token_hash);`,
  tables: ['ar_engines'],
  apply: applyByType<EngineEvent>({
    EngineRegistered: async (tx, event, at) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO ar_engines (engine_id, company_id, workspace_id, name, labels, token_hash, token_prefix, registered_by, created_at, sign_in)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (engine_id) DO NOTHING`,
        [p.engineId, p.companyId, p.workspaceId, p.name, JSON.stringify(p.labels), p.tokenHash, p.tokenPrefix, p.registeredBy, at, p.signIn ?? 'password'],
      );
    },
    EngineTokenRotated: async (tx, event, at) => {
      await tx.query(`UPDATE ar_engines SET token_hash = $2, token_prefix = $3, token_rotated_at = $4, sign_in = $5 WHERE engine_id = $1`, [
        event.payload.engineId,
        event.payload.tokenHash,
        event.payload.tokenPrefix,
        at,
        event.payload.signIn ?? 'password',
      ]);
    },
    EngineRevoked: (tx, event, at) => tx.query(`UPDATE ar_engines SET revoked_at = coalesce(revoked_at, $2) WHERE engine_id = $1`, [event.payload.engineId, at]),
  }),
};
