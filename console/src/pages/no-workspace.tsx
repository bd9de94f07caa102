import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import type { CompanyAdministrator as Administrator, Workspace } from '@qa-platform/client';
import { api, enterWorkspace } from '../api';
import { navigate } from '../router';
import { ErrorNote } from '../ui';

/** How often the page asks again whether a workspace was opened to the person. */
const POLL_MS = 5_000;

/**
 * A signed-in person who can enter no workspace yet: what that means and whom to ask. The page keeps
 * asking (and offers to ask now); once access is granted it takes a token for that workspace and
 * moves on to the device grid, without signing out.
 */
export function NoWorkspacePage() {
  const qc = useQueryClient();
  const admins = useQuery({ queryKey: ['company-administrators'], queryFn: () => api<Administrator[]>('/api/v1/users/me/administrators') });
  const accessible = useQuery({
    queryKey: ['no-workspace-check'],
    queryFn: () => api<Workspace[]>('/api/v1/workspaces/accessible'),
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: true,
  });
  const [checked, setChecked] = useState('');
  const open = (accessible.data ?? []).some((w) => !w.archived);
  useEffect(() => {
    if (!open) return;
    void (async () => {
      await enterWorkspace();
      await qc.resetQueries();
      navigate('/devices', { replace: true });
    })();
  }, [open]);
  return (
    <section class="card narrow-card" aria-labelledby="no-workspace">
      <h1 id="no-workspace">No workspace yet</h1>
      <p>
        You are signed in, but no workspace of your company is open to you yet, so there are no devices, sessions or reports to show. An administrator of your
        company gives you access to a workspace; this page notices by itself and takes you there.
      </p>
      <h2>Whom to ask</h2>
      {admins.data && admins.data.length > 0 ? (
        <ul aria-label="Administrators of your company">
          {admins.data.map((a) => (
            <li>
              {a.name} — <a href={`mailto:${a.email}`}>{a.email}</a>
            </li>
          ))}
        </ul>
      ) : (
        <p>An administrator of your company.</p>
      )}
      <ErrorNote error={admins.error ?? accessible.error} />
      <div class="row">
        <button
          type="button"
          disabled={accessible.isFetching}
          onClick={async () => {
            setChecked('');
            const r = await accessible.refetch();
            if (!(r.data ?? []).some((w) => !w.archived)) setChecked(`Still no workspace (checked at ${new Date().toLocaleTimeString()}).`);
          }}
        >
          {accessible.isFetching ? 'Checking…' : 'Check again'}
        </button>
      </div>
      <p class="muted" role="status">
        {open ? 'Access granted: opening your workspace…' : checked}
      </p>
    </section>
  );
}
