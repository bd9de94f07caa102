import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import type { Device, DeviceHealthSamples, Page, Schemas } from '@qa-platform/client';
import { api, ApiError } from '../api';
import { useSession } from '../session-context';
import { ConfirmButton, ErrorNote, formatTime, Loading, useAction, withFields } from '../ui';
import { MaintenanceControls } from './device-maintenance';
import { HealthChart, StorageChart } from './health-charts';
import { LatestReading } from './device-health-reading';

type Sample = DeviceHealthSamples['samples'][number];
type MendingStep = DeviceHealthSamples['mending'][number];

/** Each health state as a tester reads it. */
const STATE: Record<string, string> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  cooling: 'Cooling down',
  charging: 'Charging',
  quarantined: 'Quarantined',
  maintenance: 'In maintenance',
};

/** Whether the device's health keeps it out of use (the server refuses it with `DEVICE_UNHEALTHY` too). */
export function isHeld(health: Device['health']): boolean {
  return health !== null && ['cooling', 'charging', 'quarantined', 'maintenance'].includes(health.state);
}

/** How a mending step under way is said (`Mending — rebooting`). */
const MENDING_STEP: Record<string, string> = { reconnect: 'reconnecting', 'restart-helpers': 'restarting helpers', 'free-storage': 'freeing storage', reboot: 'rebooting' };

/**
 * The device's status as a badge; while a mending is under way `Mending — rebooting` (the step when the
 * host said it): no session, WebDriver request or test run gets the device until it ends.
 */
export function StatusBadge({ device }: { device: Pick<Device, 'status'> & { mending?: { step: string | null } | null } }) {
  if (device.status !== 'mending') return <span class={`badge ${device.status}`}>{device.status.replace(/_/g, ' ')}</span>;
  const step = device.mending?.step ? MENDING_STEP[device.mending.step] : undefined;
  return (
    <span class="badge mending" title="Being mended: available again once the mending ends">
      {step ? `Mending — ${step}` : 'Mending'}
    </span>
  );
}

/** A badge for a device whose health is not `healthy` (nothing for a healthy device or one not read yet). */
export function HealthBadge({ health }: { health: Device['health'] }) {
  if (!health || health.state === 'healthy') return null;
  return (
    <span class={`badge health-${health.state}`} title={health.reasons.join('; ')}>
      {STATE[health.state] ?? health.state}
    </span>
  );
}

/**
 * The grid's "Needs attention" filter: only the devices whose health is read and not healthy (held:
 * cooling, charging, quarantined, in maintenance; or degraded), with how many there are under the
 * grid's other filters.
 */
export function AttentionFilter({ checked, query, onChange }: { checked: boolean; query: Record<string, unknown>; onChange: (on: boolean) => void }) {
  const count = useQuery({
    queryKey: ['devices-attention', query],
    queryFn: () => api<Page<Device>>('/df/api/devices', { query: { ...query, needsAttention: 'true', size: 1 } }),
    refetchInterval: 10_000,
  });
  return (
    <label class="check">
      <input type="checkbox" name="needsAttention" checked={checked} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} /> Needs attention{' '}
      <span class="count">{count.data?.totalElements ?? '…'}</span>
    </label>
  );
}

/** A device's health: its state and reasons, its newest reading, and its battery and temperature and its free storage over the last hour. */
export function DeviceHealthCard({ device }: { device: Device }) {
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const series = useQuery({
    queryKey: ['device-health', device.id],
    queryFn: () => api<DeviceHealthSamples>(`/df/api/devices/${device.id}/health?from=${encodeURIComponent(from)}`),
    refetchInterval: 10_000,
  });
  const h = device.health;
  return (
    <div class="card">
      <h2>Health</h2>
      {h ? (
        <dl class="facts">
          <dt>State</dt>
          <dd>
            <span class={`badge health-${h.state}`}>{STATE[h.state] ?? h.state}</span>
          </dd>
          {h.reasons.length > 0 ? (
            <>
              <dt>Why</dt>
              <dd>
                <ul class="plain">
                  {h.reasons.map((r) => (
                    <li>{r}</li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
          {h.battery ? (
            <>
              <dt>Battery</dt>
              <dd>
                {h.battery.level} %{h.battery.charging ? ', charging' : ''}
                {h.battery.temperatureC !== undefined ? `, ${h.battery.temperatureC} °C` : ''}
              </dd>
            </>
          ) : null}
          {h.storageFreeMb !== undefined ? (
            <>
              <dt>Free storage</dt>
              <dd>{h.storageFreeMb} MB</dd>
            </>
          ) : null}
          <LatestReading sample={series.data?.samples.at(-1)} platform={device.platform} />
          <dt>Checked</dt>
          <dd>{formatTime(h.checkedAt)}</dd>
        </dl>
      ) : (
        <p class="muted">Not read yet.</p>
      )}
      <ErrorNote error={series.error} />
      {series.data && series.data.samples.length > 1 ? <HealthChart samples={series.data.samples} /> : null}
      {series.data ? <StorageChart samples={series.data.samples} /> : null}
      {series.data?.mending && series.data.mending.length > 0 ? <MendingHistory steps={series.data.mending} /> : null}
      <MaintenanceControls device={device} />
      <BaselineRetake deviceId={device.id} platform={device.platform} retakenAt={series.data?.baselineRetakenAt ?? null} onDone={() => series.refetch()} />
    </div>
  );
}

/**
 * The device's settings baseline (what every session's end puts back, Android devices): when it was last
 * re-taken, and for whoever may manage devices (`df:device:manage`) the button that makes the device's
 * settings now its baseline (`POST /df/api/devices/{id}/baseline`; refused while a session holds it).
 */
function BaselineRetake(props: { deviceId: string; platform: string; retakenAt: string | null; onDone: () => Promise<unknown> }) {
  const { can } = useSession();
  const action = useAction();
  const [taken, setTaken] = useState<string | null>(null);
  if (props.platform !== 'android') return null;
  return (
    <section class="stack" aria-label="Settings baseline">
      <h3>Settings baseline</h3>
      <p class="muted small">
        Every session's end puts animations, font scale, locale, time zone, brightness, radios and location back to it.{' '}
        {props.retakenAt ? `Last re-taken ${formatTime(props.retakenAt)}.` : 'It is the device as it joined.'}
      </p>
      {can('df:device:manage') ? (
        <div class="row">
          <ConfirmButton
            label="Re-take the baseline"
            question="Make the device's settings now its baseline?"
            yes="Re-take it"
            onYes={() =>
              action.run(async () => {
                const made = await api<{ settings: Record<string, string | null>; at: string }>(`/df/api/devices/${props.deviceId}/baseline`, { method: 'POST' });
                setTaken(`Baseline re-taken ${formatTime(made.at)}: ${Object.keys(made.settings).length} settings kept.`);
                await props.onDone();
              })
            }
          >
            Re-take the baseline
          </ConfirmButton>
        </div>
      ) : null}
      <ErrorNote error={action.error} />
      <p class={taken ? 'ok' : undefined} role="status">
        {taken ?? ''}
      </p>
    </section>
  );
}

/** Each mending step's name as a tester reads it. */
const STEP: Record<string, string> = { reconnect: 'Reconnect the link', 'restart-helpers': 'Restart the helpers', 'free-storage': 'Free storage', reboot: 'Reboot' };

/** The newest mending steps the device's host ran, newest first, each with its result. */
function MendingHistory({ steps }: { steps: MendingStep[] }) {
  return (
    <table class="table">
      <caption>Mending history</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Step</th>
          <th scope="col">Attempt</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((m) => (
          <tr>
            <td>{formatTime(m.at)}</td>
            <td>{STEP[m.step] ?? m.step}</td>
            <td>{m.attempt}</td>
            <td>{m.result === 'ok' ? 'worked' : m.result}{m.error ? `: ${m.error}` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Rules = Schemas['DfHealthRules'];

/** The rules' number fields: their names, words and bounds (the server's, shown as hints; the server decides). */
const RULE_FIELDS = [
  { name: 'batteryMinPercent', label: 'Lowest battery (%)', hint: 'Below it and not charging, a device is held until it charges. 0–100.', min: 0, max: 100, step: 1 },
  { name: 'temperatureMaxC', label: 'Highest battery temperature (°C)', hint: 'Above it, a device is held until it cools down. 20–80.', min: 20, max: 80, step: 0.5 },
  { name: 'storageMinMb', label: 'Least free storage (MB)', hint: 'Below it, a device is degraded and its storage is freed. 0–1,000,000.', min: 0, max: 1_000_000, step: 1 },
  { name: 'failedSessionsMax', label: 'Failed sessions in a row before quarantine', hint: 'After that many sessions in a row failed on a device (its outcome failed, not prepared, or ended by the device), it is quarantined. 0 turns it off. 0–100.', min: 0, max: 100, step: 1 },
] as const;

/**
 * The company's health rules (`GET`/`PUT /df/api/fleet/health-rules`), for whoever may change them
 * (`df:settings:manage`): a refusal's messages are shown beside their fields, and nothing changes.
 */
export function HealthRulesForm() {
  const qc = useQueryClient();
  const rules = useQuery({ queryKey: ['health-rules'], queryFn: () => api<Rules>('/df/api/fleet/health-rules') });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async (d: FormData) => {
    setBusy(true);
    setSaved(false);
    setError(null);
    setErrors({});
    const number = (k: string) => (String(d.get(k) ?? '').trim() === '' ? null : Number(d.get(k)));
    try {
      const body = { batteryMinPercent: number('batteryMinPercent'), temperatureMaxC: number('temperatureMaxC'), storageMinMb: number('storageMinMb'), failedSessionsMax: number('failedSessionsMax'), rebootAllowed: d.get('rebootAllowed') === 'on', fastPathDownDegrades: d.get('fastPathDownDegrades') === 'on' };
      qc.setQueryData(['health-rules'], await api<Rules>('/df/api/fleet/health-rules', { method: 'PUT', body }));
      setSaved(true);
    } catch (err) {
      const byField = Object.fromEntries((err instanceof ApiError ? err.details : []).filter((x) => x.path).map((x) => [String(x.path).split('.').pop()!, x.message]));
      setErrors(byField);
      // A refusal not tied to a field is shown under the form.
      if (Object.keys(byField).length === 0 || !(err instanceof ApiError && err.code === 'VALIDATION_FAILED')) setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="card health-rules">
      <summary>Health rules</summary>
      {rules.isLoading ? <Loading /> : null}
      <ErrorNote error={rules.error} />
      {rules.data ? (
        <form class="stack" aria-label="Health rules" noValidate onSubmit={withFields((d) => save(d))} onInput={() => setSaved(false)}>
          <p class="muted small">The company's thresholds for every device's health; a change applies from each device's next reading and is recorded in the audit history.</p>
          {RULE_FIELDS.map((f) => (
            <label class="field">
              <span>{f.label}</span>
              <input
                type="number"
                name={f.name}
                min={f.min}
                max={f.max}
                step={f.step}
                required
                defaultValue={String(rules.data[f.name])}
                aria-invalid={errors[f.name] ? true : undefined}
                aria-describedby={`rule-${f.name}-hint${errors[f.name] ? ` rule-${f.name}-error` : ''}`}
              />
              <small class="muted" id={`rule-${f.name}-hint`}>
                {f.hint}
              </small>
              {errors[f.name] ? (
                <small class="error" id={`rule-${f.name}-error`}>
                  {errors[f.name]}
                </small>
              ) : null}
            </label>
          ))}
          <label class="check">
            <input type="checkbox" name="rebootAllowed" defaultChecked={rules.data.rebootAllowed} /> Mending may reboot a device (ends whatever it was doing) before it is quarantined
          </label>
          {errors.rebootAllowed ? <small class="error">{errors.rebootAllowed}</small> : null}
          <label class="check">
            <input type="checkbox" name="fastPathDownDegrades" defaultChecked={rules.data.fastPathDownDegrades} /> A fast path down (minicap, the touch path) makes a device degraded and has its helpers restarted
          </label>
          {errors.fastPathDownDegrades ? <small class="error">{errors.fastPathDownDegrades}</small> : null}
          <div class="row">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save the health rules'}
            </button>
          </div>
          {Object.keys(errors).length > 0 ? (
            <p class="error" role="alert">
              Not saved: {Object.keys(errors).length === 1 ? 'a value is' : 'some values are'} refused (beside {Object.keys(errors).length === 1 ? 'its field' : 'their fields'}); the rules are unchanged.
            </p>
          ) : null}
          <ErrorNote error={error} />
          <p class={saved ? 'ok' : undefined} role="status">
            {saved ? 'Saved. The health rules apply from each device’s next reading.' : ''}
          </p>
        </form>
      ) : null}
    </details>
  );
}
