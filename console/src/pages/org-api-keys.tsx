import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { ApiKey } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, Field, formatTime, FormCard, Loading, ShownOnce } from '../ui';
import { credentialActionsColumn, HoldBadge } from './credentials';
import { BudgetEditor, budgetOf, BudgetField, budgetText } from './rate-budget';

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

/** The workspace's `/v1` API keys: made (the value shown once), listed with their scopes and budgets, approved or revoked. */
export function ApiKeys() {
  const qc = useQueryClient();
  // Administrators of the workspace's keys give a key (a CI fleet's) a rate budget of its own.
  const manages = useSession().can('API_KEY_MANAGE');
  // Revoked keys stay in the answer (for the record); the page lists the ones that still work.
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: async () => (await api<ApiKey[]>('/api/v1/api-keys')).filter((k) => !k.revokedAt) });
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="stack">
      <h1>API keys</h1>
      <p class="muted" style="margin-top:0">
        Keys for the <code>/v1</code> test-management API, and with <code>devices</code> and <code>webhooks</code> for a pipeline's device sessions
        (<code>/df</code>, the WebDriver hub) and the workspace's webhooks. They act as you, within their scopes.
      </p>
      <FormCard
        title="New key" label="New API key" class="row" submit="Create the key"
        after={created ? <ShownOnce label="New API key value" value={created.key}>The key <strong>{created.name}</strong>, shown only now: copy it.</ShownOnce> : null}
        onSubmit={async (d) => {
          const budget = manages ? budgetOf(d) : null;
          const body = { name: text(d, 'name'), scopes: d.getAll('scopes').map(String), ...(budget !== null ? { rateLimit: budget } : {}) };
          const made = await api<{ name: string; key: string }>('/api/v1/api-keys', { method: 'POST', body });
          setCreated(made);
          await qc.invalidateQueries({ queryKey: ['api-keys'] });
        }}
      >
        <Field label="Name" name="name" required />
        <fieldset class="row">
          <legend>Scopes</legend>
          {['read', 'write', 'delete', 'admin', 'devices', 'webhooks'].map((s) => (
            <label class="check">
              <input type="checkbox" name="scopes" value={s} defaultChecked={s === 'read'} /> {s}
            </label>
          ))}
        </fieldset>
        {manages ? <BudgetField /> : null}
      </FormCard>
      <ErrorNote error={keys.error ?? error} />
      {keys.isLoading ? <Loading /> : null}
      {keys.data && keys.data.length === 0 ? <Empty>No key yet.</Empty> : null}
      {keys.data && keys.data.length > 0 ? (
        <DataTable
          caption="API keys"
          rows={keys.data}
          columns={[
            { header: 'Name', cell: (k) => k.name },
            { header: 'Starts with', cell: (k) => <code>{k.prefix}…</code> },
            { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
            { header: 'Created', cell: (k) => formatTime(k.createdAt) },
            { header: 'Last used', cell: (k) => formatTime(k.lastUsedAt) },
            {
              // Made from a password sign-in where the company now requires single sign-on: refused until approved.
              header: 'Status',
              cell: (k) => <HoldBadge needsApproval={k.needsApproval} />,
            },
            {
              header: 'Rate budget',
              cell: (k) => (manages ? <BudgetEditor path={`/api/v1/api-keys/${k.id}`} name={k.name} rateLimit={k.rateLimit} queryKey="api-keys" /> : budgetText(k.rateLimit)),
            },
            credentialActionsColumn({ path: '/api/v1/api-keys', queryKey: 'api-keys', removeLabel: 'Revoke', onError: setError }),
          ]}
        />
      ) : null}
    </section>
  );
}
