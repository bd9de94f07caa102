import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ActionForm, Confirm, DataTable, Empty, ErrorNote, Field, Loading, useAction } from '../ui';

/** A SCIM token as the API lists it: never its value. */
interface ScimToken {
  id: string;
  name: string;
  prefix: string;
  roleIds: number[];
  createdAt: string;
  revokedAt: string | null;
  token?: string;
}

interface RoleName {
  id: number;
  name: string;
}

function RevokeToken({ token, onDone }: { token: ScimToken; onDone: () => Promise<unknown> }) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  if (token.revokedAt) return <span class="muted">revoked</span>;
  return (
    <>
      {confirming ? (
        <Confirm
          label={`Confirm revoking ${token.name}`}
          question="Revoke? The directory stops provisioning at once."
          yes="Yes, revoke"
          onYes={() =>
            action.run(async () => {
              await api(`/api/v1/scim-tokens/${token.id}`, { method: 'DELETE' });
              await onDone();
            })
          }
          onNo={() => setConfirming(false)}
        />
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`Revoke ${token.name}`}>
          Revoke
        </button>
      )}
      <ErrorNote error={action.error} />
    </>
  );
}

/** SCIM provisioning (USER_ADMIN_MANAGE): the tokens a directory uses at /scim/v2, one shown once when made. */
export function ScimProvisioning() {
  const qc = useQueryClient();
  const [created, setCreated] = useState<ScimToken | null>(null);
  const tokens = useQuery({ queryKey: ['scim-tokens'], queryFn: () => api<ScimToken[]>('/api/v1/scim-tokens') });
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<RoleName[]>('/api/v1/roles') });
  const reload = () => qc.invalidateQueries({ queryKey: ['scim-tokens'] });
  const roleName = (id: number) => roles.data?.find((r) => r.id === id)?.name ?? `#${id}`;
  return (
    <div class="stack">
      <p class="muted">
        Your directory (Okta, Entra ID, OneLogin…) creates, updates, deactivates and removes people and teams at{' '}
        <code>{`${location.origin}/scim/v2`}</code> with one of these tokens as its bearer token.
      </p>
      <div class="card">
        <h2>New SCIM token</h2>
        <ActionForm
          submit="Create the token"
          label="New SCIM token"
          resetOnSuccess
          onSubmit={async (d) => {
            const roleIds = d.getAll('roleIds').map(Number);
            setCreated(await api<ScimToken>('/api/v1/scim-tokens', { method: 'POST', body: { name: String(d.get('name') ?? '').trim(), roleIds } }));
            await reload();
          }}
        >
          <Field label="Name" name="name" required minLength={2} maxLength={64} placeholder="Okta" />
          <fieldset class="checks">
            <legend>Roles every provisioned person gets</legend>
            {(roles.data ?? []).map((r) => (
              <label class="check">
                <input type="checkbox" name="roleIds" value={String(r.id)} /> {r.name}
              </label>
            ))}
          </fieldset>
        </ActionForm>
        {created?.token ? (
          <div class="ok" role="status">
            <p>The token {created.name}, shown only now: copy it into your directory.</p>
            <p class="secret" aria-label="The new SCIM token">
              {created.token}
            </p>
          </div>
        ) : null}
      </div>
      <ErrorNote error={tokens.error} />
      {tokens.isLoading ? <Loading /> : null}
      {tokens.data && tokens.data.length === 0 ? <Empty>No SCIM token yet.</Empty> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <DataTable
          caption="SCIM tokens"
          rows={tokens.data}
          rowKey={(t) => t.id}
          columns={[
            { header: 'Name', cell: (t) => t.name },
            { header: 'Token', cell: (t) => <code>{t.prefix}…</code> },
            { header: 'Roles given', cell: (t) => (t.roleIds.length > 0 ? t.roleIds.map(roleName).join(', ') : 'none') },
            { header: 'Created', cell: (t) => new Date(t.createdAt).toLocaleString() },
            { header: 'State', cell: (t) => <RevokeToken token={t} onDone={reload} /> },
          ]}
        />
      ) : null}
    </div>
  );
}
