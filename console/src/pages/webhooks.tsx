import type { ComponentChildren } from 'preact';
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
  ['reservation.maintenance_conflict', 'A booked device goes into maintenance'],
  ['accessibility.export.ready', 'An accessibility export is ready'],
  ['test_session.finished', 'A test session finished'],
  ['test_run.finished', 'A test run finished'],
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
  previousSecretExpiresAt?: string;
  /** Sealed under a key this installation no longer has: every delivery fails until it is rotated. */
  secretMustBeRotated?: true;
}
interface Attempt {
  at: string;
  status: number | null;
  durationMs: number;
  error?: string;
  request?: { headers: Record<string, string>; body: string };
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

/** How long the old secret keeps signing after a rotation (seconds), as offered; the API takes 0 to 7 days. */
const OVERLAPS = [
  { value: '0', label: 'No overlap: the old secret stops now' },
  { value: String(3600), label: '1 hour' },
  { value: String(24 * 3600), label: '24 hours' },
  { value: String(7 * 24 * 3600), label: '7 days' },
];

/** A secret shown once, with a button copying it (or saying to select it when the browser refuses). */
function SecretToCopy({ label, value, children }: { label: string; value: string; children: ComponentChildren }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div class="stack">
      <ShownOnce label={label} value={value}>
        {children}
      </ShownOnce>
      <span class="row">
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          Copy the secret<span class="sr-only">: {label}</span>
        </button>
        <span role="status">{copied === true ? 'Copied to the clipboard.' : copied === false ? 'Copying was refused by the browser: select the secret and copy it yourself.' : ''}</span>
      </span>
    </div>
  );
}

/** A rotation's answer: the new secret, once, and until when the old one still signs. */
function RotatedSecret({ hook }: { hook: Webhook }) {
  const until = hook.previousSecretExpiresAt;
  const overlapping = until !== undefined && Date.parse(until) > Date.now();
  return (
    <SecretToCopy label="Rotated webhook secret" value={hook.secret ?? ''}>
      The new signing secret of {hook.url}, shown only now: copy it.{' '}
      {overlapping ? `The old secret signs too until ${formatTime(until)}: until then a receiver holding either verifies.` : 'The old secret no longer signs.'}
    </SecretToCopy>
  );
}

/** The active workspace's webhooks: add one (its secret shown once), change events, enable or disable, ping, rotate the secret, remove, and each one's deliveries. */
export function WebhooksSection() {
  const { auth, workspaces } = useSession();
  const ws = auth?.workspaceId ?? 0;
  const qc = useQueryClient();
  const hooks = useQuery({ queryKey: ['webhooks', ws], queryFn: () => api<Webhook[]>(hooksPath(ws)), enabled: ws > 0 });
  const [created, setCreated] = useState<Webhook | null>(null);
  const [rotated, setRotated] = useState<Webhook | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const reload = () => qc.invalidateQueries({ queryKey: ['webhooks', ws] });
  const name = workspaces.find((w) => w.id === ws)?.name ?? 'this workspace';
  return (
    <div class="stack">
      <h2>Webhooks of {name}</h2>
      <p class="muted">Each event is POSTed to the endpoint, signed as the Standard Webhooks specification says, and retried for about a day.</p>
      <FormCard
        title="New webhook" heading="h3" submit="Add the webhook"
        after={created?.secret ? <SecretToCopy label="New webhook secret" value={created.secret}>The signing secret of {created.url}, shown only now: copy it.</SecretToCopy> : null}
        onSubmit={async (d) => {
          setCreated(await api<Webhook>(hooksPath(ws), { method: 'POST', body: { url: String(d.get('url') ?? '').trim(), events: d.getAll('events').map(String) } }));
          await reload();
        }}
      >
        <Field label="Endpoint URL" name="url" type="url" required placeholder="https://example.com/hooks" />
        <EventChoices legend="Events" checked={['session.ended']} />
      </FormCard>
      {rotated?.secret ? <RotatedSecret hook={rotated} /> : null}
      <QueryList query={hooks} isEmpty={(d) => d.length === 0} empty="No webhook yet.">
        {(d) => <WebhookTable ws={ws} hooks={d} open={open} onOpen={setOpen} onRotated={setRotated} reload={reload} />}
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

/** Rotating a webhook's secret, in its row: how long the old one keeps signing, then the rotation. */
function RotateForm({ hook, rotate, cancel }: { hook: Webhook; rotate: (overlapSeconds: number) => Promise<unknown>; cancel: () => void }) {
  return (
    <div class="stack">
      <ActionForm label={`Rotate the secret of ${hook.url}`} submit="Rotate the secret" onSubmit={(d) => rotate(Number(d.get('overlapSeconds')))}>
        <label class="field">
          <span>The old secret keeps signing for</span>
          <select name="overlapSeconds">
            {OVERLAPS.map((o) => (
              <option value={o.value} selected={o.value === String(24 * 3600)}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      </ActionForm>
      <button type="button" onClick={cancel}>
        Keep the secret
      </button>
    </div>
  );
}

function WebhookTable(props: { ws: number; hooks: Webhook[]; open: number | null; onOpen: (id: number | null) => void; onRotated: (hook: Webhook) => void; reload: () => Promise<unknown> }) {
  const action = useActionThen(props.reload);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [rotating, setRotating] = useState<number | null>(null);
  const [pinged, setPinged] = useState<string | null>(null);
  const path = (h: Webhook) => `${hooksPath(props.ws)}/${h.id}`;
  return (
    <>
      <ErrorNote error={action.error} />
      <p role="status" class={pinged ? 'ok' : undefined}>
        {pinged ?? ''}
      </p>
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
          {
            header: 'Secret',
            cell: (h) =>
              rotating === h.id ? (
                <RotateForm
                  hook={h}
                  cancel={() => setRotating(null)}
                  rotate={async (overlapSeconds) => {
                    const made = await api<Webhook>(`${path(h)}/rotate-secret`, { method: 'POST', body: { overlapSeconds } });
                    props.onRotated(made);
                    setRotating(null);
                    await props.reload();
                  }}
                />
              ) : h.secretMustBeRotated ? (
                <span class="warn">Must be rotated: it was sealed under a key this installation no longer has, and every delivery fails until then</span>
              ) : h.previousSecretExpiresAt && Date.parse(h.previousSecretExpiresAt) > Date.now() ? (
                `Rotated; the old one signs too until ${formatTime(h.previousSecretExpiresAt)}`
              ) : (
                'One secret'
              ),
          },
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
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={async () => {
                      setPinged(null);
                      if (await action.run(() => api(`${path(h)}/ping`, { method: 'POST' }))) {
                        setPinged(`A ping was sent to ${h.url}: its delivery is in the log below.`);
                        props.onOpen(h.id);
                      }
                    }}
                  >
                    Ping<span class="sr-only"> {h.url}</span>
                  </button>
                  <button type="button" aria-pressed={rotating === h.id} onClick={() => setRotating(rotating === h.id ? null : h.id)}>
                    Rotate secret<span class="sr-only"> of {h.url}</span>
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

/** One attempt: its outcome, and the request it sent (headers and the body signed) to unfold. */
function AttemptItem({ attempt, n }: { attempt: Attempt; n: number }) {
  const request = attempt.request;
  return (
    <li>
      {attemptText(attempt)}
      {request ? (
        <details>
          <summary>Request of attempt {n}</summary>
          <dl class="inspect-details">
            {Object.entries(request.headers).map(([name, value]) => (
              <>
                <dt>
                  <code>{name}</code>
                </dt>
                <dd>
                  <code>{value}</code>
                </dd>
              </>
            ))}
          </dl>
          <pre class="secret" aria-label={`Body of attempt ${n}`}>
            {request.body}
          </pre>
        </details>
      ) : null}
    </li>
  );
}

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
                    {d.attempts.map((a, i) => (
                      <AttemptItem attempt={a} n={i + 1} />
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
