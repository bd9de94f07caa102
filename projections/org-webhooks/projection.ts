import { webhookEvents, type WebhookEvent } from '#events/organization/webhooks.js';
import { applyByType, type Projection } from '../types.js';

/**
 * Each workspace's webhook endpoints with their signing secrets, sealed as the events carry them (the
 * dispatcher opens them to sign; the routes show a secret only in the answer that created it). The delivery log is not here: it is the
 * dispatcher's own table (docs/modules/webhooks.md, "Why deliveries are not events").
 */
export const orgWebhooksProjection: Projection = {
  name: 'org-webhooks',
  version: 2,
  eventTypes: webhookEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS org_webhooks (
      id integer PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      url text NOT NULL,
      events text[] NOT NULL,
      enabled boolean NOT NULL,
      secret text NOT NULL,
      created_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      disabled_reason text,
      deleted_at timestamptz,
      previous_secret text,
      previous_secret_until timestamptz
    );
    -- Version 1 had no rotation: the secret a rotation replaced, signing beside the new one until then.
    ALTER TABLE org_webhooks ADD COLUMN IF NOT EXISTS previous_secret text;
    ALTER TABLE org_webhooks ADD COLUMN IF NOT EXISTS previous_secret_until timestamptz;
    CREATE INDEX IF NOT EXISTS org_webhooks_workspace ON org_webhooks (workspace_id, id);`,
  tables: ['org_webhooks'],
  apply: applyByType<WebhookEvent>(
    {
      WebhookCreated: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO org_webhooks (id, company_id, workspace_id, url, events, enabled, secret, created_by, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT (id) DO NOTHING`,
          [p.webhookId, p.companyId, p.workspaceId, p.url, p.events, p.enabled, p.secret, p.createdBy, at],
        );
      },
      WebhookChanged: async (tx, { payload: p }) => {
        await tx.query(
          `UPDATE org_webhooks SET url = coalesce($2, url), events = coalesce($3, events), enabled = coalesce($4, enabled),
             disabled_reason = CASE WHEN $4::boolean THEN NULL ELSE disabled_reason END WHERE id = $1`,
          [p.webhookId, p.url ?? null, p.events ?? null, p.enabled ?? null],
        );
      },
      WebhookDisabled: async (tx, { payload: p }) => {
        await tx.query(`UPDATE org_webhooks SET enabled = false, disabled_reason = $2 WHERE id = $1`, [p.webhookId, p.reason]);
      },
      // The secret in use becomes the previous one (a rotation during another's overlap ends that
      // one's); applied again, the secret is already the new one and nothing changes.
      WebhookSecretRotated: async (tx, { payload: p }) => {
        await tx.query(`UPDATE org_webhooks SET previous_secret = secret, previous_secret_until = $3, secret = $2 WHERE id = $1 AND secret <> $2`, [p.webhookId, p.secret, p.overlapEndsAt]);
      },
      // Sealed again under the current key: the same secrets, the replaced one null once it no longer signs.
      WebhookSecretResealed: async (tx, { payload: p }) => {
        await tx.query(`UPDATE org_webhooks SET secret = $2, previous_secret = $3 WHERE id = $1`, [p.webhookId, p.secret, p.previousSecret]);
      },
      WebhookDeleted: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE org_webhooks SET deleted_at = coalesce(deleted_at, $2) WHERE id = $1`, [p.webhookId, at]);
      },
    },
    webhookEvents,
  ),
};
