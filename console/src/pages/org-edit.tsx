import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Page, Role, Team, User, Workspace, WorkspaceAccess } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { Confirm, ConfirmButton, ErrorNote, Field, Loading, useAction, useActionThen, withFields } from '../ui';
import { WorkspaceMembers } from './workspace-members';

/**
 * The organization pages' editing controls: a role's name, description and keys; a team's members,
 * name and deletion; a workspace's modules, access grants and archiving. Each is offered only with
 * its permission key in the active workspace; the API decides for other workspaces (its refusal's
 * message is shown).
 */

/** The modules a workspace can be entitled to (the API's list; ORGANIZATION is always there). */
const MODULES: { key: string; label: string }[] = [
  { key: 'DF', label: 'Device testing' },
  { key: 'TMT', label: 'Test management' },
  { key: 'AUTORUNNER', label: 'Test engines' },
  { key: 'HEALTHCHECK', label: 'Health checks' },
];

/** The company's users, for pickers and names (needs USER_READ; at most 200, the API's page limit). */
export function useUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['users-all'],
    queryFn: async () => (await api<Page<User>>('/api/v1/users', { query: { size: 200 } })).content,
    enabled,
  });
}

export function RoleEditor({ role, catalog }: { role: Role; catalog: { key: string }[] }) {
  const qc = useQueryClient();
  const [saved, setSaved] = useState(false);
  const action = useActionThen(() => qc.invalidateQueries({ queryKey: ['roles'] }));
  const remove = () => action.run(() => api(`/api/v1/roles/${role.id}`, { method: 'DELETE' }));
  return (
    <div class="stack">
      <form
        class="stack"
        aria-label={`Edit the role ${role.name}`}
        onSubmit={withFields((d) => {
          setSaved(false);
          void action.run(async () => {
            await api(`/api/v1/roles/${role.id}`, {
              method: 'PUT',
              body: { name: String(d.get('name')).trim(), description: String(d.get('description') ?? '').trim(), permissions: d.getAll('permissions').map(String) },
            });
            setSaved(true);
          });
        })}
      >
        <div class="row">
          <Field label="Name" name="name" defaultValue={role.name} minLength={2} required />
          <Field label="Description" name="description" defaultValue={role.description} />
        </div>
        <fieldset class="facet">
          <legend>Permission keys of {role.name}</legend>
          <div class="columns">
            {catalog.map((p) => (
              <label class="check small">
                <input type="checkbox" name="permissions" value={p.key} defaultChecked={role.permissions.includes(p.key)} /> <span>{p.key}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorNote error={action.error} />
        {saved ? (
          <p class="ok" role="status">
            Saved.
          </p>
        ) : null}
        <div class="row">
          <button type="submit" class="primary" disabled={action.busy}>
            Save the role
          </button>
          <ConfirmButton label={`Confirm deleting the role ${role.name}`} question="Delete? It is taken from every user and workspace member holding it." yes="Yes, delete" onYes={remove}>
            Delete the role
          </ConfirmButton>
        </div>
      </form>
    </div>
  );
}

export function TeamCard({ team, users, canManage }: { team: Team; users: User[] | undefined; canManage: boolean }) {
  const qc = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();
  const refresh = () => qc.invalidateQueries({ queryKey: ['teams'] });
  const nameOf = (id: number) => users?.find((u) => u.id === id)?.name ?? `user #${id}`;
  const outside = (users ?? []).filter((u) => !team.memberIds.includes(u.id));
  return (
    <article class="card stack" aria-label={`Team ${team.name}`}>
      <div class="card-head">
        {renaming ? (
          <form
            class="row"
            aria-label={`Rename the team ${team.name}`}
            onSubmit={withFields((d) => {
              void action.run(async () => {
                await api(`/api/v1/teams/${team.id}`, { method: 'PUT', body: { name: String(d.get('name')).trim(), description: String(d.get('description') ?? '').trim() } });
                setRenaming(false);
                await refresh();
              });
            })}
          >
            <Field label="Team name" name="name" defaultValue={team.name} minLength={2} required autoFocus />
            <Field label="Description" name="description" defaultValue={team.description} />
            <button type="submit" class="primary">
              Save
            </button>
            <button type="button" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <div>
            <h2>{team.name}</h2>
            <p class="muted small">{team.description || 'No description'}</p>
          </div>
        )}
        {canManage && !renaming ? (
          <div class="row">
            <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename the team ${team.name}`}>
              Rename
            </button>
            {confirming === 'team' ? (
              <Confirm
                label={`Confirm deleting the team ${team.name}`}
                question="Delete? Workspace access granted to it ends."
                yes="Yes, delete"
                onYes={() => action.run(async () => {
                  await api(`/api/v1/teams/${team.id}`, { method: 'DELETE' });
                  await refresh();
                })}
                onNo={() => setConfirming(null)}
              />
            ) : (
              <button type="button" class="danger" onClick={() => setConfirming('team')} aria-label={`Delete the team ${team.name}`}>
                Delete
              </button>
            )}
          </div>
        ) : null}
      </div>
      <ErrorNote error={action.error} />
      <h3 class="small">Members ({team.memberIds.length})</h3>
      {team.memberIds.length === 0 ? <p class="muted small">No member yet.</p> : null}
      {team.memberIds.length > 0 ? (
        <ul class="plain-list" aria-label={`Members of ${team.name}`}>
          {team.memberIds.map((id) => (
            <li>
              {nameOf(id)}
              {canManage ? (
                confirming === `member:${id}` ? (
                  <Confirm
                    label={`Confirm removing ${nameOf(id)} from ${team.name}`}
                    question="Remove from the team?"
                    yes="Yes, remove"
                    onYes={() => action.run(async () => {
                      await api(`/api/v1/teams/${team.id}/members/${id}`, { method: 'DELETE' });
                      setConfirming(null);
                      await refresh();
                    })}
                    onNo={() => setConfirming(null)}
                  />
                ) : (
                  <button type="button" class="danger small-button" aria-label={`Remove ${nameOf(id)} from ${team.name}`} onClick={() => setConfirming(`member:${id}`)}>
                    Remove
                  </button>
                )
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canManage && users ? (
        <form
          class="row"
          aria-label={`Add a member to ${team.name}`}
          onSubmit={withFields((d) => {
            const userId = Number(d.get('userId'));
            if (!userId) return;
            void action.run(async () => {
              await api(`/api/v1/teams/${team.id}/members/${userId}`, { method: 'POST' });
              await refresh();
            });
          })}
        >
          <label class="field">
            <span>Add a member</span>
            <select name="userId" required>
              <option value="">Choose a user…</option>
              {outside.map((u) => (
                <option value={String(u.id)}>
                  {u.name} ({u.email})
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Add</button>
        </form>
      ) : null}
    </article>
  );
}

export function WorkspaceCard({ ws }: { ws: Workspace }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const canManage = can('WORKSPACE_MANAGE');
  const access = useQuery({ queryKey: ['workspace-access', ws.id], queryFn: () => api<WorkspaceAccess>(`/api/v1/workspaces/${ws.id}/access`) });
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['workspaces'] });
    await qc.invalidateQueries({ queryKey: ['workspaces-accessible'] });
    await qc.invalidateQueries({ queryKey: ['workspace-access', ws.id] });
    await qc.invalidateQueries({ queryKey: ['workspace-members', ws.id] });
  };
  const edit: WorkspaceEdit = { ws, action, refresh, confirming, setConfirming };
  const editable = canManage && !ws.archived;
  return (
    <article class="card stack" aria-label={`Workspace ${ws.name}`}>
      <div class="card-head">
        <div>
          <h2>
            {ws.name} {ws.archived ? <span class="badge">archived</span> : null}
          </h2>
          <p class="muted small">{ws.description || 'No description'}</p>
        </div>
        {canManage ? <ArchiveControl edit={edit} /> : null}
      </div>
      <ErrorNote error={action.error} />
      {editable ? <ModulesForm edit={edit} /> : <p class="small">Modules: {ws.modules.join(', ') || 'none'}</p>}
      <h3 class="small">Access</h3>
      <AccessList edit={edit} access={access} editable={editable} />
      {editable ? <GrantForm edit={edit} access={access.data} /> : null}
      <WorkspaceMembers ws={ws} />
    </article>
  );
}

/** What the parts of a workspace's card share: its action (and error), reading it again, the open confirmation. */
interface WorkspaceEdit {
  ws: Workspace;
  action: ReturnType<typeof useAction>;
  refresh: () => Promise<void>;
  confirming: string | null;
  setConfirming: (key: string | null) => void;
}

/** Archiving (after a confirmation) or restoring the workspace. */
function ArchiveControl({ edit }: { edit: WorkspaceEdit }) {
  const { ws, action, refresh } = edit;
  if (ws.archived)
    return (
      <button type="button" onClick={() => action.run(async () => {
        await api(`/api/v1/workspaces/${ws.id}/unarchive`, { method: 'PUT' });
        await refresh();
      })}>
        Restore {ws.name}
      </button>
    );
  return edit.confirming === 'archive' ? (
    <Confirm
      label={`Confirm archiving ${ws.name}`}
      question="Archive? It becomes read-only until restored."
      yes="Yes, archive"
      onYes={() => action.run(async () => {
        await api(`/api/v1/workspaces/${ws.id}/archive`, { method: 'PUT' });
        edit.setConfirming(null);
        await refresh();
      })}
      onNo={() => edit.setConfirming(null)}
    />
  ) : (
    <button type="button" class="danger" onClick={() => edit.setConfirming('archive')}>
      Archive {ws.name}
    </button>
  );
}

function ModulesForm({ edit }: { edit: WorkspaceEdit }) {
  const { ws, action, refresh } = edit;
  const [saved, setSaved] = useState('');
  return (
    <form
      class="row"
      aria-label={`Modules of ${ws.name}`}
      onSubmit={withFields((d) => {
        const modules = d.getAll('modules').map(String);
        setSaved('');
        void action.run(async () => {
          await api(`/api/v1/workspaces/${ws.id}/modules`, { method: 'PUT', body: { modules } });
          setSaved('Modules saved.');
          await refresh();
        });
      })}
    >
      <fieldset class="row">
        <legend>Modules</legend>
        {MODULES.map((m) => (
          <label class="check">
            <input type="checkbox" name="modules" value={m.key} defaultChecked={ws.modules.includes(m.key)} /> {m.label}
          </label>
        ))}
      </fieldset>
      <button type="submit">Save the modules</button>
      {saved ? (
        <span class="ok small" role="status">
          {saved}
        </span>
      ) : null}
    </form>
  );
}

/** The teams and users granted the workspace, each with its revoking when `editable`. */
function AccessList({ edit, access, editable }: { edit: WorkspaceEdit; access: { isLoading: boolean; error: unknown; data: WorkspaceAccess | undefined }; editable: boolean }) {
  const { ws, action, refresh } = edit;
  const grantees = access.data ? [...access.data.teams.map((t) => ({ kind: 'team' as const, id: t.id, label: `team ${t.name}` })), ...access.data.users.map((u) => ({ kind: 'user' as const, id: u.id, label: u.name }))] : [];
  return (
    <>
      {access.isLoading ? <Loading /> : null}
      <ErrorNote error={access.error} />
      {access.data && grantees.length === 0 ? <p class="muted small">No grant: administrators only.</p> : null}
      {grantees.length > 0 ? (
        <ul class="plain-list" aria-label={`Access to ${ws.name}`}>
          {grantees.map((g) => (
            <li>
              {g.label}
              {editable ? (
                edit.confirming === `${g.kind}:${g.id}` ? (
                  <Confirm
                    label={`Confirm revoking the access of ${g.label}`}
                    question="Revoke this access?"
                    yes="Yes, revoke"
                    onYes={() => action.run(async () => {
                      await api(`/api/v1/workspaces/${ws.id}/access/${g.kind === 'team' ? 'teams' : 'users'}/${g.id}`, { method: 'DELETE' });
                      edit.setConfirming(null);
                      await refresh();
                    })}
                    onNo={() => edit.setConfirming(null)}
                  />
                ) : (
                  <button type="button" class="danger small-button" aria-label={`Revoke the access of ${g.label} to ${ws.name}`} onClick={() => edit.setConfirming(`${g.kind}:${g.id}`)}>
                    Revoke
                  </button>
                )
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** Grants the workspace to a team or a user not granted yet (for whoever may read them). */
function GrantForm({ edit, access }: { edit: WorkspaceEdit; access: WorkspaceAccess | undefined }) {
  const { ws, action, refresh } = edit;
  const { can } = useSession();
  const teams = useQuery({ queryKey: ['teams'], queryFn: () => api<Team[]>('/api/v1/teams'), enabled: can('TEAM_READ') });
  const users = useUsers(can('USER_READ'));
  if (!teams.data && !users.data) return null;
  return (
    <form
      class="row"
      aria-label={`Grant access to ${ws.name}`}
      onSubmit={withFields((d) => {
        const [kind, id] = String(d.get('grantee') ?? '').split(':');
        if (!id) return;
        void action.run(async () => {
          await api(`/api/v1/workspaces/${ws.id}/access/${kind === 'team' ? 'teams' : 'users'}`, { method: 'POST', body: kind === 'team' ? { teamId: Number(id) } : { userId: Number(id) } });
          await refresh();
        });
      })}
    >
      <label class="field">
        <span>Grant access to</span>
        <select name="grantee" required>
          <option value="">Choose a team or a user…</option>
          {teams.data?.length ? (
            <optgroup label="Teams">
              {teams.data
                .filter((t) => !access?.teams.some((x) => x.id === t.id))
                .map((t) => (
                  <option value={`team:${t.id}`}>team {t.name}</option>
                ))}
            </optgroup>
          ) : null}
          {users.data?.length ? (
            <optgroup label="Users">
              {users.data
                .filter((u) => !access?.users.some((x) => x.id === u.id))
                .map((u) => (
                  <option value={`user:${u.id}`}>
                    {u.name} ({u.email})
                  </option>
                ))}
            </optgroup>
          ) : null}
        </select>
      </label>
      <button type="submit">Grant</button>
    </form>
  );
}

/**
 * A user's row controls for someone with USER_MANAGE: replace the user's company roles (the API adds
 * only roles whose keys the editor holds), and deactivate (after a confirmation; their tokens stop
 * at once) or reactivate. Not offered on one's own row: the API refuses changing one's own status.
 */
export function UserControls({ user, roles, self }: { user: { id: number; name: string; status: string; roles: { id: number }[] }; roles: { id: number; name: string }[] | undefined; self: boolean }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const refresh = () => qc.invalidateQueries({ queryKey: ['users'] });
  const held = new Set(user.roles.map((r) => r.id));
  return (
    <div class="stack">
      <div class="row tight">
        {roles ? (
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)} aria-label={`Change the roles of ${user.name}`}>
            Roles…
          </button>
        ) : null}
        {self || user.status === 'passive' ? null : user.status === 'deactivated' ? (
          <button
            type="button"
            aria-label={`Reactivate ${user.name}`}
            onClick={() => action.run(async () => {
              await api(`/api/v1/users/${user.id}/status`, { method: 'PUT', body: { status: 'active' } });
              await refresh();
            })}
          >
            Reactivate
          </button>
        ) : confirming ? (
          <Confirm
            label={`Confirm deactivating ${user.name}`}
            question="Deactivate? They are signed out everywhere at once and cannot sign in."
            yes="Yes, deactivate"
            onYes={() => action.run(async () => {
              await api(`/api/v1/users/${user.id}/status`, { method: 'PUT', body: { status: 'deactivated' } });
              setConfirming(false);
              await refresh();
            })}
            onNo={() => setConfirming(false)}
          />
        ) : (
          <button type="button" aria-label={`Deactivate ${user.name}`} onClick={() => setConfirming(true)}>
            Deactivate
          </button>
        )}
      </div>
      {editing && roles ? (
        <form
          class="stack"
          aria-label={`Roles of ${user.name}`}
          onSubmit={withFields((d) => {
            void action.run(async () => {
              await api(`/api/v1/users/${user.id}/roles`, { method: 'PUT', body: { roleIds: d.getAll('roleIds').map(Number) } });
              setEditing(false);
              await refresh();
            });
          })}
        >
          <fieldset class="facet">
            <legend>Roles of {user.name}</legend>
            {roles.map((r) => (
              <label class="check small">
                <input type="checkbox" name="roleIds" value={String(r.id)} defaultChecked={held.has(r.id)} /> <span>{r.name}</span>
              </label>
            ))}
          </fieldset>
          <div class="row">
            <button type="submit" class="primary" disabled={action.busy}>
              Save the roles
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <ErrorNote error={action.error} />
    </div>
  );
}
