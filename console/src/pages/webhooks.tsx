import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { useSession } from '../session-context';
import { ActionForm, Confirm, DataTable, Empty, ErrorNote, Field, formatTime, FormCard, Loading, Pager, QueryList, ShownOnce, useActionThen } from '../ui';

/** The event names the platform sends (docs/modules/webhooks.md). */
const EVENTS = [
  ['session.ended', 'A device session ended'],
  ['reservation.starting', 'A booking starts soon'],
  ['reservation.ended', 'A booking ended'],
  ['accessibility.export.ready', 'An accessibility export is ready'],
  ['test_session.finished', 'A test session finished'],
  ['healthcheck.down', 'A health check went down'],
  ['healthcheck.recovered', 'A health check recovered'],
  ['host.lost', 'A device host was lost'],
] as const;

interface Webhook {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  disabledReason?: string;
  secret?: string;
}
interface Attempt {
  at: string;
  status: number | null;
  durationMs: number;
  error?: string;
}
interface Delivery {
  id: string;
  event: string;
  createdAt: string;
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: string | null;
  attempts: Attempt[];
}
interface Page<T> {
  content: T[];
  page: number;
  totalPages: number;
  totalElements: number;
}

const hooksPath = (ws: number) => `/api/v1/workspaces/${ws}/webhooks`;

/** The events as checkboxes named `events`, those of `checked` ticked. */
function EventChoices({ checked, legend }: { checked: readonly string[]; legend: string }) {
  return (
    <fieldset class="stack">
      <legend>{legend}</legend>
      {EVENTS.map(([name, label]) => (
        <label class="check">
          <input type="checkbox" name="events" value={name} defaultChecked={checked.includes(name)} /> <code>{name}</code> {label}
        </label>
      ))}
    </fieldset>
  );
}

/** The active workspace's webhooks: add one (its secret shown once), change events, enable or disable, remove, and each one's deliveries. */
export function WebhooksSection() {
  const { auth, workspaces } = useSession();
  const ws = auth?.workspaceId ?? 0;
  const qc = useQueryClient();
  const hooks = useQuery({ queryKey: ['webhooks', ws], queryFn: () => api<Webhook[]>(hooksPath(ws)), enabled: ws > 0 });
  const [created, setCreated] = useState<Webhook | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const reload = () => qc.invalidateQueries({ queryKey: ['webhooks', ws] });
  const name = workspaces.find((w) => w.id === ws)?.name ?? 'this workspace';
  return (
    <div class="stack">
      <h2>Webhooks of {name}</h2>
      <p class="muted">Each event is POSTed to the endpoint, signed as the Standard Webhooks specification says, and retried for about a day.</p>
      <FormCard
        title="New webhook" heading="h3" submit="Add the webhook"
        after={created?.secret ? <ShownOnce label="New webhook secret" value={created.secret}>The signing secret of {created.url}, shown only now: copy it.</ShownOnce> : null}
        onSubmit={async (d) => {
          setCreated(await api<Webhook>(hooksPath(ws), { method: 'POST', body: { url: String(d.get('url') ?? '').trim(), events: d.getAll('events').map(String) } }));
          await reload();
        }}
      >
        <Field label="Endpoint URL" name="url" type="url" required placeholder="https://example.com/hooks" />
        <EventChoices legend="Events" checked={['session.ended']} />
      </FormCard>
      <QueryList query={hooks} isEmpty={(d) => d.length === 0} empty="No webhook yet.">
        {(d) => <WebhookTable ws={ws} hooks={d} open={open} onOpen={setOpen} reload={reload} />}
      </QueryList>
      {open !== null && hooks.data?.some((h) => h.id === open) ? <Deliveries ws={ws} hook={hooks.data.find((h) => h.id === open)!} /> : null}
    </div>
  );
}

/** A webhook's events, changed in its row: `save` sends the ones ticked. */
function EventsForm({ hook, save }: { hook: Webhook; save: (events: string[]) => Promise<unknown> }) {
  return (
    <ActionForm label={`Events of ${hook.url}`} submit="Save the events" onSubmit={(d) => save(d.getAll('events').map(String))}>
      <EventChoices legend="Events" checked={hook.events} />
    </ActionForm>
  );
}

function WebhookTable(props: { ws: number; hooks: Webhook[]; open: number | null; onOpen: (id: number | null) => void; reload: () => Promise<unknown> }) {
  const action = useActionThen(props.reload);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const path = (h: Webhook) => `${hooksPath(props.ws)}/${h.id}`;
  return (
    <>
      <ErrorNote error={action.error} />
      <DataTable
        caption="Webhooks"
        rows={props.hooks}
        rowKey={(h) => h.id}
        columns={[
          { header: 'Endpoint', cell: (h) => <code>{h.url}</code> },
          {
            header: 'Events',
            cell: (h) =>
              editing === h.id ? (
                <EventsForm
                  hook={h}
                  save={async (events) => {
                    if (await action.run(() => api(path(h), { method: 'PATCH', body: { events } }))) setEditing(null);
                  }}
                />
              ) : (
                h.events.join(', ')
              ),
          },
          { header: 'State', cell: (h) => (h.enabled ? 'Enabled' : `Disabled${h.disabledReason ? `: ${h.disabledReason}` : ''}`) },
          { header: 'Created', cell: (h) => formatTime(h.createdAt) },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (h) =>
              deleting === h.id ? (
                <Confirm label={`Remove ${h.url}`} question="Remove this webhook?" yes="Remove" onYes={() => action.run(() => api(path(h), { method: 'DELETE' })).then(() => setDeleting(null))} onNo={() => setDeleting(null)} />
              ) : (
                <span class="row">
                  <button type="button" aria-pressed={props.open === h.id} onClick={() => props.onOpen(props.open === h.id ? null : h.id)}>
                    Deliveries
                  </button>
                  <button type="button" onClick={() => setEditing(editing === h.id ? null : h.id)}>
                    {editing === h.id ? 'Keep the events' : 'Edit events'}
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => void action.run(() => api(path(h), { method: 'PATCH', body: { enabled: !h.enabled } }))}>
                    {h.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(h.id)}>
                    Remove
                  </button>
                </span>
              ),
          },
        ]}
      />
    </>
  );
}

const attemptText = (a: Attempt) => `${formatTime(a.at)}: ${a.status ?? 'no answer'} in ${a.durationMs} ms${a.error ? ` (${a.error})` : ''}`;

/** One endpoint's delivery log, newest first, with each attempt and "send again". */
function Deliveries({ ws, hook }: { ws: number; hook: Webhook }) {
  const qc = useQueryClient();
  const [page, setPage] = useState(0);
  const key = ['webhook-deliveries', ws, hook.id, page];
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () => api<Page<Delivery>>(`${hooksPath(ws)}/${hook.id}/deliveries`, { query: { page, size: 20 } }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const action = useActionThen(() => qc.invalidateQueries({ queryKey: ['webhook-deliveries', ws, hook.id] }));
  return (
    <section class="card stack" aria-label={`Deliveries to ${hook.url}`}>
      <h3>Deliveries to {hook.url}</h3>
      <ErrorNote error={deliveries.error ?? action.error} />
      {deliveries.isLoading ? <Loading /> : null}
      {deliveries.data && deliveries.data.totalElements === 0 ? <Empty>Nothing sent yet.</Empty> : null}
      {deliveries.data && deliveries.data.totalElements > 0 ? (
        <>
          <DataTable
            caption={`Deliveries to ${hook.url}`}
            rows={deliveries.data.content}
            rowKey={(d) => d.id}
            columns={[
              { header: 'Event', cell: (d) => <code>{d.event}</code> },
              { header: 'Queued', cell: (d) => formatTime(d.createdAt) },
              { header: 'State', cell: (d) => (d.state === 'pending' && d.nextAttemptAt ? `pending, next try ${formatTime(d.nextAttemptAt)}` : d.state) },
              {
                header: 'Attempts',
                cell: (d) => (
                  <ol class="attempts">
                    {d.attempts.map((a) => (
                      <li>{attemptText(a)}</li>
                    ))}
                  </ol>
                ),
              },
              {
                header: 'Actions',
                hiddenHeader: true,
                cell: (d) => (
                  <button type="button" disabled={action.busy} aria-label={`Send again the ${d.event} delivery of ${formatTime(d.createdAt)}`} onClick={() => void action.run(() => api(`${hooksPath(ws)}/${hook.id}/deliveries/${d.id}/redeliver`, { method: 'POST' }))}>
                    Send again
                  </button>
                ),
              },
            ]}
          />
          <Pager page={page} totalPages={deliveries.data.totalPages} total={deliveries.data.totalElements} onPage={setPage} />
        </>
      ) : null}
    </section>
  );
}
