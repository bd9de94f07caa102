import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ConfirmButton, ErrorNote, Field, FormCard, QueryTable, ShownOnce, useActionThen } from '../ui';
import { HoldBadge } from './credentials';

/** A SCIM token as the API lists it: never its value. */
interface ScimToken {
  id: string;
  name: string;
  prefix: string;
  roleIds: number[];
  createdAt: string;
  revokedAt: string | null;
  /** Made from a password sign-in while the company requires single sign-on: refused until approved. */
  needsApproval: boolean;
  token?: string;
}

interface RoleName {
  id: number;
  name: string;
}

function RevokeToken({ token, onDone }: { token: ScimToken; onDone: () => Promise<unknown> }) {
  const action = useActionThen(onDone);
  if (token.revokedAt) return <span class="muted">revoked</span>;
  const revoke = () => action.run(() => api(`/api/v1/scim-tokens/${token.id}`, { method: 'DELETE' }));
  const approve = () => action.run(() => api(`/api/v1/scim-tokens/${token.id}/approve`, { method: 'POST' }));
  return (
    <>
      <HoldBadge needsApproval={token.needsApproval} />{' '}
      {token.needsApproval ? (
        <button type="button" aria-label={`Approve ${token.name}`} onClick={() => void approve()}>
          Approve
        </button>
      ) : null}{' '}
      <ConfirmButton label={`Confirm revoking ${token.name}`} question="Revoke? The directory stops provisioning at once." yes="Yes, revoke" onYes={revoke} buttonLabel={`Revoke ${token.name}`}>
        Revoke
      </ConfirmButton>
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
      <FormCard
        title="New SCIM token" submit="Create the token" resetOnSuccess
        after={created?.token ? <ShownOnce label="The new SCIM token" value={created.token}>The token {created.name}, shown only now: copy it into your directory.</ShownOnce> : null}
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
      </FormCard>
      <QueryTable
        query={tokens} rows={(d) => d} rowKey={(t) => t.id} caption="SCIM tokens" empty="No SCIM token yet."
        columns={[
          { header: 'Name', cell: (t) => t.name },
          { header: 'Token', cell: (t) => <code>{t.prefix}…</code> },
          { header: 'Roles given', cell: (t) => (t.roleIds.length > 0 ? t.roleIds.map(roleName).join(', ') : 'none') },
          { header: 'Created', cell: (t) => new Date(t.createdAt).toLocaleString() },
          { header: 'State', cell: (t) => <RevokeToken token={t} onDone={reload} /> },
        ]}
      />
    </div>
  );
}
