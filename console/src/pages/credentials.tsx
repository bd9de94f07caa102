import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Schemas } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, Field, formatTime, FormCard, Loading, ShownOnce, type Column } from '../ui';

type OAuthClient = Schemas['OAuthClient'];

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

/** A credential's standing where the company requires single sign-on: held until an administrator approves it. */
export function HoldBadge({ needsApproval }: { needsApproval: boolean }) {
  return needsApproval ? <span class="badge maintenance">needs approval</span> : <span class="badge active">works</span>;
}

/** The row actions of a credential: approve (company administrators, held ones only) and remove. */
export function CredentialActions(props: { name: string; needsApproval: boolean; approvePath: string; removePath: string; removeLabel: string; queryKey: string; onError: (e: unknown) => void }) {
  const qc = useQueryClient();
  const approves = useSession().can('USER_ADMIN_MANAGE');
  const act = async (path: string, method: 'POST' | 'DELETE') => {
    try {
      await api(path, { method });
      await qc.invalidateQueries({ queryKey: [props.queryKey] });
    } catch (err) {
      props.onError(err);
    }
  };
  return (
    <span class="row">
      {props.needsApproval && approves ? (
        <button type="button" aria-label={`Approve ${props.name}`} onClick={() => act(props.approvePath, 'POST')}>
          Approve
        </button>
      ) : null}
      <button
        type="button"
        class="danger"
        aria-label={`${props.removeLabel} ${props.name}`}
        onClick={() => {
          if (confirm(`${props.removeLabel} ${props.name}?`)) void act(props.removePath, 'DELETE');
        }}
      >
        {props.removeLabel}
      </button>
    </span>
  );
}

/** A credentials table's last column: its approve and remove buttons (`path`: where the credentials are, `path/{id}` each). */
export function credentialActionsColumn<T extends { id: number | string; name: string; needsApproval: boolean }>(options: { path: string; queryKey: string; removeLabel: string; onError: (e: unknown) => void }): Column<T> {
  return {
    header: 'Actions',
    hiddenHeader: true,
    cell: (row) => (
      <CredentialActions
        name={row.name} needsApproval={row.needsApproval} queryKey={options.queryKey} onError={options.onError} removeLabel={options.removeLabel}
        approvePath={`${options.path}/${row.id}/approve`} removePath={`${options.path}/${row.id}`}
      />
    ),
  };
}

/** OAuth clients of the `/v1` set (client credentials): made here, the secret shown once. */
export function OAuthClients() {
  const qc = useQueryClient();
  const clients = useQuery({ queryKey: ['oauth-clients'], queryFn: () => api<OAuthClient[]>('/api/v1/oauth-clients') });
  const [created, setCreated] = useState<{ name: string; clientId: string; clientSecret: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="stack" aria-labelledby="oauth-clients-title">
      <h2 id="oauth-clients-title">OAuth clients</h2>
      <p class="muted" style="margin-top:0">
        For tools that ask <code>POST /oauth/token</code> for short-lived tokens (client credentials). They act as you, within their scopes.
      </p>
      <FormCard
        title="New OAuth client" heading="h3" label="New OAuth client" class="row" submit="Create the client"
        after={
          created ? (
            <ShownOnce label="New OAuth client secret" value={created.clientSecret}>
              The client <strong>{created.name}</strong> (<code>{created.clientId}</code>); its secret, shown only now: copy it.
            </ShownOnce>
          ) : null
        }
        onSubmit={async (d) => {
          const made = await api<{ name: string; clientId: string; clientSecret: string }>('/api/v1/oauth-clients', { method: 'POST', body: { name: text(d, 'name'), scopes: d.getAll('scopes').map(String) } });
          setCreated(made);
          await qc.invalidateQueries({ queryKey: ['oauth-clients'] });
        }}
      >
        <Field label="Client name" name="name" required />
        <fieldset class="row">
          <legend>Client scopes</legend>
          {['read', 'write', 'delete', 'admin', 'devices', 'webhooks'].map((s) => (
            <label class="check">
              <input type="checkbox" name="scopes" value={s} defaultChecked={s === 'read'} /> {s}
            </label>
          ))}
        </fieldset>
      </FormCard>
      <ErrorNote error={clients.error ?? error} />
      {clients.isLoading ? <Loading /> : null}
      {clients.data && clients.data.length === 0 ? <Empty>No OAuth client yet.</Empty> : null}
      {clients.data && clients.data.length > 0 ? (
        <DataTable
          caption="OAuth clients"
          rows={clients.data}
          columns={[
            { header: 'Name', cell: (c) => c.name },
            { header: 'Client id', cell: (c) => <code>{c.clientId}</code> },
            { header: 'Scopes', cell: (c) => c.scopes.join(', ') },
            { header: 'Created', cell: (c) => formatTime(c.createdAt) },
            { header: 'Status', cell: (c) => <HoldBadge needsApproval={c.needsApproval} /> },
            credentialActionsColumn({ path: '/api/v1/oauth-clients', queryKey: 'oauth-clients', removeLabel: 'Delete', onError: setError }),
          ]}
        />
      ) : null}
    </section>
  );
}
