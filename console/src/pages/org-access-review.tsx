import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Schemas, Workspace } from '@qa-platform/client';
import { api, ApiError, download } from '../api';
import { Link } from '../router';
import { useSession } from '../session-context';
import { DataTable, Empty, ErrorNote, formatTime, Loading, withFields } from '../ui';

type Review = Schemas['AccessReview'];
type Person = Review['people'][number];
type AccessPath = Person['access'][number];
type KeySource = NonNullable<Review['permissionKey']>['holders'][number]['through'][number];

/** What the review asks for: a workspace, a moment (absent: now) and optionally a permission key. */
interface ReviewQuery {
  workspaceId: number;
  at?: string;
  permissionKey?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A `datetime-local` value (the person's zone, to the second) for an instant. */
const localValue = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

const accessWords = (a: AccessPath) => (a.via === 'admin' ? 'Company administrator' : a.via === 'user' ? 'Granted to them' : `Through the team ${a.teamName ?? `#${a.teamId}`}`);
const scopeWords = (scope: 'company' | 'workspace') => (scope === 'company' ? 'company role' : 'role in this workspace');
const sourceWords = (s: KeySource) => (s.kind === 'admin' ? 'Company administrator' : `${s.roleName ?? `role #${s.roleId}`} (${scopeWords(s.scope ?? 'company')})`);

/** The server's refusal in words: a moment in the future is named as such. */
function ReviewError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.code === 'AT_IN_FUTURE') {
    return (
      <p class="error" role="alert">
        That moment is in the future: an access review looks back, so choose now or earlier. ({error.message})
      </p>
    );
  }
  return <ErrorNote error={error} />;
}

/** The access review form: workspace, moment (never after now), permission key. */
function ReviewForm({ workspaces, keys, initial, onReview }: { workspaces: Workspace[]; keys: string[]; initial: ReviewQuery; onReview: (q: ReviewQuery) => void }) {
  const [at, setAt] = useState('');
  // The field offers nothing after now; left empty (or set with "Now"), the review is of the server's now.
  const max = localValue(new Date());
  return (
    <form
      class="row"
      aria-label="Access review"
      onSubmit={withFields((d) => {
        const local = String(d.get('at') ?? '');
        const key = String(d.get('permissionKey') ?? '');
        onReview({ workspaceId: Number(d.get('workspaceId')), ...(local ? { at: new Date(local).toISOString() } : {}), ...(key ? { permissionKey: key } : {}) });
      })}
    >
      <label class="field">
        <span>Workspace</span>
        <select name="workspaceId" required>
          {workspaces.map((w) => (
            <option value={String(w.id)} selected={w.id === initial.workspaceId}>
              {w.name}
              {w.archived ? ' (archived)' : ''}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>As of</span>
        <input type="datetime-local" name="at" step={1} max={max} value={at} onInput={(e) => setAt(e.currentTarget.value)} aria-describedby="access-review-at-hint" />
        <small class="muted" id="access-review-at-hint">
          Your time zone; empty means now.
        </small>
      </label>
      <label class="field">
        <span>Permission key</span>
        <select name="permissionKey">
          <option value="">None</option>
          {keys.map((k) => (
            <option value={k}>{k}</option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary">
        Review
      </button>
      <button type="button" onClick={() => setAt('')}>
        Now
      </button>
    </form>
  );
}

function PeopleTable({ review }: { review: Review }) {
  if (review.people.length === 0) return <Empty>Nobody could enter {review.workspace.name} at that moment.</Empty>;
  return (
    <DataTable
      caption={`People with access to ${review.workspace.name}`}
      rows={review.people}
      rowKey={(p) => p.id}
      columns={[
        {
          header: 'Person',
          cell: (p) => (
            <>
              {p.name}
              <div class="muted small">
                {p.email}
                {p.status === 'active' ? '' : ` (${p.status})`}
              </div>
            </>
          ),
        },
        { header: 'Access', cell: (p) => (p.access.length === 0 ? 'No way in (roles here only)' : p.access.map(accessWords).join('; ')) },
        { header: 'Teams', cell: (p) => (p.teams.length === 0 ? '—' : p.teams.map((t) => t.name).join(', ')) },
        {
          header: 'Roles',
          cell: (p) =>
            p.roles.length === 0
              ? '—'
              : p.roles.map((r) => (
                  <div>
                    {r.name} <span class="muted small">({scopeWords(r.scope)})</span>
                  </div>
                )),
        },
        {
          header: 'Permission keys',
          class: 'small',
          cell: (p) =>
            p.permissions.length === 0 ? (
              'none'
            ) : (
              <details>
                <summary>
                  {p.permissions.length} {p.permissions.length === 1 ? 'key' : 'keys'}
                </summary>
                {p.permissions.join(', ')}
              </details>
            ),
        },
      ]}
    />
  );
}

function KeyHolders({ review }: { review: Review }) {
  const key = review.permissionKey;
  if (!key) return null;
  return (
    <section class="stack" aria-labelledby="access-review-key">
      <h3 id="access-review-key">
        Who could use <code>{key.key}</code>
      </h3>
      {key.holders.length === 0 ? (
        <Empty>Nobody could use {key.key} in {review.workspace.name} at that moment.</Empty>
      ) : (
        <DataTable
          caption={`Who could use ${key.key}`}
          rows={key.holders}
          rowKey={(h) => h.userId}
          columns={[
            {
              header: 'Person',
              cell: (h) => (
                <>
                  {h.name} <div class="muted small">{h.email}</div>
                </>
              ),
            },
            { header: 'Through', cell: (h) => h.through.map(sourceWords).join('; ') },
            { header: 'Access', cell: (h) => h.access.map(accessWords).join('; ') },
          ]}
        />
      )}
    </section>
  );
}

/** The access review: who held what in a workspace at a moment, folded by the server from the company's events; read only. */
export function AccessReviewSection() {
  const { can, workspaces: accessible, auth } = useSession();
  const all = useQuery({ queryKey: ['workspaces', 'all'], queryFn: () => api<Workspace[]>('/api/v1/workspaces'), enabled: can('WORKSPACE_READ') });
  const catalog = useQuery({ queryKey: ['permission-catalog'], queryFn: () => api<{ key: string; module: string; description: string }[]>('/api/v1/permissions'), staleTime: Infinity });
  const workspaces = all.data ?? (accessible as Workspace[]);
  const [query, setQuery] = useState<ReviewQuery | null>(auth?.workspaceId ? { workspaceId: auth.workspaceId } : null);
  // Each "Review" asks again, even for the same choices: "now" has moved on.
  const [asked, setAsked] = useState(0);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const review = useQuery({
    queryKey: ['access-review', query, asked],
    queryFn: () => api<Review>('/api/v1/access-review', { query: { ...query } }),
    enabled: !!query,
  });
  const keys = (catalog.data ?? []).map((k) => k.key);
  const data = review.data;
  return (
    <div class="stack">
      <p class="muted small">
        Who could enter a workspace at a moment, how, and with which teams, roles and permission keys: rebuilt from the company's history, not read from today's settings. To mark today's grants keep or
        revoke and carry that out, start a review under <Link href="/org/access-reviews">Access reviews</Link>.
      </p>
      {workspaces.length > 0 ? (
        <ReviewForm
          workspaces={workspaces}
          keys={keys}
          initial={query ?? { workspaceId: workspaces[0]!.id }}
          onReview={(q) => {
            setDownloadError(null);
            setQuery(q);
            setAsked((n) => n + 1);
          }}
        />
      ) : (
        <Empty>There is no workspace to review.</Empty>
      )}
      <ReviewError error={review.error ?? catalog.error ?? all.error} />
      {review.isFetching && !data ? <Loading /> : null}
      {data && !review.error ? (
        <section class="stack" aria-labelledby="access-review-result">
          <div class="card-head">
            <h2 id="access-review-result">
              {data.workspace.name}
              {data.workspace.archived ? ' (archived)' : ''} at {formatTime(data.at)}
            </h2>
            <button
              type="button"
              onClick={() => {
                setDownloadError(null);
                const stamp = data.at.replace(/[:.]/g, '-');
                const q = query!;
                download('/api/v1/access-review', `access-review-${q.workspaceId}-${stamp}.csv`, { ...q, at: data.at, format: 'csv' }).catch(setDownloadError);
              }}
            >
              Download CSV
            </button>
          </div>
          <ErrorNote error={downloadError} />
          <KeyHolders review={data} />
          <PeopleTable review={data} />
        </section>
      ) : null}
    </div>
  );
}
