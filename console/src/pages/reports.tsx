import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { download } from '../api';
import { api } from '../api';
import { useSession } from '../session-context';
import { Empty, ErrorNote, formatTime, Loading } from '../ui';
import { formatBytes } from './files';

type Counts = { value: string; count: number }[];
interface Stats {
  devices: { total: number; byStatus: Counts; byPlatform: Counts; byHost: Counts };
  sessionsRunning: number;
  bookingsToday: number;
  failuresLastDay: number;
  at: string;
}
type QuotaKey = 'concurrentSessions' | 'sessionMinutesPerMonth' | 'reservationHoursPerMonth' | 'storageBytes' | 'apiKeys';
interface Quotas {
  plan: string | null;
  limits: Record<QuotaKey, number | null>;
  usage: Record<QuotaKey, number>;
}
interface SessionRow {
  period: string;
  group: string | null;
  sessions: number;
  completed: number;
  failed: number;
  running: number;
  totalMinutes: number;
  averageMinutes: number;
}

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
  const [error, setError] = useState<unknown>(null);
  const stats = useQuery({ queryKey: ['reports', 'stats'], queryFn: () => api<Stats>('/df/api/dashboard/stats', { query: { timeZone: zone } }), enabled: allowed });
  const quotas = useQuery({ queryKey: ['reports', 'quotas'], queryFn: () => api<Quotas>('/df/api/quotas'), enabled: allowed });
  // The end day is included: the range runs to the next local midnight.
  const params = {
    from: new Date(`${range.from}T00:00:00`).toISOString(),
    to: new Date(new Date(`${range.to}T00:00:00`).getTime() + 86_400_000).toISOString(),
    groupBy: range.groupBy,
    timeZone: zone,
  };
  const sessions = useQuery({
    queryKey: ['reports', 'sessions', params],
    queryFn: () => api<{ rows: SessionRow[] }>('/df/api/reports/sessions', { query: params }),
    enabled: allowed,
  });
  if (!allowed)
    return (
      <section>
        <h1>Reports</h1>
        <p>Reports need the permission key df:report:read in this workspace.</p>
      </section>
    );

  return (
    <section class="stack">
      <h1>Reports</h1>
      <ErrorNote error={error} />
      <div class="split">
        <div class="card stack">
          <h2>Now</h2>
          {stats.isLoading ? (
            <Loading />
          ) : stats.error ? (
            <ErrorNote error={stats.error} />
          ) : stats.data ? (
            <dl>
              <dt>Devices</dt>
              <dd>{stats.data.devices.total}</dd>
              <dt>By status</dt>
              <dd>{counts(stats.data.devices.byStatus)}</dd>
              <dt>By platform</dt>
              <dd>{counts(stats.data.devices.byPlatform)}</dd>
              <dt>Sessions running</dt>
              <dd>{stats.data.sessionsRunning}</dd>
              <dt>Bookings today</dt>
              <dd>{stats.data.bookingsToday}</dd>
              <dt>Failures in the last day</dt>
              <dd>{stats.data.failuresLastDay}</dd>
              <dt>As of</dt>
              <dd>{formatTime(stats.data.at)}</dd>
            </dl>
          ) : null}
        </div>
        <div class="card stack" role="region" aria-label="Quotas">
          <h2>Quotas{quotas.data?.plan ? ` (plan ${quotas.data.plan})` : ''}</h2>
          {quotas.isLoading ? (
            <Loading />
          ) : quotas.error ? (
            <ErrorNote error={quotas.error} />
          ) : quotas.data ? (
            <ul class="stack">
              {(Object.keys(QUOTA_LABELS) as QuotaKey[]).map((k) => {
                const limit = quotas.data!.limits[k];
                const used = quotas.data!.usage[k] ?? 0;
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
          ) : null}
        </div>
      </div>
      <div class="card stack">
        <h2>Sessions</h2>
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
          <button
            type="button"
            onClick={async () => {
              setError(null);
              try {
                await download('/df/api/reports/sessions', `sessions-${range.from}-${range.to}.csv`, { ...params, format: 'csv' });
              } catch (err) {
                setError(err);
              }
            }}
          >
            Download CSV
          </button>
        </form>
        {sessions.isLoading ? (
          <Loading />
        ) : sessions.error ? (
          <ErrorNote error={sessions.error} />
        ) : !sessions.data?.rows.length ? (
          <Empty>No session in this range.</Empty>
        ) : (
          <table>
            <caption class="sr-only">Sessions report</caption>
            <thead>
              <tr>
                <th>Period</th>
                <th>Sessions</th>
                <th>Completed</th>
                <th>Failed</th>
                <th>Running</th>
                <th>Total minutes</th>
                <th>Average minutes</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.rows.map((r) => (
                <tr>
                  <td class="nowrap">{r.period.slice(0, 10)}</td>
                  <td>{r.sessions}</td>
                  <td>{r.completed}</td>
                  <td>{r.failed}</td>
                  <td>{r.running}</td>
                  <td>{Math.round(r.totalMinutes)}</td>
                  <td>{Math.round(r.averageMinutes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
