import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Team, Workspace, WorkspaceAccess } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { Confirm, ErrorNote, Loading, useAction, withFields } from '../ui';
import { useUsers } from './org-edit';
import { WorkspaceMembers } from './workspace-members';
import { WorkspaceRecording } from './workspace-recording';

/** The modules a workspace can be entitled to (the API's list; ORGANIZATION is always there). */
const MODULES: { key: string; label: string }[] = [
  { key: 'DF', label: 'Device testing' },
  { key: 'TMT', label: 'Test management' },
  { key: 'AUTORUNNER', label: 'Test engines' },
  { key: 'HEALTHCHECK', label: 'Health checks' },
];

/** A workspace's card: its modules, access grants, members and archiving, each with WORKSPACE_MANAGE. */
export function WorkspaceCard({ ws }: { ws: Workspace }) {
  const { can, auth } = useSession();
  const qc = useQueryClient();
  const canManage = can('WORKSPACE_MANAGE');
  // The device-testing settings are read and set in the workspace signed in to.
  const deviceSettings = ws.id === auth?.workspaceId && ws.modules.includes('DF') && can('df:session:read');
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
      {deviceSettings ? <WorkspaceRecording workspaceName={ws.name} /> : null}
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
