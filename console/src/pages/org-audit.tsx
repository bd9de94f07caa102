import { keepPreviousData, useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { AuditEvent, AuditEventType, Page } from '@qa-platform/client';
import { api, download } from '../api';
import { DataTable, Empty, ErrorNote, Field, formatTime, Loading, Pager, withFields } from '../ui';

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

/** A resource type in words: `device-session` → "Device session". */
const resourceWords = (type: string) => (type.charAt(0).toUpperCase() + type.slice(1)).replaceAll('-', ' ').replace(/\bapi\b/i, 'API').replace(/\boauth\b/i, 'OAuth');

/** A `datetime-local` value (the person's zone) as an instant. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

type AuditFilter = Record<string, string | undefined>;

/** The audit history's filters: a chosen resource narrows the event types offered; Export CSV downloads what they select. */
function AuditFilters({ types, filters, onFilter, onExportError }: { types: AuditEventType[] | undefined; filters: AuditFilter; onFilter: (f: AuditFilter) => void; onExportError: (err: unknown) => void }) {
  const [resource, setResource] = useState('');
  // The event types by resource, in the server's order; a chosen resource narrows them to its own.
  const groups = new Map<string, AuditEventType[]>();
  for (const t of types ?? []) groups.set(t.resourceType, [...(groups.get(t.resourceType) ?? []), t]);
  const shown = [...groups].filter(([r]) => !resource || r === resource);
  return (
    <form
      class="row"
      aria-label="Audit filters"
      onSubmit={withFields((d) =>
        onFilter({ resourceType: text(d, 'resourceType') || undefined, eventType: text(d, 'eventType') || undefined, from: instant(text(d, 'from')), to: instant(text(d, 'to')) }),
      )}
    >
      <label class="field">
        <span>Resource</span>
        <select name="resourceType" value={resource} onChange={(e) => setResource(e.currentTarget.value)}>
          <option value="">Any</option>
          {[...groups.keys()].map((r) => (
            <option value={r}>{resourceWords(r)}</option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Event type</span>
        <select name="eventType" key={resource} disabled={!types}>
          <option value="">Any</option>
          {shown.map(([r, list]) => (
            <optgroup label={resourceWords(r)}>
              {list.map((t) => (
                <option value={t.type}>{t.label}</option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <Field label="From" name="from" type="datetime-local" />
      <Field label="To" name="to" type="datetime-local" />
      <button type="submit" class="primary">
        Filter
      </button>
      <button type="button" onClick={() => download('/api/v1/audit/events/export', 'audit.csv', { ...filters, format: 'csv' }).catch(onExportError)}>
        Export CSV
      </button>
    </form>
  );
}

/** What `GET /api/v1/audit/verify` answers. */
interface Verification {
  ok: boolean;
  events: number;
  checkpoints: number;
  firstBadPosition?: string;
  reason?: string;
}

/** Verify history: the company's chain checked by the server, and the bundle an auditor checks offline with `dfctl audit verify`. */
function VerifyHistory() {
  const [result, setResult] = useState<Verification | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await api<Verification>('/api/v1/audit/verify'));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="stack" aria-labelledby="verify-history">
      <h2 id="verify-history">Verify history</h2>
      <p class="muted small">
        Every event of the company is chained to the one before it by a SHA-256 hash, and the chain's head is signed at checkpoints. Verifying recomputes the chain;
        the bundle (events, checkpoints, public keys) verifies offline with <code>dfctl audit verify FILE</code>. Save the signing keys beforehand and check with{' '}
        <code>--keys audit-keys.json</code> to trust only the installation's published keys, not those a file carries.
      </p>
      <div class="row">
        <button type="button" class="primary" disabled={busy} onClick={() => void verify()}>
          {busy ? 'Verifying…' : 'Verify history'}
        </button>
        <button type="button" onClick={() => download('/api/v1/audit/bundle', 'audit-bundle.jsonl').catch(setError)}>
          Download bundle
        </button>
        <button type="button" onClick={() => download('/api/v1/audit/keys', 'audit-keys.json').catch(setError)}>
          Download signing keys
        </button>
      </div>
      <ErrorNote error={error} />
      {result ? (
        <p role="status" class={result.ok ? '' : 'error'}>
          {result.ok
            ? `Intact: ${result.events} events and ${result.checkpoints} signed checkpoints verified.`
            : `Broken at position ${result.firstBadPosition ?? 'unknown'}: ${result.reason ?? ''} (${result.events} events verified before it).`}
        </p>
      ) : null}
    </section>
  );
}

type ShippingTarget = { kind: 'syslog' | 'http'; host: string; position: string; backlog: number; lastError: string | null; lastShippedAt: string | null };

/** One line on where the shipping of the history to the installation's SIEM stands (set by its operator). */
function ShippingState() {
  const shipping = useQuery({ queryKey: ['audit-shipping'], queryFn: () => api<{ targets: ShippingTarget[] }>('/api/v1/audit/shipping'), refetchInterval: 15_000 });
  if (!shipping.data) return null;
  const { targets } = shipping.data;
  return (
    <section aria-label="Shipping to the SIEM" class="muted small">
      {targets.length === 0 ? (
        <p>Not shipped to a SIEM: the installation's operator has set none.</p>
      ) : (
        targets.map((t) => (
          <p>
            Shipped to the SIEM ({t.kind === 'syslog' ? 'syslog over TLS' : 'HTTP collector'}, {t.host}): {t.backlog === 0 ? 'up to date' : `${t.backlog} ${t.backlog === 1 ? 'event' : 'events'} waiting`}
            {t.lastShippedAt ? `, last shipped ${formatTime(t.lastShippedAt)}` : ''}
            {t.lastError ? <span role="alert"> — failing: {t.lastError}</span> : null}
          </p>
        ))
      )}
    </section>
  );
}

/** The audit history: filtered, paged, exported as CSV; and its chain verified. */
export function Audit() {
  const [filters, setFilters] = useState<AuditFilter>({});
  const [page, setPage] = useState(0);
  const [exportError, setExportError] = useState<unknown>(null);
  const types = useQuery({ queryKey: ['audit-event-types'], queryFn: () => api<AuditEventType[]>('/api/v1/audit/event-types'), staleTime: Infinity });
  const events = useQuery({
    queryKey: ['audit', filters, page],
    queryFn: () => api<Page<AuditEvent>>('/api/v1/audit/events', { query: { ...filters, page, size: 25 } }),
    placeholderData: keepPreviousData,
  });
  return (
    <div class="stack">
      <VerifyHistory />
      <ShippingState />
      <AuditFilters
        types={types.data}
        filters={filters}
        onFilter={(f) => {
          setPage(0);
          setFilters(f);
        }}
        onExportError={setExportError}
      />
      <ErrorNote error={events.error ?? types.error ?? exportError} />
      {events.isLoading ? <Loading /> : null}
      {events.data && events.data.content.length === 0 ? <Empty>No event matches these filters.</Empty> : null}
      {events.data && events.data.content.length > 0 ? (
        <DataTable
          caption="Audit events"
          rows={events.data.content}
          columns={[
            { header: 'When', cell: (e) => formatTime(e.occurredAt), class: 'nowrap' },
            { header: 'Event', cell: (e) => <span title={e.eventType}>{e.eventLabel}</span> },
            {
              header: 'Resource',
              cell: (e) => (
                <>
                  {e.resourceName ?? e.resourceId}
                  <div class="muted small">
                    {resourceWords(e.resourceType)} {e.resourceId}
                  </div>
                  {e.subjectName ? (
                    <div class="small">
                      About: {e.subjectName} <span class="muted">{e.subjectEmail ?? ''}</span>
                    </div>
                  ) : null}
                </>
              ),
            },
            {
              header: 'Who',
              cell: (e) => (
                <>
                  {e.actorName ?? '—'} <div class="muted small">{e.actorEmail ?? ''} {e.clientAddress ?? ''}</div>
                </>
              ),
            },
            {
              header: 'Changes',
              class: 'small',
              cell: (e) =>
                e.changes
                  ? Object.entries(e.changes)
                      .map(([k, v]) => `${k}: ${JSON.stringify(v.old)} → ${JSON.stringify(v.new)}`)
                      .join('; ')
                  : '',
            },
          ]}
        />
      ) : null}
      {events.data ? <Pager page={events.data.page} totalPages={events.data.totalPages} total={events.data.totalElements} onPage={setPage} /> : null}
    </div>
  );
}
