import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Device, Reservation } from '@qa-platform/client';
import { api } from '../api';
import { navigate, useLocation } from '../router';
import { useSession } from '../session-context';
import { DataTable, DurationSelect, Empty, ErrorNote, formatTime, FormCard, Loading, useActionThen } from '../ui';
import { bookDevice, bookedText, localInput, zoneName } from './booking-text';
import { WeekCalendar } from './week-calendar';

export function ReservationsPage() {
  const { query } = useLocation();
  const deviceId = query.get('deviceId') ?? '';
  const { can } = useSession();
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
  const refresh = () => qc.invalidateQueries({ queryKey: ['reservations'] });
  const action = useActionThen(refresh);

  return (
    <section class="stack">
      <h1>Reservations</h1>
      <ErrorNote error={action.error} />
      <div class="split">
        {can('df:session:create') ? <BookForm deviceId={deviceId} devices={devices.data?.content} nameOf={nameOf} onBooked={refresh} /> : null}
        <div class="card">
          <h2>My bookings</h2>
          <BookingList query={mine} label="My bookings" empty="You have no booking." nameOf={nameOf} run={action.run} />
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
          <BookingList query={forDevice} label="Bookings of the device" empty="Nobody has booked this device." nameOf={nameOf} run={action.run} />
        </div>
      ) : null}

    </section>
  );
}

/** The card that books a device from a given time, for a chosen length, with a note. */
function BookForm(props: { deviceId: string; devices: Device[] | undefined; nameOf: (id: string) => string; onBooked: () => Promise<unknown> }) {
  const { deviceId } = props;
  /** The confirmation of the last booking made here. */
  const [booked, setBooked] = useState<string | null>(null);
  // The next full hour, in the person's zone.
  const now = new Date(Math.ceil((Date.now() + 60_000) / 3_600_000) * 3_600_000);
  return (
    <FormCard
      title="Book a device" submit="Book"
      after={booked ? <p class="ok" role="status">{booked}</p> : null}
      onSubmit={async (d) => {
        setBooked(null);
        const start = new Date(String(d.get('startAt')));
        const end = new Date(start.getTime() + Number(d.get('minutes')) * 60_000);
        const chosen = String(d.get('deviceId'));
        const made = await bookDevice({ deviceId: chosen, startAt: start, endAt: end, note: String(d.get('note') ?? '').trim() || null });
        setBooked(bookedText(props.nameOf(chosen), made));
        await props.onBooked();
      }}
    >
      <label class="field">
        <span>Device</span>
        <select name="deviceId" required defaultValue={deviceId}>
          {props.devices?.map((d) => (
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
    </FormCard>
  );
}

/** A list of bookings in its states (loading, error, none) and, when there are some, their table. */
function BookingList(props: {
  query: { isLoading: boolean; error: unknown; data: { content: Reservation[] } | undefined };
  label: string;
  empty: string;
  nameOf: (id: string) => string;
  run: (fn: () => Promise<unknown>) => Promise<unknown>;
}) {
  const { query } = props;
  return (
    <>
      {query.isLoading ? <Loading /> : null}
      <ErrorNote error={query.error} />
      {query.data && query.data.content.length === 0 ? <Empty>{props.empty}</Empty> : null}
      {query.data && query.data.content.length > 0 ? <BookingTable rows={query.data.content} label={props.label} nameOf={props.nameOf} run={props.run} /> : null}
    </>
  );
}

/**
 * A booking's note, and the warning of a maintenance of its device that falls in it: the booking stands
 * (the maintenance may end early), but while the maintenance lasts no session opens on the device.
 */
function BookingNote({ booking }: { booking: Reservation }) {
  const m = booking.maintenanceConflict;
  return (
    <>
      {booking.note ?? ''}
      {m ? (
        <p class="warn">
          <span class="badge maintenance">In maintenance</span> The device is in maintenance until {formatTime(m.until)} ({m.reason}). The booking stands, but no session opens on the device
          until the maintenance ends.
        </p>
      ) : null}
    </>
  );
}

function BookingTable({ rows, label, nameOf, run }: { rows: Reservation[]; label: string; nameOf: (id: string) => string; run: (fn: () => Promise<unknown>) => Promise<unknown> }) {
  const { me } = useSession();
  return (
    <DataTable
      caption={label}
      rows={rows}
      rowKey={(r) => r.id}
      columns={[
        { header: 'Device', cell: (r) => nameOf(r.deviceId) },
        { header: 'From', class: 'nowrap', cell: (r) => formatTime(r.startAt) },
        { header: 'Until', class: 'nowrap', cell: (r) => formatTime(r.endAt) },
        { header: 'Status', cell: (r) => <span class={`badge ${r.status}`}>{r.status}</span> },
        { header: 'Note', cell: (r) => <BookingNote booking={r} /> },
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
}
