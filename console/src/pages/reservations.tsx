import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { navigate, useLocation } from '../router';
import { useSession } from '../session-context';
import { ActionForm, DataTable, DurationSelect, Empty, ErrorNote, formatTime, Loading } from '../ui';
import type { Device } from './devices';
import { bookDevice, bookedText, localInput, zoneName } from './booking-text';
import { WeekCalendar } from './week-calendar';

interface Reservation {
  id: string;
  deviceId: string;
  userId: number;
  startAt: string;
  endAt: string;
  status: 'scheduled' | 'active' | 'ended' | 'cancelled' | 'expired';
  note: string | null;
}

export function ReservationsPage() {
  const { query } = useLocation();
  const deviceId = query.get('deviceId') ?? '';
  const { me, can } = useSession();
  const qc = useQueryClient();
  const devices = useQuery({ queryKey: ['devices', 'all'], queryFn: () => api<{ content: Device[] }>('/df/api/devices', { query: { size: 200 } }) });
  const nameOf = (id: string) => {
    const d = devices.data?.content.find((x) => x.id === id);
    return d ? (d.alias ?? d.name) : id;
  };
  const mine = useQuery({
    queryKey: ['reservations', 'mine'],
    queryFn: () => api<{ content: Reservation[] }>('/df/api/reservations', { query: { mine: true, status: ['scheduled', 'active'], size: 100 } }),
    refetchInterval: 15_000,
  });
  const forDevice = useQuery({
    queryKey: ['reservations', 'device', deviceId],
    queryFn: () => api<{ content: Reservation[] }>('/df/api/reservations', { query: { deviceId, status: ['scheduled', 'active'], size: 100 } }),
    enabled: !!deviceId,
  });
  const [error, setError] = useState<unknown>(null);
  /** The confirmation of the last booking made here. */
  const [booked, setBooked] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['reservations'] });
  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      await refresh();
    } catch (err) {
      setError(err);
    }
  };
  // The next full hour, in the person's zone.
  const now = new Date(Math.ceil((Date.now() + 60_000) / 3_600_000) * 3_600_000);

  const table = (rows: Reservation[], label: string) => (
    <DataTable
      caption={label}
      rows={rows}
      rowKey={(r) => r.id}
      columns={[
        { header: 'Device', cell: (r) => nameOf(r.deviceId) },
        { header: 'From', class: 'nowrap', cell: (r) => formatTime(r.startAt) },
        { header: 'Until', class: 'nowrap', cell: (r) => formatTime(r.endAt) },
        { header: 'Status', cell: (r) => <span class={`badge ${r.status}`}>{r.status}</span> },
        { header: 'Note', cell: (r) => r.note ?? '' },
        {
          header: 'Actions',
          hiddenHeader: true,
          class: 'row',
          cell: (r) => (
            <>
              {r.userId === me?.id && r.status === 'active' ? (
                <>
                  <button
                    type="button"
                    onClick={() =>
                      run(async () => {
                        const s = await api<{ id: string }>(`/df/api/reservations/${r.id}/rejoin`, { method: 'POST' });
                        navigate(`/sessions/${s.id}`);
                      })
                    }
                  >
                    Rejoin
                  </button>
                  <button type="button" onClick={() => run(() => api(`/df/api/reservations/${r.id}/end`, { method: 'POST' }))}>
                    End
                  </button>
                </>
              ) : null}
              {r.userId === me?.id && r.status === 'scheduled' ? (
                <button type="button" class="danger" onClick={() => run(() => api(`/df/api/reservations/${r.id}`, { method: 'DELETE' }))}>
                  Cancel
                </button>
              ) : null}
            </>
          ),
        },
      ]}
    />
  );

  return (
    <section class="stack">
      <h1>Reservations</h1>
      <ErrorNote error={error} />
      <div class="split">
        {can('df:session:create') ? (
          <div class="card">
            <h2>Book a device</h2>
            <ActionForm
              submit="Book"
              label="Book a device"
              onSubmit={async (d) => {
                setBooked(null);
                const start = new Date(String(d.get('startAt')));
                const end = new Date(start.getTime() + Number(d.get('minutes')) * 60_000);
                const chosen = String(d.get('deviceId'));
                const made = await bookDevice({ deviceId: chosen, startAt: start, endAt: end, note: String(d.get('note') ?? '').trim() || null });
                setBooked(bookedText(nameOf(chosen), made));
                await refresh();
              }}
            >
              <label class="field">
                <span>Device</span>
                <select name="deviceId" required defaultValue={deviceId}>
                  {devices.data?.content.map((d) => (
                    <option value={d.id} selected={d.id === deviceId}>
                      {d.alias ?? d.name}
                    </option>
                  ))}
                </select>
              </label>
              <label class="field">
                <span>Starts (your time)</span>
                {/* The past is not offered (the API refuses it too). */}
                <input type="datetime-local" name="startAt" required defaultValue={localInput(now)} min={localInput(new Date())} />
                <small class="muted">In {zoneName()}, from now on.</small>
              </label>
              <DurationSelect label="For" choices={[15, 30, 60, 120, 240, 480]} selected={60} />
              <label class="field">
                <span>Note</span>
                <input name="note" maxLength={2000} />
              </label>
            </ActionForm>
            {booked ? (
              <p class="ok" role="status">
                {booked}
              </p>
            ) : null}
          </div>
        ) : null}
        <div class="card">
          <h2>My bookings</h2>
          {mine.isLoading ? <Loading /> : null}
          <ErrorNote error={mine.error} />
          {mine.data && mine.data.content.length === 0 ? <Empty>You have no booking.</Empty> : null}
          {mine.data && mine.data.content.length > 0 ? table(mine.data.content, 'My bookings') : null}
        </div>
      </div>
      {deviceId ? (
        <div class="card">
          <h2>Week of {nameOf(deviceId)}</h2>
          <WeekCalendar deviceId={deviceId} deviceName={nameOf(deviceId)} />
        </div>
      ) : null}
      {deviceId ? (
        <div class="card">
          <h2>Bookings of {nameOf(deviceId)}</h2>
          {forDevice.isLoading ? <Loading /> : null}
          <ErrorNote error={forDevice.error} />
          {forDevice.data && forDevice.data.content.length === 0 ? <Empty>Nobody has booked this device.</Empty> : null}
          {forDevice.data && forDevice.data.content.length > 0 ? table(forDevice.data.content, 'Bookings of the device') : null}
        </div>
      ) : null}

    </section>
  );
}
