import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Page, Schemas, Workspace } from '@qa-platform/client';
import { api, download } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session-context';
import { ActionForm, ConfirmButton, DataTable, Empty, ErrorNote, formatTime, Pager, QueryList, QueryTable, useAction } from '../ui';

type Summary = Schemas['AccessReviewSummary'];
type Review = Schemas['AccessReviewDetail'];
type Item = Schemas['AccessReviewItem'];
type Person = Schemas['AccessReviewPerson'];

const PATH = '/org/access-reviews';
const reviewKey = (id: number) => ['access-reviews', 'one', id];

const who = (p: Person | null) => (p ? (p.name ?? p.email ?? `user #${p.id}`) : '—');
const personWords = (u: Item['user']) => (u ? `${u.name || u.email} (${u.email})` : 'someone');

/** The grant in words, as it stood when the review started. */
function grantWords(item: Item, workspace: string): string {
  switch (item.kind) {
    case 'workspace-user':
      return `${personWords(item.user)} may enter ${workspace} (granted to them)`;
    case 'workspace-team':
      return `Team ${item.team?.name ?? ''} may enter ${workspace}`;
    case 'team-member':
      return `${personWords(item.user)} is a member of team ${item.team?.name ?? ''}`;
    case 'workspace-role':
      return `${personWords(item.user)} holds the role ${item.role?.name ?? ''} in ${workspace}`;
    case 'company-role':
      return `${personWords(item.user)} holds the company role ${item.role?.name ?? ''}`;
    case 'admin':
      return `${personWords(item.user)} is a company administrator`;
  }
}

/** What revoking the grant takes away beyond this workspace, when it does. */
const reach = (item: Item) =>
  item.kind === 'team-member' ? 'Revoking it removes them from the team everywhere.' : item.kind === 'company-role' || item.kind === 'admin' ? 'Company-wide: revoking it applies in every workspace.' : null;

function outcomeWords(item: Item): string {
  if (item.decision === 'keep') return 'Kept';
  const o = item.outcome;
  if (!o) return item.decision === 'revoke' ? 'To revoke on completion' : '—';
  if (o.result === 'revoked') return 'Revoked';
  if (o.result === 'already-gone') return 'Already gone (counted as done)';
  return `Not revoked: ${o.code ?? ''} ${o.message ?? ''}`.trim();
}

const statusWords = (r: Summary) =>
  r.status === 'completed' ? `Completed ${formatTime(r.completedAt)}` : `Open: ${r.counts.undecided} of ${r.counts.items} grants undecided`;

/** Starts a review of a workspace: the server lists its grants as they stand now. */
function StartReview({ workspaces }: { workspaces: Workspace[] }) {
  const qc = useQueryClient();
  return (
    <ActionForm
      label="Start an access review"
      class="row"
      submit="Start review"
      onSubmit={async (d) => {
        const review = await api<Review>('/api/v1/access-reviews', { method: 'POST', body: { workspaceId: Number(d.get('workspaceId')) } });
        qc.setQueryData(reviewKey(review.id), review);
        await qc.invalidateQueries({ queryKey: ['access-reviews', 'list'] });
        navigate(`${PATH}?review=${review.id}`);
      }}
    >
      <label class="field">
        <span>Workspace to review</span>
        <select name="workspaceId" required>
          {workspaces.map((w) => (
            <option value={String(w.id)}>
              {w.name}
              {w.archived ? ' (archived)' : ''}
            </option>
          ))}
        </select>
      </label>
    </ActionForm>
  );
}

function ReviewList() {
  const [page, setPage] = useState(0);
  const reviews = useQuery({
    queryKey: ['access-reviews', 'list', page],
    queryFn: () => api<Page<Summary>>('/api/v1/access-reviews', { query: { page, size: 20 } }),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryTable
      query={reviews}
      rows={(d) => d.content}
      empty="No access review yet."
      caption="Access reviews"
      rowKey={(r) => r.id}
      columns={[
        { header: 'Workspace', cell: (r) => <Link href={`${PATH}?review=${r.id}`}>{`Review #${r.id} of ${r.workspace.name}`}</Link> },
        { header: 'Started', cell: (r) => `${formatTime(r.startedAt)} by ${who(r.startedBy)}` },
        { header: 'Status', cell: statusWords },
        { header: 'Decisions', cell: (r) => `${r.counts.keep} keep, ${r.counts.revoke} revoke` },
      ]}
      after={(d) => <Pager page={page} totalPages={d.totalPages} total={d.totalElements} onPage={setPage} />}
    />
  );
}

/** Keep or revoke one grant, with a note; the pressed button shows the decision on record. */
function DecisionControls({ review, item }: { review: Review; item: Item }) {
  const qc = useQueryClient();
  const action = useAction();
  const [note, setNote] = useState(item.note ?? '');
  const words = grantWords(item, review.workspace.name);
  const decide = (decision: 'keep' | 'revoke') =>
    action.run(async () => {
      await api<Item>(`/api/v1/access-reviews/${review.id}/items/${item.id}`, { method: 'PUT', body: { decision, ...(note.trim() ? { note: note.trim() } : {}) } });
      await qc.invalidateQueries({ queryKey: reviewKey(review.id) });
      await qc.invalidateQueries({ queryKey: ['access-reviews', 'list'] });
    });
  return (
    <div class="stack">
      <div class="row" role="group" aria-label={`Decision on: ${words}`}>
        <button type="button" aria-pressed={item.decision === 'keep'} disabled={action.busy} onClick={() => void decide('keep')}>
          Keep
        </button>
        <button type="button" class={item.decision === 'revoke' ? 'danger' : ''} aria-pressed={item.decision === 'revoke'} disabled={action.busy} onClick={() => void decide('revoke')}>
          Revoke
        </button>
      </div>
      <input type="text" maxLength={1000} aria-label={`Note on: ${words}`} placeholder="Note (optional)" value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      <ErrorNote error={action.error} />
    </div>
  );
}

function GrantTable({ review }: { review: Review }) {
  const open = review.status === 'open';
  return (
    <DataTable
      caption={`Grants of ${review.workspace.name} under review`}
      rows={review.items}
      rowKey={(i) => i.id}
      columns={[
        {
          header: 'Grant',
          cell: (i) => (
            <>
              {grantWords(i, review.workspace.name)}
              {i.role ? <div class="muted small">Keys: {i.role.permissions.length > 0 ? i.role.permissions.join(', ') : 'none'}</div> : null}
              {reach(i) ? <div class="muted small">{reach(i)}</div> : null}
            </>
          ),
        },
        {
          header: 'Decision',
          cell: (i) =>
            open ? (
              <DecisionControls review={review} item={i} />
            ) : (
              <>
                {i.decision === 'revoke' ? 'Revoke' : 'Keep'}
                {i.note ? <div class="muted small">{i.note}</div> : null}
              </>
            ),
        },
        { header: 'Decided', cell: (i) => (i.decidedAt ? `${formatTime(i.decidedAt)} by ${who(i.decidedBy)}` : 'Undecided') },
        { header: 'Outcome', cell: outcomeWords },
      ]}
    />
  );
}

/** Completing revokes what is marked revoke: asked first, and offered only once every grant is decided. */
function Completion({ review }: { review: Review }) {
  const qc = useQueryClient();
  const action = useAction();
  if (review.status === 'completed') return null;
  const { undecided, revoke } = review.counts;
  return (
    <div class="stack">
      {undecided > 0 ? (
        <p class="muted" id="access-review-undecided">
          Mark every grant keep or revoke to complete the review ({undecided} left).
        </p>
      ) : null}
      {undecided > 0 ? (
        <button type="button" disabled aria-describedby="access-review-undecided">
          Complete the review
        </button>
      ) : (
        <ConfirmButton
          label="Complete the review"
          question={revoke > 0 ? `Revoke the ${revoke} grant${revoke === 1 ? '' : 's'} marked revoke and close the review?` : 'Close the review, keeping every grant?'}
          yes="Complete and revoke"
          onYes={() =>
            action.run(async () => {
              const done = await api<Review>(`/api/v1/access-reviews/${review.id}/complete`, { method: 'POST', body: {} });
              qc.setQueryData(reviewKey(review.id), done);
              await qc.invalidateQueries({ queryKey: ['access-reviews', 'list'] });
            })
          }
        >
          Complete the review
        </ConfirmButton>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}

function Evidence({ review }: { review: Review }) {
  const action = useAction();
  const save = (format: 'csv' | 'json') => action.run(() => download(`/api/v1/access-reviews/${review.id}/evidence`, `access-review-${review.id}-evidence.${format}`, { format }));
  return (
    <div class="row">
      <button type="button" onClick={() => void save('csv')}>
        Download evidence (CSV)
      </button>
      <button type="button" onClick={() => void save('json')}>
        Download evidence (JSON)
      </button>
      <ErrorNote error={action.error} />
    </div>
  );
}

function ReviewDetail({ id }: { id: number }) {
  const review = useQuery({ queryKey: reviewKey(id), queryFn: () => api<Review>(`/api/v1/access-reviews/${id}`) });
  return (
    <QueryList query={review}>
      {(r) => (
        <section class="stack" aria-labelledby="access-review-detail">
          <div class="card-head">
            <h2 id="access-review-detail">
              Review #{r.id} of {r.workspace.name}
            </h2>
            <Link href={PATH}>All reviews</Link>
          </div>
          <p role="status">
            Started {formatTime(r.startedAt)} by {who(r.startedBy)}. {r.status === 'completed' ? `Completed ${formatTime(r.completedAt)} by ${who(r.completedBy)}.` : statusWords(r)}
          </p>
          <Completion review={r} />
          <GrantTable review={r} />
          <Evidence review={r} />
        </section>
      )}
    </QueryList>
  );
}

/**
 * Access reviews: an administrator starts a review of a workspace (its grants as they stand), marks each
 * keep or revoke, completes it (the server revokes what was marked revoke), and downloads the evidence.
 */
export function AccessReviewsSection() {
  const { can, workspaces: accessible } = useSession();
  const { query } = useLocation();
  const all = useQuery({ queryKey: ['workspaces', 'all'], queryFn: () => api<Workspace[]>('/api/v1/workspaces'), enabled: can('WORKSPACE_READ') });
  const workspaces = all.data ?? (accessible as Workspace[]);
  const selected = Number(query.get('review') ?? '');
  return (
    <div class="stack">
      <p class="muted small">
        Review who holds what in a workspace: mark each grant keep or revoke; completing the review revokes what you marked, as the Workspaces, Teams and Users pages would, and keeps the review as
        evidence. To see who held what at a past moment, use the <Link href="/org/access-review">Access review</Link> as of a date.
      </p>
      {workspaces.length > 0 ? <StartReview workspaces={workspaces} /> : <Empty>There is no workspace to review.</Empty>}
      <ErrorNote error={all.error} />
      {Number.isInteger(selected) && selected > 0 ? <ReviewDetail id={selected} /> : <ReviewList />}
    </div>
  );
}
