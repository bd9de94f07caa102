import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Reservation as Booking } from '@qa-platform/client';
import { api } from '../api';
import { useSession } from '../session-context';
import { DurationSelect, ErrorNote, Loading, useAction, withFields } from '../ui';
import { bookDevice, bookedText, zoneName } from './booking-text';

/**
 * A device's week of bookings: days as columns, each booking a block at its times in the person's
 * own zone, every free future hour a button that opens a small booking form. The hour buttons form one
 * tab stop: the arrow keys move between them (a roving tabindex), so the week is not 168 tab stops.
 */

const HOUR_PX = 28;
const dayName = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const longDay = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const hourOnly = new Intl.DateTimeFormat(undefined, { hour: 'numeric' });

/** Monday 00:00 of the week holding `d`, in the person's zone. */
function mondayOf(d: Date): Date {
  const m = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  m.setDate(m.getDate() - ((m.getDay() + 6) % 7));
  return m;
}
const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
const at = (day: Date, hour: number) => new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour);

export function WeekCalendar({ deviceId, deviceName }: { deviceId: string; deviceName: string }) {
  const { can } = useSession();
  const [monday, setMonday] = useState(() => mondayOf(new Date()));
  const [picked, setPicked] = useState<Date | null>(null);
  /** The confirmation of the last hour booked here. */
  const [booked, setBooked] = useState<string | null>(null);
  const action = useAction();
  const days = [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(monday, i));
  const end = addDays(monday, 7);
  const bookings = useQuery({
    queryKey: ['reservations', 'week', deviceId, monday.toISOString()],
    queryFn: () =>
      api<{ content: Booking[] }>('/df/api/reservations', {
        query: { deviceId, status: ['scheduled', 'active', 'ended'], from: monday.toISOString(), to: end.toISOString(), size: 200 },
      }),
    refetchInterval: 30_000,
  });
  const list = (bookings.data?.content ?? []).filter((b) => new Date(b.endAt) > monday && new Date(b.startAt) < end);
  const mayBook = can('df:session:create');

  return (
    <div class="stack" role="region" aria-label={`Week of ${deviceName}`}>
      <div class="row calendar-head">
        <button type="button" onClick={() => setMonday(addDays(monday, -7))}>
          Previous week
        </button>
        <button type="button" onClick={() => setMonday(mondayOf(new Date()))}>
          This week
        </button>
        <button type="button" onClick={() => setMonday(addDays(monday, 7))}>
          Next week
        </button>
        <strong aria-live="polite">
          {dayName.format(days[0])} – {dayName.format(days[6])}
        </strong>
        <span class="muted small">Times in {zoneName()}. {mayBook ? 'Choose a free hour to book it; arrow keys move between hours.' : ''}</span>
      </div>
      {bookings.isLoading ? <Loading /> : null}
      <ErrorNote error={bookings.error ?? action.error} />
      {booked ? (
        <p class="ok" role="status">
          {booked}
        </p>
      ) : null}
      {picked ? (
        <BookHourForm
          deviceId={deviceId}
          deviceName={deviceName}
          picked={picked}
          action={action}
          onBooked={(text) => {
            setBooked(text);
            setPicked(null);
          }}
          onStart={() => setBooked(null)}
          onCancel={() => setPicked(null)}
        />
      ) : null}
      <WeekGrid deviceId={deviceId} days={days} list={list} mayBook={mayBook} onPick={setPicked} />
      {!bookings.isLoading && list.length === 0 ? <p class="muted small">No booking this week.</p> : null}
    </div>
  );
}

/** The small form that books the hour picked in the grid, for a chosen length, with a note. */
function BookHourForm(props: {
  deviceId: string;
  deviceName: string;
  picked: Date;
  action: ReturnType<typeof useAction>;
  onStart: () => void;
  onBooked: (text: string) => void;
  onCancel: () => void;
}) {
  const { picked, action } = props;
  const qc = useQueryClient();
  return (
    <form
      class="card row"
      aria-label="Book this hour"
      onSubmit={withFields((d) => {
        const endAt = new Date(picked.getTime() + Number(d.get('minutes')) * 60_000);
        props.onStart();
        void action.run(async () => {
          const made = await bookDevice({ deviceId: props.deviceId, startAt: picked, endAt, note: String(d.get('note') ?? '').trim() || null });
          props.onBooked(bookedText(props.deviceName, made));
          await qc.invalidateQueries({ queryKey: ['reservations'] });
        });
      })}
    >
      <p>
        Book {props.deviceName} on <strong>{longDay.format(picked)}</strong> at <strong>{clock.format(picked)}</strong>
      </p>
      <DurationSelect label="For" choices={[30, 60, 120, 240]} selected={60} autoFocus />
      <label class="field">
        <span>Note</span>
        <input name="note" maxLength={2000} />
      </label>
      <button type="submit" class="primary" disabled={action.busy}>
        Book it
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}

/**
 * The week's grid: a column a day, the bookings as blocks, and (for whoever may book) a button on
 * every free future hour, the hours one tab stop that the arrow keys move through.
 */
function WeekGrid(props: { deviceId: string; days: Date[]; list: Booking[]; mayBook: boolean; onPick: (start: Date) => void }) {
  const { days, list } = props;
  const { me } = useSession();
  const [focus, setFocus] = useState<{ d: number; h: number } | null>(null);
  const grid = useRef<HTMLDivElement | null>(null);
  const now = Date.now();
  const free = (start: Date) => start.getTime() > now && !list.some((b) => new Date(b.startAt).getTime() < start.getTime() + 3_600_000 && new Date(b.endAt).getTime() > start.getTime());

  // The one tab stop: the focused hour, else the first free hour of the week.
  let stop = focus;
  if (!stop || !free(at(days[stop.d]!, stop.h))) {
    stop = null;
    for (let d = 0; d < 7 && !stop; d++) for (let h = 0; h < 24 && !stop; h++) if (free(at(days[d]!, h))) stop = { d, h };
  }
  useEffect(() => {
    // Start the view at 8:00, where the working day begins.
    if (grid.current) grid.current.scrollTop = 8 * HOUR_PX;
  }, [props.deviceId]);

  const move = (e: KeyboardEvent) => {
    if (!stop) return;
    const delta: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const step = delta[e.key];
    if (!step) return;
    e.preventDefault();
    // The next free hour in that direction (skipping booked and past ones).
    let { d, h } = stop;
    for (let i = 0; i < 24 * 7; i++) {
      d += step[0];
      h += step[1];
      if (d < 0 || d > 6 || h < 0 || h > 23) return;
      if (free(at(days[d]!, h))) break;
    }
    // The button is already there (every free hour has one); focusing it makes it the tab stop (onFocus).
    setFocus({ d, h });
    (grid.current?.querySelector(`[data-slot="${d}-${h}"]`) as HTMLButtonElement | null)?.focus();
  };

  return (
    <div class="calendar" ref={grid} onKeyDown={move}>
      <div class="cal-days" role="presentation">
        <div class="cal-corner" />
        {days.map((d) => (
          <div class={`cal-dayname${d.toDateString() === new Date().toDateString() ? ' today' : ''}`}>{dayName.format(d)}</div>
        ))}
      </div>
      <div class="cal-body">
        <div class="cal-hours" aria-hidden="true">
          {Array.from({ length: 24 }, (_, h) => (
            <div style={{ height: `${HOUR_PX}px` }}>{hourOnly.format(at(days[0]!, h))}</div>
          ))}
        </div>
        {days.map((day, di) => (
          <div class="cal-day" style={{ height: `${24 * HOUR_PX}px` }} role="group" aria-label={longDay.format(day)}>
            {props.mayBook
              ? Array.from({ length: 24 }, (_, h) => {
                  const start = at(day, h);
                  if (!free(start)) return null;
                  return (
                    <button
                      type="button"
                      class="cal-slot"
                      data-slot={`${di}-${h}`}
                      style={{ top: `${h * HOUR_PX}px`, height: `${HOUR_PX}px` }}
                      tabIndex={stop && stop.d === di && stop.h === h ? 0 : -1}
                      aria-label={`Book ${longDay.format(start)} at ${clock.format(start)}`}
                      onFocus={() => setFocus({ d: di, h })}
                      onClick={() => props.onPick(start)}
                    />
                  );
                })
              : null}
            {segments(list, day).map(({ b, top, height }) => {
              const who = b.userId === me?.id ? 'You' : 'Booked';
              const label = `${who}: ${clock.format(new Date(b.startAt))} – ${clock.format(new Date(b.endAt))}${b.note ? `, ${b.note}` : ''} (${b.status})`;
              return (
                <div class={`cal-booking ${b.userId === me?.id ? 'mine' : ''} ${b.status}`} style={{ top: `${top}px`, height: `${height}px` }} role="note" aria-label={label} title={label}>
                  <strong>{who}</strong> {clock.format(new Date(b.startAt))}–{clock.format(new Date(b.endAt))} {b.note ?? ''}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The parts of the bookings that fall on `day`, with their place and height in its column. */
function segments(list: Booking[], day: Date) {
  const from = day.getTime();
  const to = addDays(day, 1).getTime();
  return list
    .map((b) => ({ b, s: Math.max(new Date(b.startAt).getTime(), from), e: Math.min(new Date(b.endAt).getTime(), to) }))
    .filter((x) => x.e > x.s)
    // Minutes since local midnight; a day with a clock change is off by that hour, which is acceptable here.
    .map((x) => ({ ...x, top: ((x.s - from) / 3_600_000) * HOUR_PX, height: Math.max(((x.e - x.s) / 3_600_000) * HOUR_PX, 14) }));
}
