import type { ComponentChildren } from 'preact';
import type { DeviceHealthSamples } from '@qa-platform/client';

type Sample = DeviceHealthSamples['samples'][number];

/** A span of seconds as a person reads it: `3 d 4 h`, `5 h 12 min`, `7 min`, `40 s`. */
export function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${Math.floor(seconds)} s`;
}

/** One term of the card's facts, left out when the reading does not have it. */
function Fact({ term, shown, children }: { term: string; shown: boolean; children: ComponentChildren }) {
  if (!shown) return null;
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** A fast path's state as the card says it: `Up`, `Down: why`, `Not available on this device: why`. */
export function fastPathText(path: { state: 'up' | 'down' | 'unavailable'; reason?: string | undefined }): string {
  const why = path.reason ? `: ${path.reason}` : '';
  if (path.state === 'up') return 'Up';
  return path.state === 'down' ? `Down${why}` : `Not available on this device${why}`;
}

/**
 * What the newest reading says besides the state's signals — shown, not judged: the OS version and
 * WebDriverAgent (iOS), memory, Wi-Fi, the lock screen, uptime, `/sdcard` where it is not `/data`, how long
 * the reading's command took and how many times the device's link came back, and the fast paths' state
 * (the screen's minicap and the touch path, `down` judged by the rules); each only where it was read.
 */
export function LatestReading({ sample, platform }: { sample: Sample | undefined; platform: string }) {
  if (!sample) return null;
  const { wda, memory, wifi, fastPaths } = sample;
  return (
    <>
      <Fact term={platform === 'ios' ? 'iOS version' : 'OS version'} shown={Boolean(sample.osVersion)}>
        {sample.osVersion}
      </Fact>
      <Fact term="WebDriverAgent" shown={wda !== undefined}>
        {wda?.answering ? 'Answering' : `Not answering${wda?.reason ? `: ${wda.reason}` : ''}`}
      </Fact>
      <Fact term="Screen fast path" shown={fastPaths?.screen !== undefined}>
        {fastPaths?.screen ? fastPathText(fastPaths.screen) : null}
      </Fact>
      <Fact term="Touch fast path" shown={fastPaths?.touch !== undefined}>
        {fastPaths?.touch ? fastPathText(fastPaths.touch) : null}
      </Fact>
      <Fact term="Memory" shown={memory !== undefined}>
        {memory?.availableMb !== undefined ? `${memory.availableMb} MB available of ${memory.totalMb} MB` : `${memory?.totalMb} MB`}
      </Fact>
      <Fact term="Wi-Fi" shown={wifi !== undefined}>
        {!wifi?.on ? 'Off' : wifi.connected ? 'On, connected' : 'On, not connected'}
      </Fact>
      <Fact term="Screen lock" shown={sample.screenLocked !== undefined}>
        {sample.screenLocked ? 'Locked' : 'Unlocked'}
      </Fact>
      <Fact term="Up for" shown={sample.uptimeS !== undefined}>
        {formatUptime(sample.uptimeS ?? 0)}
      </Fact>
      <Fact term="Free on /sdcard" shown={sample.sdcardFreeMb !== undefined}>
        {sample.sdcardFreeMb} MB
      </Fact>
      <Fact term="Reading took" shown={sample.lastCommandMs !== undefined}>
        {sample.lastCommandMs} ms
      </Fact>
      <Fact term="Link reconnects" shown={sample.linkReconnects !== undefined}>
        {sample.linkReconnects} since the agent started
      </Fact>
    </>
  );
}
