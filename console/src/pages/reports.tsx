import { useQuery } from '@tanstack/preact-query';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { DashboardStats as Stats, DeviceUsageRow, Quotas, ReservationReportRow, SessionReportRow } from '@qa-platform/client';
import { api, download } from '../api';
import { useSession } from '../session-context';
import { type Column, DataTable, ErrorNote, formatTime, NotAllowed, QueryList } from '../ui';
import { formatBytes } from './files';

type Counts = Stats['devices']['byStatus'];
type QuotaKey = keyof Quotas['limits'];

const QUOTA_LABELS: Record<QuotaKey, string> = {
  concurrentSessions: 'Concurrent sessions',
  sessionMinutesPerMonth: 'Session minutes this month',
  reservationHoursPerMonth: 'Reserved hours this month',
  storageBytes: 'Storage',
  apiKeys: 'Device API keys',
};

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const day = (d: Date) => d.toISOString().slice(0, 10);

function counts(c: Counts) {
  return c.length ? c.map((x) => `${x.value} ${x.count}`).join(' · ') : '—';
}

/** Dashboard figures, the company's quotas and the sessions report. Needs `df:report:read`. */
export function ReportsPage() {
  const { can } = useSession();
  const allowed = can('df:report:read');
  const now = new Date();
  const [range, setRange] = useState({ from: day(new Date(now.getTime() - 29 * 86_400_000)), to: day(now), groupBy: 'day' });
  const stats = useQuery({ queryKey: ['reports', 'stats'], queryFn: () => api<Stats>('/df/api/dashboard/stats', { query: { timeZone: zone } }), enabled: allowed });
  const quotas = useQuery({ queryKey: ['reports', 'quotas'], queryFn: () => api<Quotas>('/df/api/quotas'), enabled: allowed });
  if (!allowed) return <NotAllowed title="Reports">Reports need the permission key df:report:read in this workspace.</NotAllowed>;

  return (
    <section class="stack">
      <h1>Reports</h1>
      <div class="split">
        <div class="card stack">
          <h2>Now</h2>
          <QueryList query={stats}>
            {(s) => (
              <dl class="facts">
                <dt>Devices</dt>
                <dd>{s.devices.total}</dd>
                <dt>By status</dt>
                <dd>{counts(s.devices.byStatus)}</dd>
                <dt>By platform</dt>
                <dd>{counts(s.devices.byPlatform)}</dd>
                <dt>Sessions running</dt>
                <dd>{s.sessionsRunning}</dd>
                <dt>Bookings today</dt>
                <dd>{s.bookingsToday}</dd>
                <dt>Failures in the last day</dt>
                <dd>{s.failuresLastDay}</dd>
                <dt>As of</dt>
                <dd>{formatTime(s.at)}</dd>
              </dl>
            )}
          </QueryList>
        </div>
        <div class="card stack" role="region" aria-label="Quotas">
          <h2>Quotas{quotas.data?.plan ? ` (plan ${quotas.data.plan})` : ''}</h2>
          <QueryList query={quotas}>
            {(q) => (
              <ul class="stack">
                {(Object.keys(QUOTA_LABELS) as QuotaKey[]).map((k) => {
                  const limit = q.limits[k];
                  const used = q.usage[k] ?? 0;
                  const show = (n: number) => (k === 'storageBytes' ? formatBytes(n) : String(n));
                  return (
                    <li>
                      <span id={`quota-${k}`}>{QUOTA_LABELS[k]}</span>: {show(used)} of {limit === null ? 'no limit' : show(limit)}
                      {limit !== null ? (
                        <div>
                          <progress aria-labelledby={`quota-${k}`} max={limit || 1} value={Math.min(used, limit || 1)} />
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </QueryList>
        </div>
      </div>
      <div class="card stack">
        <h2>Reports for a range</h2>
        <form class="row" aria-label="Report range" onSubmit={(e) => e.preventDefault()}>
          <label class="field">
            <span>From</span>
            <input type="date" value={range.from} onChange={(e) => setRange({ ...range, from: (e.target as HTMLInputElement).value })} />
          </label>
          <label class="field">
            <span>To</span>
            <input type="date" value={range.to} onChange={(e) => setRange({ ...range, to: (e.target as HTMLInputElement).value })} />
          </label>
          <label class="field">
            <span>Group by</span>
            <select value={range.groupBy} onChange={(e) => setRange({ ...range, groupBy: (e.target as HTMLSelectElement).value })}>
              <option value="day">day</option>
              <option value="week">week</option>
            </select>
          </label>
          <span class="muted small">Periods start at midnight in {zone}.</span>
        </form>
      </div>
      <Report<SessionReportRow>
        name="sessions" title="Sessions" range={range} empty="No session in this range." chart={(rows) => <BarChart rows={rows} range={range} />}
        columns={[
          ['Sessions', (r) => r.sessions],
          ['Completed', (r) => r.completed],
          ['Failed', (r) => r.failed],
          ['Running', (r) => r.running],
          ['Total minutes', (r) => Math.round(r.totalMinutes)],
          ['Average minutes', (r) => Math.round(r.averageMinutes)],
        ]}
      />
      <Report<DeviceUsageRow>
        name="device-usage" title="Device usage" range={range} empty="No device was in session in this range."
        columns={[
          ['Device', (r) => r.deviceName],
          ['Sessions', (r) => r.sessions],
          ['Minutes in session', (r) => Math.round(r.minutesInSession)],
          ['Minutes online', (r) => Math.round(r.minutesOnline)],
          ['Utilisation', (r) => (r.utilisation === null ? '—' : `${Math.round(r.utilisation * 100)} %`)],
        ]}
      />
      <Report<ReservationReportRow>
        name="reservations" title="Reservations" range={range} empty="No booking starts in this range."
        columns={[
          ['Bookings', (r) => r.bookings],
          ['Booked hours', (r) => Math.round(r.bookedHours * 10) / 10],
          ['Used', (r) => r.used],
          ['No-shows', (r) => r.noShows],
          ['Cancelled', (r) => r.cancelled],
        ]}
      />
    </section>
  );
}

type Range = { from: string; to: string; groupBy: string };

/** A range's query parameters; the end day is included: the range runs to the next local midnight. */
const rangeParams = (range: Range) => ({
  from: new Date(`${range.from}T00:00:00`).toISOString(),
  to: new Date(new Date(`${range.to}T00:00:00`).getTime() + 86_400_000).toISOString(),
  groupBy: range.groupBy,
  timeZone: zone,
});

/**
 * One report of `/df/api/reports/{name}` for the range: its table (the period, then `columns`), an
 * optional chart above it, and the same rows as a CSV download (`format=csv`).
 */
function Report<Row extends { period: string }>(props: {
  name: string;
  title: string;
  range: Range;
  empty: string;
  /** The columns after the period. */
  columns: [string, (r: Row) => string | number][];
  chart?: (rows: Row[]) => ComponentChildren;
}) {
  const params = rangeParams(props.range);
  const columns: Column<Row>[] = [{ header: 'Period', cell: (r) => r.period.slice(0, 10), class: 'nowrap' }, ...props.columns.map(([header, cell]) => ({ header, cell }))];
  const [error, setError] = useState<unknown>(null);
  const q = useQuery({
    queryKey: ['reports', props.name, params],
    queryFn: () => api<{ rows: Row[] }>(`/df/api/reports/${props.name}`, { query: params }),
  });
  return (
    <div class="card stack" role="region" aria-label={`${props.title} report`}>
      <div class="card-head">
        <h2>{props.title}</h2>
        <button
          type="button"
          onClick={async () => {
            setError(null);
            try {
              await download(`/df/api/reports/${props.name}`, `${props.name}-${props.range.from}-${props.range.to}.csv`, { ...params, format: 'csv' });
            } catch (err) {
              setError(err);
            }
          }}
        >
          Download CSV<span class="sr-only"> of the {props.title.toLowerCase()} report</span>
        </button>
      </div>
      <ErrorNote error={error} />
      <QueryList query={q} isEmpty={(d) => !d.rows.length} empty={props.empty}>
        {(d) => (
          <>
            {props.chart ? props.chart(d.rows) : null}
            <DataTable caption={`${props.title} report`} rows={d.rows} columns={columns} />
          </>
        )}
      </QueryList>
    </div>
  );
}

/** The periods of the range (local dates), so days without a session show as empty bars. */
function periodsOf(range: Range, rows: SessionReportRow[]): string[] {
  if (range.groupBy !== 'day') return [...new Set(rows.map((r) => r.period.slice(0, 10)))];
  const out: string[] = [];
  const end = new Date(`${range.to}T12:00:00`);
  for (let d = new Date(`${range.from}T12:00:00`); d <= end && out.length < 400; d.setDate(d.getDate() + 1)) {
    out.push(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`);
  }
  return out;
}

/** Sessions per period as plain SVG bars (no chart library: a few rectangles do). */
function BarChart({ rows, range }: { rows: SessionReportRow[]; range: Range }) {
  const perPeriod = new Map<string, number>();
  for (const r of rows) perPeriod.set(r.period.slice(0, 10), (perPeriod.get(r.period.slice(0, 10)) ?? 0) + r.sessions);
  const periods = periodsOf(range, rows);
  const values = periods.map((p) => perPeriod.get(p) ?? 0);
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const width = 720;
  const height = 160;
  const pad = { left: 28, bottom: 22, top: 8 };
  const slot = (width - pad.left) / Math.max(periods.length, 1);
  const bar = Math.max(2, slot * 0.7);
  const y = (v: number) => pad.top + (height - pad.top - pad.bottom) * (1 - v / max);
  const unit = range.groupBy === 'day' ? 'day' : 'week';
  const busiest = periods[values.indexOf(Math.max(...values))];
  const label = `Sessions per ${unit}: ${total} in all over ${periods.length} ${unit}s${total ? `, most on ${busiest} (${max})` : ''}`;
  const every = Math.ceil(periods.length / 8);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1={pad.left} x2={width} y1={y(0)} y2={y(0)} class="axis" />
        <text x={pad.left - 4} y={y(max) + 4} text-anchor="end" class="tick">
          {max}
        </text>
        <text x={pad.left - 4} y={y(0)} text-anchor="end" class="tick">
          0
        </text>
        {periods.map((p, i) => (
          <g>
            <rect x={pad.left + i * slot + (slot - bar) / 2} y={y(values[i]!)} width={bar} height={y(0) - y(values[i]!)} class="bar">
              <title>{`${p}: ${values[i]} sessions`}</title>
            </rect>
            {i % every === 0 ? (
              <text x={pad.left + i * slot + slot / 2} y={height - 6} text-anchor="middle" class="tick">
                {p.slice(5)}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      <figcaption class="muted small">{label}</figcaption>
    </figure>
  );
}
