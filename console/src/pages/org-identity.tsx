import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ActionForm, ConfirmButton, ErrorNote, Field, QueryTable, useAction } from '../ui';

type ProviderType = 'oidc' | 'saml' | 'ldap';

interface Mapping {
  group?: string;
  claim?: string;
  value?: string;
  roleIds: number[];
  teamIds: number[];
  workspaceIds: number[];
}

/** An identity provider as the API shows it: `config` without its secrets, `secretsSet` naming those set. */
interface IdentityProvider {
  id: number;
  type: ProviderType;
  name: string;
  enabled: boolean;
  domains: string[];
  enforce: boolean;
  jitProvisioning: boolean;
  mappings: Mapping[];
  config: Record<string, unknown>;
  secretsSet: string[];
}

const TYPE_LABEL: Record<ProviderType, string> = { oidc: 'OpenID Connect', saml: 'SAML 2.0', ldap: 'LDAP directory' };

/** The configuration fields of each type; `secret`: write-only, left empty to keep it. */
const CONFIG_FIELDS: Record<ProviderType, { name: string; label: string; required?: boolean; secret?: boolean; long?: boolean; hint?: string }[]> = {
  oidc: [
    { name: 'issuer', label: 'Issuer URL', required: true },
    { name: 'clientId', label: 'Client id', required: true },
    { name: 'clientSecret', label: 'Client secret', required: true, secret: true },
    { name: 'scopes', label: 'Scopes', hint: 'Separated by spaces; empty: openid email profile' },
  ],
  saml: [
    { name: 'entryPoint', label: 'Single sign-on URL', required: true },
    { name: 'idpCertificate', label: 'Signing certificate (PEM)', required: true, long: true },
    { name: 'spEntityId', label: 'Our entity id', hint: 'Empty: this provider’s address on this platform' },
  ],
  ldap: [
    { name: 'url', label: 'Directory URL', required: true, hint: 'ldap:// or ldaps://' },
    { name: 'bindDn', label: 'Search account DN', hint: 'Empty: search anonymously' },
    { name: 'bindPassword', label: 'Search account password', secret: true },
    { name: 'userSearchBase', label: 'User search base', required: true },
    { name: 'userFilter', label: 'User filter', required: true, hint: '{{username}} is the name typed, e.g. (uid={{username}})' },
    { name: 'groupSearchBase', label: 'Group search base' },
    { name: 'groupFilter', label: 'Group filter', hint: 'Empty: groups whose member, uniqueMember or memberUid is the user' },
  ],
};

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

/** The settings of the form as the API takes them; a secret left empty is left out (kept). */
function settingsOf(d: FormData, type: ProviderType) {
  const config: Record<string, unknown> = {};
  for (const f of CONFIG_FIELDS[type]) {
    const v = text(d, f.name);
    if (v === '') continue;
    config[f.name] = f.name === 'scopes' ? v.split(/\s+/) : v;
  }
  const mappingsText = text(d, 'mappings');
  let mappings: unknown = [];
  if (mappingsText) {
    try {
      mappings = JSON.parse(mappingsText);
    } catch {
      throw new Error('Mappings: not valid JSON');
    }
  }
  return {
    name: text(d, 'name'),
    enabled: d.get('enabled') === 'on',
    domains: text(d, 'domains')
      .split(/[\s,]+/)
      .filter(Boolean),
    enforce: d.get('enforce') === 'on',
    jitProvisioning: d.get('jitProvisioning') === 'on',
    mappings,
    config,
  };
}

function Check({ label, name, checked }: { label: string; name: string; checked: boolean }) {
  return (
    <label class="check">
      <input type="checkbox" name={name} defaultChecked={checked} /> {label}
    </label>
  );
}

/** The fields of a provider, empty for a new one; `type` decides the configuration fields. */
function ProviderFields({ type, provider }: { type: ProviderType; provider?: IdentityProvider }) {
  const value = (k: string) => {
    const v = provider?.config[k];
    return Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : '';
  };
  return (
    <>
      <Field label="Name" name="name" minLength={2} maxLength={64} required defaultValue={provider?.name ?? ''} hint="Shown on the sign-in page: Continue with …" />
      <Field label="E-mail domains" name="domains" required defaultValue={provider?.domains.join(', ') ?? ''} hint="Separated by commas, e.g. example.com" />
      <Check label="Enabled" name="enabled" checked={provider?.enabled ?? true} />
      <Check label="The only way in for these domains (password sign-in refused)" name="enforce" checked={provider?.enforce ?? false} />
      <Check label="Create people at their first sign-in" name="jitProvisioning" checked={provider?.jitProvisioning ?? false} />
      {CONFIG_FIELDS[type].map((f) => {
        const set = f.secret && provider?.secretsSet.includes(f.name);
        const hint = f.secret ? (set ? 'Set. Never shown; leave empty to keep it.' : 'Never shown once saved.') : f.hint;
        if (f.long) {
          return (
            <label class="field">
              <span>{f.label}</span>
              <textarea name={f.name} rows={5} required={f.required} defaultValue={value(f.name)} />
            </label>
          );
        }
        return (
          <Field
            label={f.label}
            name={f.name}
            type={f.secret ? 'password' : 'text'}
            autoComplete={f.secret ? 'new-password' : 'off'}
            required={f.required && !(f.secret && provider)}
            defaultValue={f.secret ? '' : value(f.name)}
            {...(hint ? { hint } : {})}
          />
        );
      })}
      <label class="field">
        <span>Mappings (JSON)</span>
        <textarea name="mappings" rows={3} defaultValue={provider && provider.mappings.length > 0 ? JSON.stringify(provider.mappings) : ''} />
        <small class="muted">{'A list of {"group": "…", "roleIds": [..], "teamIds": [..], "workspaceIds": [..]}; empty: none'}</small>
      </label>
    </>
  );
}

function ProviderRow({ provider }: { provider: IdentityProvider }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [tried, setTried] = useState<string | null>(null);
  const action = useAction();
  const refresh = () => qc.invalidateQueries({ queryKey: ['identity-providers'] });
  const remove = () =>
    action.run(async () => {
      await api(`/api/v1/identity-providers/${provider.id}`, { method: 'DELETE' });
      await refresh();
    });
  const callback = `${location.origin}/api/v1/auth/sso/${provider.id}/callback`;
  return (
    <article class="card stack" aria-label={`Identity provider ${provider.name}`}>
      <div class="card-head">
        <div>
          <h2>{provider.name}</h2>
          <p class="muted small">
            {TYPE_LABEL[provider.type]} · {provider.domains.join(', ')} · {provider.enabled ? 'enabled' : 'disabled'}
            {provider.enforce ? ' · the only way in' : ''}
          </p>
          {provider.type !== 'ldap' ? <p class="small">Redirect / assertion consumer URL: <code>{callback}</code></p> : null}
        </div>
        <div class="row">
          <button
            type="button"
            onClick={() =>
              void action.run(async () => {
                setTried(null);
                await api(`/api/v1/identity-providers/${provider.id}/test`, { method: 'POST', body: {} });
                setTried('The settings work.');
              })
            }
          >
            Try the settings
          </button>
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit
          </button>
          <ConfirmButton label={`Confirm removing ${provider.name}`} question="Remove? Its people keep their accounts." yes="Yes, remove" onYes={remove}>
            Remove
          </ConfirmButton>
        </div>
      </div>
      {tried ? (
        <p class="ok" role="status">
          {tried}
        </p>
      ) : null}
      <ErrorNote error={action.error} />
      {editing ? (
        <ActionForm
          submit="Save the provider"
          label={`Edit ${provider.name}`}
          onSubmit={async (d) => {
            await api(`/api/v1/identity-providers/${provider.id}`, { method: 'PUT', body: settingsOf(d, provider.type) });
            setEditing(false);
            await refresh();
          }}
        >
          <ProviderFields type={provider.type} provider={provider} />
        </ActionForm>
      ) : null}
    </article>
  );
}

function NewProvider() {
  const qc = useQueryClient();
  const [type, setType] = useState<ProviderType>('oidc');
  return (
    <div class="card">
      <h2>New identity provider</h2>
      <label class="field">
        <span>Kind</span>
        <select value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as ProviderType)}>
          {(Object.keys(TYPE_LABEL) as ProviderType[]).map((t) => (
            <option value={t}>{TYPE_LABEL[t]}</option>
          ))}
        </select>
      </label>
      <ActionForm
        key={type}
        submit="Add the provider"
        label="New identity provider"
        onSubmit={async (d) => {
          await api('/api/v1/identity-providers', { method: 'POST', body: { type, ...settingsOf(d, type) } });
          await qc.invalidateQueries({ queryKey: ['identity-providers'] });
        }}
      >
        <ProviderFields type={type} />
      </ActionForm>
    </div>
  );
}

/** The company's identity providers (USER_ADMIN_MANAGE): single sign-on and directory sign-in. */
export function IdentityProviders() {
  const providers = useQuery({ queryKey: ['identity-providers'], queryFn: () => api<IdentityProvider[]>('/api/v1/identity-providers') });
  return (
    <div class="stack">
      <p class="muted">People of these e-mail domains are offered “Continue with …” on the sign-in page. Secrets are never shown once saved.</p>
      <QueryTable
        query={providers} rows={(d) => d} rowKey={(p) => p.id} caption="Identity providers" empty="No identity provider yet."
        columns={[
          { header: 'Name', cell: (p) => p.name },
          { header: 'Kind', cell: (p) => TYPE_LABEL[p.type] },
          { header: 'Domains', cell: (p) => p.domains.join(', ') },
          { header: 'State', cell: (p) => `${p.enabled ? 'enabled' : 'disabled'}${p.enforce ? ', enforced' : ''}` },
        ]}
      />
      {(providers.data ?? []).map((p) => (
        <ProviderRow key={p.id} provider={p} />
      ))}
      <NewProvider />
    </div>
  );
}
