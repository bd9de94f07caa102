import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Answer, Page, Role, User } from '@qa-platform/client';
import { api } from '../api';
import { Confirm, ConfirmButton, ErrorNote, Field, useAction, useActionThen, withFields } from '../ui';

/**
 * The organization pages' editing controls: a role's name, description and keys, and a user's roles and
 * status here; a team's members, name and deletion in org-team.tsx; a workspace's modules, access grants
 * and archiving in org-workspace.tsx. Each is offered only with
 * its permission key in the active workspace; the API decides for other workspaces (its refusal's
 * message is shown).
 */

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

type Erasure = Answer<'/api/v1/users/{id}/erase', 'post'>;

/** What erasing a person does, asked before it is done. */
const ERASE_QUESTION =
  'Erase for good? This deletes the account and erases their name, e-mail address, sign-in addresses and notes; it cannot be undone. The history stays verifiable: its entries then name an erased person.';

/**
 * A user's row controls for someone with USER_MANAGE: replace the user's company roles (the API adds
 * only roles whose keys the editor holds), deactivate (after a confirmation; their tokens stop
 * at once) or reactivate, and erase their personal data (after a confirmation; `onErased` is told what
 * to say, as the row goes with the user). Status and erasure are not offered on one's own row: the API
 * refuses both for oneself.
 */
export function UserControls(props: {
  user: { id: number; name: string; status: string; roles: { id: number }[] };
  roles: { id: number; name: string }[] | undefined;
  self: boolean;
  onErased: (said: string) => void;
}) {
  const { user, roles, self } = props;
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
        {self ? null : (
          <ConfirmButton
            label={`Confirm erasing the personal data of ${user.name}`}
            question={ERASE_QUESTION}
            yes="Yes, erase for good"
            buttonLabel={`Erase personal data of ${user.name}`}
            onYes={() => action.run(async () => {
              const erased = await api<Erasure>(`/api/v1/users/${user.id}/erase`, { method: 'POST' });
              const rebuilding = erased.readModels === 'rebuilding' ? ' Lists and reports are still being rebuilt: they may show it for a moment.' : '';
              props.onErased(`Personal data of ${user.name} erased.${rebuilding}`);
              // Names change wherever the person was named (teams, audit, reviews): every list is read again.
              await qc.invalidateQueries();
            })}
          >
            Erase personal data
          </ConfirmButton>
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
