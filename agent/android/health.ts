import type { HealthSample } from '#shared/wire/index.js';
import { parseMemory, parseScreenLocked, parseUptime, parseWifi } from './health-signals.js';

/** Separates the answers of the one shell command a reading takes. */
const MARK = '__df_health__';

/**
 * The one shell command of a health reading: cheap reads in one adb shell — `dumpsys battery`, `df` of
 * `/data`, the airplane-mode setting, `dumpsys thermalservice` where the device has it, `/proc/meminfo`,
 * `/proc/uptime`, the Wi-Fi setting and the Wi-Fi interface's IPv4 address (`ip`, else the older
 * `ifconfig`), `dumpsys window policy` (the lock screen) and `df` of `/sdcard`. Each answers in its own
 * part, so one a device lacks leaves only its signal out; the reads added after the first four send
 * their errors to /dev/null (adb's shell mixes them into the answer).
 */
export const HEALTH_COMMAND = [
  'dumpsys battery',
  'df /data',
  'settings get global airplane_mode_on',
  'dumpsys thermalservice',
  'cat /proc/meminfo 2>/dev/null',
  'cat /proc/uptime 2>/dev/null',
  'settings get global wifi_on',
  'ip -4 addr show wlan0 2>/dev/null || ifconfig wlan0 2>/dev/null',
  'dumpsys window policy 2>/dev/null',
  'df /sdcard 2>/dev/null',
].join(`; echo ${MARK}; `);

const BATTERY_HEALTH: Record<string, NonNullable<NonNullable<HealthSample['battery']>['health']>> = {
  '1': 'unknown',
  '2': 'good',
  '3': 'overheat',
  '4': 'dead',
  '5': 'over_voltage',
  '6': 'failure',
  '7': 'cold',
};

/** `key: value` lines of a `dumpsys` section, keys lower-cased. */
function fields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z][A-Za-z ]*?):\s*(.*?)\s*$/.exec(line);
    if (m) out.set(m[1]!.toLowerCase(), m[2]!);
  }
  return out;
}

/**
 * `dumpsys battery`: level (scaled to percent), temperature (tenths of °C), health, and whether it
 * charges (AC, USB or wireless powered, or status charging/full). Undefined when the answer has no level.
 */
export function parseBattery(text: string): HealthSample['battery'] {
  const f = fields(text);
  const level = Number(f.get('level'));
  if (!f.has('level') || !Number.isFinite(level)) return undefined;
  const scale = Number(f.get('scale') ?? 100) || 100;
  const powered = ['ac powered', 'usb powered', 'wireless powered', 'dock powered'].some((k) => f.get(k) === 'true');
  const status = f.get('status');
  const tenths = Number(f.get('temperature'));
  const health = BATTERY_HEALTH[f.get('health') ?? ''];
  return {
    level: Math.max(0, Math.min(100, Math.round((level * 100) / scale))),
    charging: powered || status === '2' || status === '5',
    ...(f.has('temperature') && Number.isFinite(tenths) ? { temperatureC: tenths / 10 } : {}),
    ...(health ? { health } : {}),
  };
}

const UNIT: Record<string, number> = { K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 };

/**
 * Free megabytes of `/data` from `df /data`: toybox's `1K-blocks … Available` columns, or the older
 * `Size Used Free Blksize` form with unit suffixes (`4.7G`). Undefined when neither is there.
 */
export function parseDfFreeMb(text: string): number | undefined {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const header = lines.findIndex((l) => /^Filesystem\s/.test(l));
  if (header < 0) return undefined;
  const columns = lines[header]!.split(/\s+/);
  const row = lines.slice(header + 1).find((l) => /\s\/data$/.test(l) || l.startsWith('/data ')) ?? lines[header + 1];
  if (!row) return undefined;
  const cells = row.split(/\s+/);
  const available = columns.findIndex((c) => c === 'Available' || c === 'Free');
  if (available < 0) return undefined;
  const cell = cells[available];
  if (!cell) return undefined;
  if (columns[1] === '1K-blocks') {
    const kb = Number(cell);
    return Number.isFinite(kb) ? Math.floor(kb / 1024) : undefined;
  }
  const m = /^([\d.]+)([KMGT])?$/.exec(cell);
  if (!m) return undefined;
  return Math.floor(Number(m[1]) * (UNIT[m[2] ?? 'K'] ?? 1));
}

/** `Thermal Status: N` of `dumpsys thermalservice` (0 none … 6 shutdown); undefined on devices without it. */
export function parseThermalStatus(text: string): number | undefined {
  const m = /Thermal Status:\s*(\d)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** A reading from the answer of `HEALTH_COMMAND`, stamped `at`. */
export function parseHealth(output: string, at: Date): HealthSample {
  const [battery = '', df = '', airplane = '', thermal = '', meminfo = '', uptime = '', wifiOn = '', wlan = '', policy = '', sdcard = ''] = output.split(MARK);
  const sample: HealthSample = { checkedAt: at.toISOString() };
  const b = parseBattery(battery);
  if (b) sample.battery = b;
  const free = parseDfFreeMb(df);
  if (free !== undefined) sample.storageFreeMb = free;
  const flag = airplane.trim();
  if (flag === '0' || flag === '1') sample.airplaneMode = flag === '1';
  const status = parseThermalStatus(thermal);
  if (status !== undefined) sample.thermalStatus = status;
  const sdcardFree = parseDfFreeMb(sdcard);
  const shown = {
    memory: parseMemory(meminfo),
    wifi: parseWifi(wifiOn, wlan),
    screenLocked: parseScreenLocked(policy),
    uptimeS: parseUptime(uptime),
    sdcardFreeMb: sdcardFree !== free ? sdcardFree : undefined,
  };
  for (const [key, value] of Object.entries(shown)) if (value !== undefined) Object.assign(sample, { [key]: value });
  return sample;
}

/**
 * One reading through `sh` (the device's adb shell): the answer parsed, with what the agent measures
 * itself — how long the shell command took (`lastCommandMs`) and how many times the device's link went
 * away and came back since the agent started (`linkReconnects`, counted by the provider).
 */
export async function readAndroidHealth(sh: (command: string) => Promise<string>, linkReconnects: number): Promise<HealthSample> {
  const started = performance.now();
  const output = await sh(HEALTH_COMMAND);
  // Bounded as the wire's schema bounds them: a value past it would lose the whole reading.
  const lastCommandMs = Math.min(3_600_000, Math.max(0, Math.round(performance.now() - started)));
  return { ...parseHealth(output, new Date()), lastCommandMs, linkReconnects: Math.min(1_000_000, linkReconnects) };
}
