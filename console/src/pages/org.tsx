import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/preact-query';
import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import type { Page, Role, Team, User, Workspace } from '@qa-platform/client';
import { api } from '../api';
import { ORG_SECTIONS } from '../sections';
import { Link } from '../router';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, Field, formatTime, FormCard, Loading, Pager, withFields } from '../ui';
import { WebhooksSection } from './webhooks';
import { ClientPackages } from './client-packages';
import { OAuthClients } from './credentials';
import { DeviceKeys, HealthCheckKeys, TestEngines } from './module-credentials';
import { Domains } from './org-domains';
import { IdentityProviders } from './org-identity';
import { ScimProvisioning } from './org-scim';
import { ApiKeys } from './org-api-keys';
import { Audit } from './org-audit';
import { AccessReviewSection } from './org-access-review';
import { AccessReviewsSection } from './org-access-reviews';
import { ObservabilitySection } from './org-observability';
import { RoleEditor, UserControls, useUsers } from './org-edit';
import { TeamCard } from './org-team';
import { WorkspaceCard } from './org-workspace';

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

/** What each organization section shows. */
const SECTION_PAGES: Record<(typeof ORG_SECTIONS)[number]['path'], ComponentType> = {
  '/org/users': Users,
  '/org/roles': Roles,
  '/org/teams': Teams,
  '/org/workspaces': Workspaces,
  '/org/webhooks': WebhooksSection,
  '/org/domains': Domains,
  '/org/identity-providers': IdentityProviders,
  '/org/provisioning': ScimProvisioning,
  '/org/audit': Audit,
  '/org/access-review': AccessReviewSection,
  '/org/access-reviews': AccessReviewsSection,
  '/org/observability': ObservabilitySection,
};

/** Team and organization: each section shown only with its permission key (never a role name). */
export function OrgPage({ path }: { path: string }) {
  const { can } = useSession();
  const sections = ORG_SECTIONS.filter((s) => can(s.key));
  if (path === '/api-keys') {
    return (
      <>
        <ApiKeys />
        <OAuthClients />
        <DeviceKeys />
        <HealthCheckKeys />
        <TestEngines />
        <ClientPackages />
      </>
    );
  }
  const section = sections.find((s) => s.path === path);
  const Section = section ? SECTION_PAGES[section.path] : null;
  return (
    <section>
      <h1>Organization</h1>
      <nav class="subnav" aria-label="Organization">
        {sections.map((s) => (
          <Link href={s.path} aria-current={s.path === path ? 'page' : undefined}>
            {s.label}
          </Link>
        ))}
      </nav>
      {Section ? <Section /> : <Empty>You do not hold the permission for this page.</Empty>}
    </section>
  );
}

function Users() {
  const { can, me } = useSession();
  const qc = useQueryClient();
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const users = useQuery({
    queryKey: ['users', page, search],
    queryFn: () => api<Page<User>>('/api/v1/users', { query: { page, size: 20, search } }),
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v1/roles'), enabled: can('ROLE_READ') });
  const { workspaces: accessible } = useSession();
  const all = useQuery({ queryKey: ['workspaces', 'to-grant'], queryFn: () => api<Workspace[]>('/api/v1/workspaces'), enabled: can('WORKSPACE_READ') });
  const grantable = (all.data ?? accessible).filter((w) => !w.archived);
  const [invited, setInvited] = useState('');
  const [erased, setErased] = useState('');
  return (
    <div class="stack">
      {can('USER_INVITE') ? (
        <FormCard
          title="Invite someone" label="Invite" class="row" submit="Send the invitation" resetOnSuccess
          after={<p class={invited ? 'ok' : undefined} role="status">{invited}</p>}
          onSubmit={async (d) => {
            setInvited('');
            const email = text(d, 'email');
            const roleId = Number(d.get('roleId'));
            const workspaceIds = d.getAll('workspaceId').map(Number);
            // Left empty, an invitation sent again keeps what the earlier one gave.
            const body = { email, ...(roleId ? { roleIds: [roleId] } : {}), ...(workspaceIds.length ? { workspaceIds } : {}) };
            const answer = await api<{ resent: boolean }>('/api/v1/users/invite', { method: 'POST', body });
            setInvited(answer.resent ? `${email} was already invited — a new link was sent (the earlier one no longer works).` : `Invitation mailed to ${email}.`);
            await qc.invalidateQueries({ queryKey: ['users'] });
          }}
        >
          <Field label="E-mail" name="email" type="email" required />
          {roles.data ? (
            <label class="field">
              <span>Role</span>
              <select name="roleId">
                <option value="">No role</option>
                {roles.data.map((r) => (
                  <option value={String(r.id)}>{r.name}</option>
                ))}
              </select>
            </label>
          ) : null}
          {grantable.length > 0 ? (
            <fieldset class="checks">
              <legend>Workspaces they may enter</legend>
              {grantable.map((w) => (
                <label>
                  <input type="checkbox" name="workspaceId" value={String(w.id)} /> {w.name}
                </label>
              ))}
            </fieldset>
          ) : null}
          <p class="muted hint">Inviting an address again sends a new link and keeps its role and workspaces unless you choose others.</p>
        </FormCard>
      ) : null}
      <form
        role="search"
        class="row"
        onSubmit={withFields((d) => {
          setPage(0);
          setSearch(text(d, 'q'));
        })}
      >
        <Field label="Search users" name="q" type="search" />
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={users.error} />
      <p class={erased ? 'ok' : undefined} role="status">
        {erased}
      </p>
      {users.isLoading ? <Loading /> : null}
      {users.data ? (
        users.data.content.length === 0 ? (
          <Empty>No user matches.</Empty>
        ) : (
          <DataTable
            caption="Users"
            rows={users.data.content}
            columns={[
              { header: 'Name', cell: (u) => u.name },
              { header: 'E-mail', cell: (u) => u.email },
              { header: 'Status', cell: (u) => <span class="badge">{u.status === 'passive' ? 'invited' : u.status}</span> },
              { header: 'Roles', cell: (u) => u.roles.map((r) => r.name).join(', ') || '—' },
              { header: 'Last sign-in', cell: (u) => formatTime(u.lastSignInAt) },
              ...(can('USER_MANAGE')
                ? [{ header: 'Changes', hiddenHeader: true, cell: (u: User) => <UserControls user={u} roles={roles.data} self={u.id === me?.id} onErased={setErased} /> }]
                : []),
            ]}
            rowKey={(u) => u.id}
          />
        )
      ) : null}
      {users.data ? <Pager page={users.data.page} totalPages={users.data.totalPages} total={users.data.totalElements} onPage={setPage} /> : null}
    </div>
  );
}

function Roles() {
  const { can } = useSession();
  const qc = useQueryClient();
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v1/roles') });
  const catalog = useQuery({ queryKey: ['permission-catalog'], queryFn: () => api<{ key: string; module: string; description: string }[]>('/api/v1/permissions') });
  return (
    <div class="stack">
      <ErrorNote error={roles.error} />
      {roles.isLoading ? <Loading /> : null}
      {roles.data?.map((r) => (
        // Keyed by id: an open role stays open (and its editor's state stays its own) when the list reorders.
        <details class="card" key={r.id}>
          <summary>
            <strong>{r.name}</strong> <span class="muted small">{r.permissions.length} permission keys{r.builtIn ? ' · built-in' : ''}</span>
          </summary>
          {can('ROLE_MANAGE') && !r.builtIn && catalog.data ? (
            <RoleEditor role={r} catalog={catalog.data} />
          ) : (
            <>
              <p>{r.description}</p>
              <p class="small">{r.permissions.join(' · ')}</p>
              {r.builtIn ? <p class="muted small">A built-in role: it cannot be changed.</p> : null}
            </>
          )}
        </details>
      ))}
      {can('ROLE_MANAGE') && catalog.data ? (
        <FormCard
          title="New role" submit="Create the role"
          onSubmit={async (d) => {
            await api('/api/v1/roles', { method: 'POST', body: { name: text(d, 'name'), description: text(d, 'description'), permissions: d.getAll('permissions').map(String) } });
            await qc.invalidateQueries({ queryKey: ['roles'] });
          }}
        >
          <Field label="Name" name="name" minLength={2} required />
          <Field label="Description" name="description" />
          <fieldset class="facet">
            <legend>Permission keys</legend>
            <div class="columns">
              {catalog.data.map((p) => (
                <label class="check small">
                  <input type="checkbox" name="permissions" value={p.key} /> <span>{p.key}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </FormCard>
      ) : null}
    </div>
  );
}

function Teams() {
  const { can } = useSession();
  const teams = useQuery({ queryKey: ['teams'], queryFn: () => api<Team[] | Page<Team>>('/api/v1/teams') });
  const list = Array.isArray(teams.data) ? teams.data : (teams.data?.content ?? []);
  // Member names come from the users list (USER_READ); without it members show as ids.
  const users = useUsers(can('USER_READ'));
  return (
    <div class="stack">
      <ErrorNote error={teams.error} />
      {teams.isLoading ? <Loading /> : null}
      {teams.data && list.length === 0 ? <Empty>No team yet.</Empty> : null}
      {list.map((t) => (
        <TeamCard key={t.id} team={t} users={users.data} canManage={can('TEAM_MANAGE')} />
      ))}
      {can('TEAM_MANAGE') ? <CreateNamed what="team" path="/api/v1/teams" queryKeys={[['teams']]} /> : null}
    </div>
  );
}

/** "New team", "New workspace": a name and a description, posted to `path`; the lists in `queryKeys` reload. */
function CreateNamed({ what, path, queryKeys }: { what: string; path: string; queryKeys: string[][] }) {
  const qc = useQueryClient();
  return (
    <FormCard
      title={`New ${what}`} class="row" submit={`Create the ${what}`}
      onSubmit={async (d) => {
        await api(path, { method: 'POST', body: { name: text(d, 'name'), description: text(d, 'description') } });
        for (const queryKey of queryKeys) await qc.invalidateQueries({ queryKey });
      }}
    >
      <Field label="Name" name="name" minLength={2} required />
      <Field label="Description" name="description" />
    </FormCard>
  );
}

function Workspaces() {
  const { can } = useSession();
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: () => api<Workspace[] | Page<Workspace>>('/api/v1/workspaces') });
  const list = Array.isArray(workspaces.data) ? workspaces.data : (workspaces.data?.content ?? []);
  return (
    <div class="stack">
      <ErrorNote error={workspaces.error} />
      {workspaces.isLoading ? <Loading /> : null}
      {workspaces.data && list.length === 0 ? <Empty>No workspace.</Empty> : null}
      {list.map((w) => (
        <WorkspaceCard key={w.id} ws={w} />
      ))}
      {can('WORKSPACE_CREATE') ? <CreateNamed what="workspace" path="/api/v1/workspaces" queryKeys={[['workspaces'], ['workspaces-accessible']]} /> : null}
    </div>
  );
}
