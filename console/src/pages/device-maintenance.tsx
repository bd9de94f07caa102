import { useQueryClient } from '@tanstack/preact-query';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Answer, Device, RequestBody } from '@qa-platform/client';
import { api, ApiError } from '../api';
import { useSession } from '../session-context';
import { ConfirmButton, ErrorNote, formatTime, useAction, withFields } from '../ui';
import { localInput } from './booking-text';

type Current = Answer<'/df/api/devices/{deviceId}/maintenance', 'post'>;
type MaintenanceBody = RequestBody<'/df/api/devices/{deviceId}/maintenance', 'post'>;

/** A state's name inside a sentence ("the device is healthy"). */
const IN_WORDS: Record<string, string> = {
  healthy: 'healthy',
  degraded: 'degraded',
  cooling: 'cooling down',
  charging: 'held until it charges',
  quarantined: 'quarantined',
  maintenance: 'in maintenance',
};
const stateWords = (c: Current) => (c.health ? (IN_WORDS[c.health.state] ?? c.health.state) : 'not read yet');

/**
 * An administrator's hand on a device's health (`df:device:manage`; hidden for everyone else): "Start
 * maintenance" (a reason and its end; the server's refusals shown beside their fields) while it is not in
 * maintenance nor quarantined, "End maintenance" while one is under way, and "Release from quarantine"
 * while it is quarantined. Each says what happened and has the device's health read again.
 */
export function MaintenanceControls({ device }: { device: Device }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (!can('df:device:manage')) return null;
  const state = device.health?.state;
  const path = `/df/api/devices/${device.id}`;
  /** Runs one call, says what it did and reads the device (its page and its health card) again. */
  const act = (call: () => Promise<string>) =>
    action.run(async () => {
      setDone(null);
      setErrors({});
      try {
        const said = await call();
        await Promise.all([qc.invalidateQueries({ queryKey: ['device', device.id] }), qc.invalidateQueries({ queryKey: ['device-health', device.id] })]);
        setDone(said);
      } catch (err) {
        const byField = Object.fromEntries((err instanceof ApiError ? err.details : []).filter((x) => x.path).map((x) => [String(x.path).split('.').pop()!, x.message]));
        setErrors(byField);
        // A refusal tied to a field is said beside it; anything else under the controls.
        if (Object.keys(byField).length === 0) throw err;
      }
    });
  const start = (d: FormData) => {
    const local = String(d.get('until') ?? '');
    // An empty or unreadable end goes to the server as it is, which refuses it beside the field.
    const until = local && !Number.isNaN(Date.parse(local)) ? new Date(local).toISOString() : local;
    const body: MaintenanceBody = { reason: String(d.get('reason') ?? ''), until };
    return act(async () => {
      const now = await api<Current>(`${path}/maintenance`, { method: 'POST', body });
      return `Maintenance started: the device is held until ${formatTime(now.health?.until ?? until)}.`;
    });
  };
  return (
    <section class="stack" aria-label="Maintenance">
      <h3>Maintenance</h3>
      {state === 'maintenance' ? (
        <div class="row">
          <span>In maintenance until {device.health?.until ? formatTime(device.health.until) : 'an administrator ends it'}.</span>
          <button type="button" disabled={action.busy} onClick={() => act(async () => `Maintenance ended: the device is ${stateWords(await api<Current>(`${path}/maintenance`, { method: 'DELETE' }))}.`)}>
            End maintenance
          </button>
        </div>
      ) : state === 'quarantined' ? (
        <div class="row">
          <ConfirmButton
            label="Release from quarantine"
            question="Put the device back into use? It is healthy until its next reading says otherwise."
            yes="Release it"
            onYes={() => act(async () => `Released from quarantine: the device is ${stateWords(await api<Current>(`${path}/release-quarantine`, { method: 'POST' }))}.`)}
          >
            Release from quarantine
          </ConfirmButton>
        </div>
      ) : (
        <StartForm errors={errors} busy={action.busy} onStart={start} />
      )}
      <ErrorNote error={action.error} />
      <p class={done ? 'ok' : undefined} role="status">
        {done ?? ''}
      </p>
    </section>
  );
}

/** The fields of a maintenance: why, and when it ends by itself (the person's zone). */
function StartForm({ errors, busy, onStart }: { errors: Record<string, string>; busy: boolean; onStart: (d: FormData) => unknown }) {
  const field = (name: 'reason' | 'until', label: string, input: JSX.Element, hint: string) => (
    <label class="field">
      <span>{label}</span>
      {input}
      <small class="muted" id={`maintenance-${name}-hint`}>
        {hint}
      </small>
      {errors[name] ? (
        <small class="error" id={`maintenance-${name}-error`}>
          {label}: {errors[name]}
        </small>
      ) : null}
    </label>
  );
  const described = (name: string) => ({ 'aria-invalid': errors[name] ? true : undefined, 'aria-describedby': `maintenance-${name}-hint${errors[name] ? ` maintenance-${name}-error` : ''}` });
  return (
    <form class="stack" aria-label="Start maintenance" noValidate onSubmit={withFields((d) => onStart(d))}>
      {field('reason', 'Reason', <input name="reason" maxLength={500} required {...described('reason')} />, 'Said to whoever tries to use it, and to the bookings it falls in.')}
      {field('until', 'Until', <input type="datetime-local" name="until" required defaultValue={localInput(new Date(Date.now() + 3_600_000))} {...described('until')} />, 'It ends by itself then (your time); end it sooner here.')}
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          Start maintenance
        </button>
      </div>
      {Object.keys(errors).length > 0 ? (
        <p class="error" role="alert">
          Not started: refused beside {Object.keys(errors).length === 1 ? 'its field' : 'their fields'}; the device is unchanged.
        </p>
      ) : null}
    </form>
  );
}
