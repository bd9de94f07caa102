import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { useSession } from '../session-context';
import { ActionForm, ErrorNote, Field, NotAllowed, QueryList, useActionThen } from '../ui';
import type { Host } from '@qa-platform/client';
import { HostsTable, WorkspaceChoices, type ShownToken } from './hosts-table';

/**
 * Enrolled hosts: enrol (the token shown once), rename, re-scope to workspaces, a new token (shown
 * once), revoke, move a device of the company to a host. Needs `df:host:manage`.
 */
export function HostsPage() {
  const { can } = useSession();
  const qc = useQueryClient();
  const allowed = can('df:host:manage');
  const hosts = useQuery({
    queryKey: ['hosts'],
    queryFn: () => api<{ content: Host[] }>('/df/api/hosts', { query: { size: 100 } }),
    enabled: allowed,
  });
  const [enrolled, setEnrolled] = useState<ShownToken | null>(null);
  const [moved, setMoved] = useState<string | null>(null);
  const action = useActionThen(() => qc.invalidateQueries({ queryKey: ['hosts'] }));
  if (!allowed) return <NotAllowed title="Hosts">Managing hosts needs the permission key df:host:manage in this workspace.</NotAllowed>;

  return (
    <section class="stack">
      <h1>Hosts</h1>
      <ErrorNote error={action.error} />
      {moved ? <p role="status">{moved}</p> : null}
      {/* A new token each time: the copy state starts again with it. */}
      {enrolled ? <NewHostToken key={enrolled.token} enrolled={enrolled} onError={action.fail} onDone={() => setEnrolled(null)} /> : null}
      <div class="split">
        <div class="card">
          <h2>Enrol a host</h2>
          <EnrolForm
            onEnrolled={async (shown) => {
              setEnrolled(shown);
              await qc.invalidateQueries({ queryKey: ['hosts'] });
            }}
          />
        </div>
        <div class="stack">
          <QueryList query={hosts} isEmpty={(d) => !d.content.length} empty="No host is enrolled yet.">
            {(d) => <HostsTable hosts={d.content} run={action.run} onToken={setEnrolled} onMoved={setMoved} />}
          </QueryList>
        </div>
      </div>
    </section>
  );
}

function EnrolForm({ onEnrolled }: { onEnrolled: (shown: ShownToken) => Promise<unknown> }) {
  return (
    <ActionForm
      submit="Enrol"
      label="Enrol a host"
      onSubmit={async (d) => {
        const ids = d.getAll('workspaceIds').map(Number);
        const body: { name: string; workspaceIds?: number[] } = { name: String(d.get('name')).trim() };
        if (ids.length > 0) body.workspaceIds = ids;
        const h = await api<{ name: string; token: string }>('/df/api/hosts', { method: 'POST', body });
        (document.querySelector('form[aria-label="Enrol a host"]') as HTMLFormElement | null)?.reset();
        await onEnrolled({ name: h.name, token: h.token });
      }}
    >
      <Field label="Name" name="name" required maxLength={200} />
      <WorkspaceChoices />
    </ActionForm>
  );
}

/** The token of a host just enrolled or given a new one: shown this once, with how to start the agent. */
function NewHostToken({ enrolled, onError, onDone }: { enrolled: ShownToken; onError: (err: unknown) => void; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="card stack" role="region" aria-label="New host token">
      <h2>{enrolled.rotated ? `A new token for “${enrolled.name}”` : `Host “${enrolled.name}” enrolled`}</h2>
      <p>Copy its token now: it is shown only this once.{enrolled.rotated ? ' The old token is refused at the host’s next hello.' : ''}</p>
      <label class="field">
        <span>Token</span>
        <input readOnly value={enrolled.token} />
      </label>
      <div class="row">
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(enrolled.token);
              setCopied(true);
            } catch (err) {
              onError(err);
            }
          }}
        >
          Copy token
        </button>
        {copied ? <span role="status">Copied</span> : null}
      </div>
      <p>Start the agent on the host with (NATS_URL: the address of the platform's NATS):</p>
      <pre>
        <code>{`AGENT_HOST_TOKEN=${enrolled.token} NATS_URL=nats://<nats-host>:4222 npm run agent`}</code>
      </pre>
      <div>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
