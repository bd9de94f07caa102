import { useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Team, User, Workspace } from '@qa-platform/client';
import { api } from '../api';
import { Confirm, ErrorNote, Field, useAction, withFields } from '../ui';

/** A team's card: its members (added and removed), its name, and its deletion, for someone with TEAM_MANAGE. */
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
