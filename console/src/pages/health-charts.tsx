import type { DeviceHealthSamples } from '@qa-platform/client';
import { formatTime } from '../ui';

type Sample = DeviceHealthSamples['samples'][number];

/** One line of a chart: its class (its colour), its words in the key, and its value in a reading (none: no point). */
type Line = { name: string; key: string; value: (s: Sample) => number | undefined };

/**
 * The readings' lines as a plain SVG on a 0–`max` scale, time along the x axis from the first reading
 * to the last, with its two tick labels (`0` and `top`); `label` is its text alternative (`role="img"`)
 * and is repeated in the caption after the key.
 */
function LineChart({ samples, lines, max, top, label }: { samples: Sample[]; lines: Line[]; max: number; top: string; label: string }) {
  const width = 480;
  const height = 140;
  const pad = { left: 44, bottom: 18, top: 8, right: 8 };
  const t0 = Date.parse(samples[0]!.checkedAt);
  const span = Math.max(1, Date.parse(samples[samples.length - 1]!.checkedAt) - t0);
  const x = (s: Sample) => pad.left + ((Date.parse(s.checkedAt) - t0) / span) * (width - pad.left - pad.right);
  const y = (v: number) => pad.top + (height - pad.top - pad.bottom) * (1 - Math.max(0, Math.min(max, v)) / max);
  const points = (value: Line['value']) =>
    samples
      .filter((s) => value(s) !== undefined)
      .map((s) => `${x(s).toFixed(1)},${y(value(s)!).toFixed(1)}`)
      .join(' ');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} class="axis" />
        <text x={pad.left - 4} y={y(max) + 4} text-anchor="end" class="tick">
          {top}
        </text>
        <text x={pad.left - 4} y={y(0)} text-anchor="end" class="tick">
          0
        </text>
        {lines.map((l) => (
          <polyline points={points(l.value)} class={`line ${l.name}`} />
        ))}
      </svg>
      <figcaption class="muted small">
        {lines.map((l) => (
          <>
            <span class={`key ${l.name}`}>{l.key}</span>{' '}
          </>
        ))}
        · {label}
      </figcaption>
    </figure>
  );
}

/** Battery level (%) and temperature (°C) of the readings as two lines on one 0–100 scale (the battery alone where no reading has a temperature). */
export function HealthChart({ samples }: { samples: Sample[] }) {
  const last = samples[samples.length - 1]!;
  // A device that gives no temperature (an iPhone over lockdown) has a battery line only.
  const hot = samples.some((s) => s.battery?.temperatureC !== undefined);
  const since = `${samples.length} readings since ${formatTime(samples[0]!.checkedAt)}`;
  const label = hot
    ? `Battery and temperature over ${since}; last: battery ${last.battery?.level ?? 'unknown'} %, ${last.battery?.temperatureC ?? 'unknown'} °C`
    : `Battery over ${since}; last: ${last.battery?.level ?? 'unknown'} %`;
  const lines: Line[] = [{ name: 'battery', key: 'Battery %', value: (s) => s.battery?.level }];
  if (hot) lines.push({ name: 'temperature', key: 'Temperature °C', value: (s) => s.battery?.temperatureC });
  return <LineChart samples={samples} lines={lines} max={100} top="100" label={label} />;
}

/** The smallest of 1, 2, 2.5, 5 and 10 times a power of ten that is at least `v` (a chart's top). */
export function roundUp(v: number): number {
  if (!(v > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((top) => top >= v) ?? 10 * power;
}

/** A number of the chart's unit with at most one decimal (`16`, `1.5`). */
const figure = (v: number) => String(Math.round(v * 10) / 10);

/**
 * Free storage of the readings that have it, on a scale from 0 to the largest value seen rounded up
 * (`roundUp`), in GB from 2 GB up and in MB below; nothing where fewer than two readings have it.
 */
export function StorageChart({ samples }: { samples: Sample[] }) {
  const read = samples.filter((s) => s.storageFreeMb !== undefined);
  if (read.length < 2) return null;
  const largest = Math.max(...read.map((s) => s.storageFreeMb!));
  const gb = largest >= 2048;
  const scale = (mb: number) => (gb ? mb / 1024 : mb);
  const unit = gb ? 'GB' : 'MB';
  const top = roundUp(scale(largest));
  const lastMb = read[read.length - 1]!.storageFreeMb!;
  const label = `Free storage over ${read.length} readings since ${formatTime(read[0]!.checkedAt)}; last: ${gb ? `${figure(scale(lastMb))} GB (${lastMb} MB)` : `${lastMb} MB`} free`;
  const line: Line = { name: 'storage', key: `Free storage ${unit}`, value: (s) => (s.storageFreeMb === undefined ? undefined : scale(s.storageFreeMb)) };
  return <LineChart samples={read} lines={[line]} max={top} top={`${figure(top)} ${unit}`} label={label} />;
}
