/*
 * `--only=android`: the Android live screen and touch through the started server with the adbd test
 * device — minicap against screencap (frames/s to one and to ten viewers, capture → viewer latency)
 * and minitouch's socket against `input` (input → device latency), side by side on the same machine.
 */
import { WebSocket } from 'ws';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { patternStamp } from '#test/adbd/daemons.js';
import { startAdbServer, startPeer } from '#test/helpers/adb.js';
import { table } from './console.js';
import { api, startServer, until, type Started } from './device-farm.js';
import { distribution, type Distribution } from './stats.js';

export interface AndroidOptions {
  width: number;
  height: number;
  viewers: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
  taps: number;
}

export interface AndroidScreenRow {
  path: 'minicap' | 'screencap';
  viewers: number;
  /** Frames a second each viewer got (the mean over the viewers). */
  framesPerSecond: number;
  /** Capture (minicap: the device made the frame; screencap: the agent asked for it) → viewer, ms. */
  latency: Distribution;
}

export interface AndroidTouchRow {
  path: 'minitouch' | 'agent' | 'input';
  /** The viewer sent the tap → the device received it, ms. */
  latency: Distribution;
}

export interface AndroidReport {
  size: string;
  screen: AndroidScreenRow[];
  touch: AndroidTouchRow[];
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureAndroid(options: AndroidOptions): Promise<AndroidReport> {
  const size = { width: options.width, height: options.height };
  // Android 9: minicap's binary and minitouch run; Android 14: minicap's APK and the UiAutomator2
  // server; Android 14 with a minicap and a UiAutomator2 server that die: screencap and `input`.
  const { peer: fast, port: fastPort } = await startPeer({ model: 'Bench Fast', release: '9', sdk: '28', ...size });
  const { peer: modern, port: modernPort } = await startPeer({ model: 'Bench Modern', release: '14', sdk: '34', ...size });
  const { peer: slow, port: slowPort } = await startPeer({ model: 'Bench Slow', release: '14', sdk: '34', minicapCrashes: true, uiautomator2Crashes: true, ...size });
  const adb = await startAdbServer();
  let started: Started | undefined;
  try {
    await adb.connect(fastPort);
    await adb.connect(modernPort);
    await adb.connect(slowPort);
    started = await startServer('android', { nodeName: 'bench-node', hubId: 'bench-hub', android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] });
    const s = started;
    const devices = await until(async () => {
      const r = await api<{ content: { id: string; model: string; status: string }[] }>(s, 'GET', '/df/api/devices?platform=android');
      return r.body.content.length === 3 && r.body.content.every((d) => d.status === 'available') ? r.body.content : undefined;
    }, 30_000, 'the three test devices');
    const report: AndroidReport = { size: `${options.width}×${options.height}`, screen: [], touch: [] };
    const runs = [
      [fast, 'Bench Fast', 'minicap', 'minitouch'],
      [modern, 'Bench Modern', null, 'agent'],
      [slow, 'Bench Slow', 'screencap', 'input'],
    ] as const;
    for (const [peer, model, path, touchPath] of runs) {
      const created = await api<{ id: string }>(s, 'POST', '/df/api/sessions', { deviceId: devices.find((d) => d.model === model)!.id });
      if (created.status !== 201) throw new Error(`POST /df/api/sessions answered ${created.status}`);
      const sessionId = created.body.id;
      if (path) for (const count of options.viewers) report.screen.push(await screenRun(s, sessionId, path, count, options));
      report.touch.push(await touchRun(s, sessionId, peer, touchPath, options.taps));
      await api(s, 'DELETE', `/df/api/sessions/${sessionId}`);
    }
    return report;
  } finally {
    await started?.server.stop();
    await started?.cleanup();
    await adb.stop();
    await fast.close();
    await modern.close();
    await slow.close();
  }
}

function openViewer(s: Started, sessionId: string): { socket: WebSocket; opened: Promise<void> } {
  const socket = new WebSocket(`${s.server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${s.token}`);
  return { socket, opened: new Promise((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject))) };
}

async function screenRun(s: Started, sessionId: string, path: AndroidScreenRow['path'], viewers: number, options: AndroidOptions): Promise<AndroidScreenRow> {
  let measuring = false;
  const latencies: number[] = [];
  const counts = new Array<number>(viewers).fill(0);
  const sockets = Array.from({ length: viewers }, (_, i) => {
    const v = openViewer(s, sessionId);
    let capturedAt = 0;
    v.socket.on('message', (data, isBinary) => {
      const at = now();
      if (!isBinary) {
        const m = JSON.parse(data.toString()) as { type: string; capturedAt?: number };
        if (m.type === 'frame') capturedAt = m.capturedAt ?? 0;
        return;
      }
      if (!measuring) return;
      counts[i]! += 1;
      // minicap's frames carry when the device made them; screencap's header when the agent asked.
      const made = path === 'minicap' ? patternStamp(data as Buffer)?.madeAt : capturedAt;
      if (made) latencies.push(at - made);
    });
    return v;
  });
  await Promise.all(sockets.map((v) => v.opened));
  await sleep(options.warmupSeconds * 1000);
  measuring = true;
  const began = performance.now();
  await sleep(options.durationSeconds * 1000);
  measuring = false;
  const seconds = (performance.now() - began) / 1000;
  for (const v of sockets) v.socket.close();
  return { path, viewers, framesPerSecond: counts.reduce((a, b) => a + b, 0) / viewers / seconds, latency: distribution(latencies) };
}

async function touchRun(s: Started, sessionId: string, peer: AdbdPeer, path: AndroidTouchRow['path'], taps: number): Promise<AndroidTouchRow> {
  const v = openViewer(s, sessionId);
  await v.opened;
  const latencies: number[] = [];
  let arrived: (() => void) | null = null;
  // The device got the tap: minitouch's first line of it, the UiAutomator2 server's actions, or the `input tap` command line.
  const stopTouch = peer.onTouchLine((line) => (line.startsWith('d ') || line.startsWith('actions ')) && arrived?.());
  const stopCommand = peer.onCommand((line) => path === 'input' && line.startsWith('input tap') && arrived?.());
  try {
    if (path === 'agent') {
      // The server starts at the session's first gesture (served by `input` meanwhile): tap until it takes them.
      let sent = 0;
      let answered = 0;
      const onWarmAck = (data: unknown, isBinary: boolean) => {
        if (!isBinary && String((JSON.parse(String(data)) as { id?: string }).id).startsWith('warm')) answered++;
      };
      v.socket.on('message', onWarmAck);
      await until(async () => {
        if (peer.record.pointerActions.length > 0) return true;
        if (answered === sent) v.socket.send(JSON.stringify({ type: 'input', id: `warm${sent++}`, action: { action: 'tap', x: 1, y: 1 } }));
        return undefined;
      }, 60_000, 'taps through the UiAutomator2 server');
      // No warm-up tap may still be on its way when the measured ones start.
      await until(async () => (answered === sent ? true : undefined), 10_000, 'the warm-up taps answered');
      v.socket.off('message', onWarmAck);
    }
    for (let i = 0; i < taps; i++) {
      const got = new Promise<void>((resolve) => (arrived = resolve));
      const acked = new Promise<void>((resolve) => v.socket.on('message', function onAck(data, isBinary) {
        if (!isBinary && (JSON.parse(data.toString()) as { type: string; id?: string }).id === `t${i}`) {
          v.socket.off('message', onAck);
          resolve();
        }
      }));
      const sent = performance.now();
      v.socket.send(JSON.stringify({ type: 'input', id: `t${i}`, action: { action: 'tap', x: 10 + (i % 50), y: 20 } }));
      await got;
      latencies.push(performance.now() - sent);
      await acked;
    }
  } finally {
    stopTouch();
    stopCommand();
    v.socket.close();
  }
  return { path, latency: distribution(latencies) };
}

export function formatAndroid(r: AndroidReport): string {
  const ms = (v: number) => v.toFixed(2);
  return (
    `Android live screen (${r.size}, test pattern at 60 frames/s on the device side), per viewer:\n` +
    table(['path', 'viewers', 'frames/s', 'capture→viewer p50 ms', 'p99 ms', 'max ms'], r.screen.map((row) => [row.path, String(row.viewers), row.framesPerSecond.toFixed(1), ms(row.latency.p50), ms(row.latency.p99), ms(row.latency.max)])) +
    `\nAndroid tap, viewer socket → device:\n` +
    table(['path', 'taps', 'p50 ms', 'p99 ms', 'max ms'], r.touch.map((row) => [row.path, String(row.latency.count), ms(row.latency.p50), ms(row.latency.p99), ms(row.latency.max)])) +
    '\n'
  );
}
