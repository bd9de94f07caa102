import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Role, Workspace, WorkspaceMember as Member } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, Loading, useAction, withFields } from '../ui';

const VIA: Record<Member['via'][number], string> = { admin: 'administrator', user: 'direct grant', team: 'team' };

/**
 * Everyone who can enter a workspace, how (administrator, a direct grant, a team) and the roles they
 * hold there on top of their company roles. Whoever holds WORKSPACE_MANAGE gives a role or takes one
 * back; the API gives only roles whose keys the giver holds in that workspace, and its refusal's
 * message is shown. Loaded when the section is opened: a workspace may have many members.
 */
export function WorkspaceMembers({ ws }: { ws: Workspace }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Members and their roles in {ws.name}</summary>
      {open ? <MemberTable ws={ws} /> : null}
    </details>
  );
}

function MemberTable({ ws }: { ws: Workspace }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const editable = can('WORKSPACE_MANAGE') && !ws.archived;
  const members = useQuery({ queryKey: ['workspace-members', ws.id], queryFn: () => api<Member[]>(`/api/v1/workspaces/${ws.id}/members`) });
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api<Role[]>('/api/v1/roles'), enabled: editable && can('ROLE_READ') });
  const action = useAction();
  const refresh = () => qc.invalidateQueries({ queryKey: ['workspace-members', ws.id] });
  if (members.isLoading) return <Loading />;
  if (members.error) return <ErrorNote error={members.error} />;
  if (!members.data?.length) return <Empty>Nobody can enter this workspace but the administrators.</Empty>;
  return (
    <div class="stack">
      <ErrorNote error={action.error} />
      <DataTable
        caption={`Members of ${ws.name}`}
        rows={members.data}
        rowKey={(m) => m.userId}
        columns={[
          {
            header: 'Member',
            cell: (m) => (
              <>
                {m.name} <span class="muted small">{m.email}</span>
                {m.status !== 'active' ? <span class="badge">{m.status}</span> : null}
              </>
            ),
          },
          { header: 'Enters as', cell: (m) => m.via.map((v) => VIA[v]).join(', ') },
          {
            header: 'Roles here',
            cell: (m) =>
              m.roles.length === 0 ? (
                <span class="muted small">company roles only</span>
              ) : (
                <ul class="chips" aria-label={`Roles of ${m.name} in ${ws.name}`}>
                  {m.roles.map((r) => (
                    <li key={r.id}>
                      <span class="badge">{r.name}</span>
                      {editable ? (
                        <button
                          type="button"
                          class="small-button"
                          aria-label={`Take the role ${r.name} from ${m.name} in ${ws.name}`}
                          disabled={action.busy}
                          onClick={() => action.run(async () => {
                            await api(`/api/v1/workspaces/${ws.id}/members/${m.userId}/roles/${r.id}`, { method: 'DELETE' });
                            await refresh();
                          })}
                        >
                          ×
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ),
          },
          ...(editable && roles.data
            ? [
                {
                  header: 'Give a role',
                  cell: (m: Member) => {
                    const open = roles.data!.filter((r) => !m.roles.some((x) => x.id === r.id));
                    return open.length === 0 ? null : (
                      <form
                        class="row tight"
                        aria-label={`Give ${m.name} a role in ${ws.name}`}
                        onSubmit={withFields((d) => {
                          const roleId = Number(d.get('roleId'));
                          if (!roleId) return;
                          void action.run(async () => {
                            await api(`/api/v1/workspaces/${ws.id}/members/roles`, { method: 'POST', body: { userId: m.userId, roleIds: [roleId] } });
                            await refresh();
                          });
                        })}
                      >
                        <select name="roleId" required aria-label={`Role to give ${m.name}`}>
                          <option value="">Choose a role…</option>
                          {open.map((r) => (
                            <option value={String(r.id)}>{r.name}</option>
                          ))}
                        </select>
                        <button type="submit" disabled={action.busy}>
                          Give
                        </button>
                      </form>
                    );
                  },
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
