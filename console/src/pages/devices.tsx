import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Device, DeviceFilterOptions as Facets, Page } from '@qa-platform/client';
import { OPEN_MARKS } from './open-marks';
import { AttentionFilter, DeviceHealthCard, HealthBadge, HealthRulesForm, isHeld, StatusBadge } from './device-health';
import { api } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session-context';
import { Empty, ErrorNote, formatTime, Loading, Pager } from '../ui';

const FACETS = [
  { key: 'status', label: 'Status' },
  { key: 'platform', label: 'Platform' },
  { key: 'type', label: 'Type' },
  { key: 'osVersion', label: 'OS version' },
  { key: 'model', label: 'Model' },
  { key: 'nodeName', label: 'Host' },
] as const;

const SORTS = [
  ['name', 'Name'],
  ['status', 'Status'],
  ['platform', 'Platform'],
  ['osVersion', 'OS version'],
  ['model', 'Model'],
  ['lastSeenAt', 'Last seen'],
  ['favorite', 'Favourites'],
] as const;

const label = (v: string) => v.replace(/_/g, ' ');

/** The grid's state lives in the address, so a filtered grid can be bookmarked and shared. */
function useGridState() {
  const { query } = useLocation();
  const filters: Record<string, string[]> = {};
  for (const f of FACETS) filters[f.key] = query.getAll(f.key);
  const state = {
    search: query.get('search') ?? '',
    favorite: query.get('favorite') === 'true',
    needsAttention: query.get('needsAttention') === 'true',
    sortBy: query.get('sortBy') ?? 'name',
    sortDir: (query.get('sortDir') ?? 'asc') as 'asc' | 'desc',
    page: Number(query.get('page') ?? 0),
    filters,
  };
  const set = (patch: Partial<typeof state>) => {
    const next = { ...state, page: 0, ...patch };
    const q = new URLSearchParams();
    if (next.search) q.set('search', next.search);
    if (next.favorite) q.set('favorite', 'true');
    if (next.needsAttention) q.set('needsAttention', 'true');
    if (next.sortBy !== 'name') q.set('sortBy', next.sortBy);
    if (next.sortDir !== 'asc') q.set('sortDir', next.sortDir);
    if (next.page) q.set('page', String(next.page));
    for (const [k, vs] of Object.entries(next.filters)) for (const v of vs) q.append(k, v);
    const s = q.toString();
    navigate(`/devices${s ? `?${s}` : ''}`, { replace: true });
  };
  return [state, set] as const;
}

/** How long the search waits after the last keystroke before it applies. */
const SEARCH_DEBOUNCE_MS = 300;
/** The permission key listing devices needs (the API's `GET /df/api/devices`). */
const DEVICE_READ = 'df:device:read';

export function DevicesPage() {
  const [state, set] = useGridState();
  const { can, permissionsKnown } = useSession();
  // Asked only of a person who may list devices: without the key the page says so and calls nothing.
  const allowed = can(DEVICE_READ);
  const [search, setSearch] = useState(state.search);
  // The search this field last put in the address; another change of the address (a link, back) replaces the field's text.
  const applied = useRef(state.search);
  const applySearch = (value: string) => {
    applied.current = value;
    set({ search: value });
  };
  useEffect(() => {
    if (state.search === applied.current) return;
    applied.current = state.search;
    setSearch(state.search);
  }, [state.search]);
  // The search applies as one types, once the typing pauses (a pause counted again after any other change of the grid's state, which the search keeps).
  useEffect(() => {
    if (search === applied.current) return;
    const timer = setTimeout(() => applySearch(search), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, JSON.stringify(state)]);
  const otherFilters = { ...state.filters, search: state.search, favorite: state.favorite ? 'true' : undefined };
  const filterQuery = { ...otherFilters, needsAttention: state.needsAttention ? 'true' : undefined };
  const devices = useQuery({
    queryKey: ['devices', filterQuery, state.sortBy, state.sortDir, state.page],
    queryFn: () => api<Page<Device>>('/df/api/devices', { query: { ...filterQuery, sortBy: state.sortBy, sortDir: state.sortDir, page: state.page, size: 24 } }),
    placeholderData: keepPreviousData,
    // Status changes show without a reload.
    refetchInterval: 5_000,
    enabled: allowed,
  });
  const facets = useQuery({
    queryKey: ['device-facets', filterQuery],
    queryFn: () => api<Facets>('/df/api/devices/filter-options', { query: filterQuery }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
    enabled: allowed,
  });

  if (!allowed)
    return (
      <section class="devices">
        <h1>Devices</h1>
        {permissionsKnown ? (
          <p>
            Seeing devices needs the permission key {DEVICE_READ} in this workspace. Ask an administrator of your company to give you a role that has it.
          </p>
        ) : (
          <Loading />
        )}
      </section>
    );

  return (
    <section class="devices">
      <h1>Devices</h1>
      <div class="grid-layout">
        <aside class="filters" aria-label="Filters">
          <form
            role="search"
            onSubmit={(e) => {
              // Enter applies at once, without waiting for the pause.
              e.preventDefault();
              if (search !== applied.current) applySearch(search);
            }}
          >
            <label class="field">
              <span>Search</span>
              <input type="search" name="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} placeholder="Name, model, alias" />
            </label>
          </form>
          <label class="check">
            <input type="checkbox" checked={state.favorite} onChange={(e) => set({ favorite: (e.target as HTMLInputElement).checked })} /> Favourites only
          </label>
          <AttentionFilter checked={state.needsAttention} query={otherFilters} onChange={(needsAttention) => set({ needsAttention })} />
          {FACETS.map((f) => {
            const options = facets.data?.[f.key] ?? [];
            const chosen = state.filters[f.key] ?? [];
            return (
              <fieldset class="facet">
                <legend>{f.label}</legend>
                {options.length === 0 && chosen.length === 0 ? <span class="muted">{facets.isLoading ? '…' : 'none'}</span> : null}
                {[...options, ...chosen.filter((c) => !options.some((o) => o.value === c)).map((value) => ({ value, count: 0 }))].map((o) => (
                  <label class="check">
                    <input
                      type="checkbox"
                      name={f.key}
                      value={o.value}
                      checked={chosen.includes(o.value)}
                      onChange={(e) => {
                        const on = (e.target as HTMLInputElement).checked;
                        set({ filters: { ...state.filters, [f.key]: on ? [...chosen, o.value] : chosen.filter((c) => c !== o.value) } });
                      }}
                    />{' '}
                    {label(o.value)} <span class="count">{o.count}</span>
                  </label>
                ))}
              </fieldset>
            );
          })}
        </aside>
        <div>
          <div class="toolbar">
            <label class="inline">
              Sort by{' '}
              <select value={state.sortBy} onChange={(e) => set({ sortBy: (e.target as HTMLSelectElement).value })}>
                {SORTS.map(([v, l]) => (
                  <option value={v}>{l}</option>
                ))}
              </select>
            </label>
            <button type="button" onClick={() => set({ sortDir: state.sortDir === 'asc' ? 'desc' : 'asc' })} aria-label={`Sort direction: ${state.sortDir === 'asc' ? 'ascending' : 'descending'}`}>
              {state.sortDir === 'asc' ? '↑ Ascending' : '↓ Descending'}
            </button>
            <span class="muted" role="status" aria-live="polite">
              {devices.data ? `${devices.data.totalElements} devices` : ''}
            </span>
          </div>
          <ErrorNote error={devices.error} />
          {devices.isLoading ? <SkeletonGrid /> : null}
          {devices.data && devices.data.content.length === 0 ? <Empty>No device matches these filters.</Empty> : null}
          {devices.data && devices.data.content.length > 0 ? (
            <ul class="device-grid" aria-label="Devices">
              {devices.data.content.map((d) => (
                <DeviceCard key={d.id} device={d} />
              ))}
            </ul>
          ) : null}
          {devices.data ? <Pager page={devices.data.page} totalPages={devices.data.totalPages} total={devices.data.totalElements} onPage={(page) => set({ page })} /> : null}
          {can('df:settings:manage') ? <HealthRulesForm /> : null}
        </div>
      </div>
    </section>
  );
}

function SkeletonGrid() {
  return (
    <ul class="device-grid" aria-hidden="true">
      {Array.from({ length: 8 }, () => (
        <li class="device-card skeleton" />
      ))}
    </ul>
  );
}

function useFavorite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: Device) => api(`/df/api/devices/${d.id}/favorite`, { method: d.favorite ? 'DELETE' : 'PUT' }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['devices'] }).then(() => qc.invalidateQueries({ queryKey: ['device'] })),
  });
}

function DeviceCard({ device: d }: { device: Device }) {
  const favorite = useFavorite();
  return (
    <li class="device-card" data-status={d.status}>
      <div class="card-head">
        <Link href={`/devices/${d.id}`} class="device-name">
          {d.alias ?? d.name}
        </Link>
        <button type="button" class="star" aria-pressed={d.favorite} aria-label={`Favourite ${d.alias ?? d.name}`} onClick={() => favorite.mutate(d)}>
          {d.favorite ? '★' : '☆'}
        </button>
      </div>
      {d.alias ? <div class="muted small">{d.name}</div> : null}
      <div class="small">
        {d.manufacturer} {d.model} · {d.platform} {d.osVersion}
      </div>
      <div class="small muted">
        {label(d.type)} · {d.nodeName}
      </div>
      <span class="badges">
        <StatusBadge device={d} />
        <HealthBadge health={d.health} />
      </span>
    </li>
  );
}

/** How the host shows the screen and takes input (`capabilities`); each path named as a tester knows it. */
const SCREEN_PATH: Record<string, string> = {
  minicap: 'minicap stream',
  screencap: 'screenshots (screencap)',
  'wda-mjpeg': "WebDriverAgent's MJPEG stream",
  screenshotr: 'screenshots (screenshotr)',
  instruments: 'screenshots (instruments)',
  cdp: 'Chrome DevTools screencast',
};
const INPUT_PATH: Record<string, string> = {
  minitouch: 'minitouch (multi-touch)',
  agent: 'UiAutomator2 server (multi-touch)',
  input: 'input commands (one finger)',
  wda: 'WebDriverAgent (multi-touch)',
  cdp: 'Chrome DevTools',
  none: 'none: view only',
};

function DeviceCapabilities({ capabilities: c }: { capabilities: Device['capabilities'] }) {
  if (!c) return null;
  return (
    <>
      {c.screen ? (
        <>
          <dt>Live screen</dt>
          <dd>{SCREEN_PATH[c.screen] ?? c.screen}</dd>
        </>
      ) : null}
      {c.input ? (
        <>
          <dt>Touch</dt>
          <dd>{INPUT_PATH[c.input] ?? c.input}</dd>
        </>
      ) : null}
      {c.reason ? (
        <>
          <dt>Why</dt>
          <dd class="muted">{c.reason}</dd>
        </>
      ) : null}
    </>
  );
}

export function DeviceDetailPage({ id }: { id: string }) {
  const qc = useQueryClient();
  const { can } = useSession();
  const device = useQuery({ queryKey: ['device', id], queryFn: () => api<Device>(`/df/api/devices/${id}`), refetchInterval: 5_000 });
  const favorite = useFavorite();
  const [error, setError] = useState<unknown>(null);
  const [alias, setAlias] = useState<string | null>(null);
  // The session page's code is loaded while the tester looks at the device, not after "Start a session".
  useEffect(() => {
    if (can('df:session:create')) void import('./session').catch(() => undefined);
  }, []);
  if (device.isLoading) return <Loading />;
  if (device.error) return <ErrorNote error={device.error} />;
  const d = device.data!;
  const start = async () => {
    setError(null);
    // Marks of a session's start as the tester waits for it (read by `npm run bench -- --only=console`).
    performance.mark(OPEN_MARKS.open);
    try {
      const s = await api<{ id: string }>('/df/api/sessions', { method: 'POST', body: { deviceId: d.id, type: 'manual' } });
      performance.mark(OPEN_MARKS.created);
      navigate(`/sessions/${s.id}`);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section>
      <p>
        <Link href="/devices">← Devices</Link>
      </p>
      <div class="title-row">
        <h1>{d.alias ?? d.name}</h1>
        <StatusBadge device={d} />
        <HealthBadge health={d.health} />
        <button type="button" class="star" aria-pressed={d.favorite} aria-label="Favourite" onClick={() => favorite.mutate(d)}>
          {d.favorite ? '★' : '☆'}
        </button>
      </div>
      <div class="columns">
        <div class="card">
          <dl class="facts">
            <dt>Name</dt>
            <dd>{d.name}</dd>
            <dt>Platform</dt>
            <dd>
              {d.platform} {d.osVersion}
            </dd>
            <dt>Model</dt>
            <dd>
              {d.manufacturer} {d.model}
            </dd>
            <dt>Type</dt>
            <dd>
              {label(d.type)} {d.isRealDevice ? '(real device)' : '(emulated)'}
            </dd>
            <dt>Screen</dt>
            <dd>
              {d.screen.width} × {d.screen.height}
            </dd>
            <DeviceCapabilities capabilities={d.capabilities} />
            <dt>Host</dt>
            <dd>{d.nodeName}</dd>
            <dt>Last seen</dt>
            <dd>{formatTime(d.lastSeenAt)}</dd>
          </dl>
          {can('df:session:create') ? (
            <button type="button" class="primary" disabled={d.status !== 'available' || isHeld(d.health)} onClick={start}>
              Start a session
            </button>
          ) : null}
          <ErrorNote error={error} />
        </div>
        <div class="card">
          <h2>Alias</h2>
          <form
            class="row"
            onSubmit={async (e) => {
              e.preventDefault();
              setError(null);
              try {
                const value = (alias ?? d.alias ?? '').trim();
                await api(`/df/api/devices/${d.id}/alias`, value ? { method: 'PUT', body: { alias: value } } : { method: 'DELETE' });
                setAlias(null);
                await qc.invalidateQueries({ queryKey: ['device', id] });
              } catch (err) {
                setError(err);
              }
            }}
          >
            <label class="field grow">
              <span>Your name for this device</span>
              <input value={alias ?? d.alias ?? ''} maxLength={100} onInput={(e) => setAlias((e.target as HTMLInputElement).value)} />
            </label>
            <button type="submit">Save alias</button>
          </form>
          <p>
            <Link href={`/reservations?deviceId=${d.id}`}>Bookings of this device</Link>
          </p>
        </div>
        <DeviceHealthCard device={d} />
      </div>
    </section>
  );
}
