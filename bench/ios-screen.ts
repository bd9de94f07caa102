/*
 * The live screen of an iPhone, two ways, against the test peers (test/usbmuxd): WebDriverAgent's MJPEG
 * stream (the WDA peer sends a full-size moving pattern at the frame rate the session set) and repeated
 * screenshotr captures (full-size PNGs turned into JPEG by the agent). Frames a second reaching the
 * driver's consumer, and latency: for MJPEG from the peer writing a frame to the consumer having it;
 * for screenshotr from the capture request to the consumer having the JPEG. Same agent code as in
 * production (IosProvider through appium-ios-device); the peer runs in the same process.
 */
import { pino } from 'pino';
import { IosProvider } from '#agent/ios/provider.js';
import type { IosDevice } from '#agent/ios/device.js';
import type { DeviceDriver } from '#agent/provider.js';
import { makePairingCertificates } from '#test/usbmuxd/certs.js';
import { testScreen } from '#test/usbmuxd/fixtures.js';
import { PeerDevice, UsbmuxdPeer } from '#test/usbmuxd/peer.js';
import { sampleTree, WdaPeer } from '#test/usbmuxd/wda.js';
import { phase, table, num } from './console.js';
import { distribution, type Distribution } from './stats.js';

export interface IosScreenOptions {
  durationSeconds: number;
  /** The screen: pixels of the screenshot and of the MJPEG pattern. */
  width: number;
  height: number;
  quality: number;
}

export interface IosScreenReport {
  width: number;
  height: number;
  mjpeg: { fps: number; latencyMs: Distribution; framesSent: number };
  screenshotr: { fps: number; latencyMs: Distribution };
}

export async function measureIosScreen(options: IosScreenOptions): Promise<IosScreenReport> {
  const screen = testScreen(options.width, options.height);
  const size = { width: Math.round(options.width / 3), height: Math.round(options.height / 3), scale: 3 };
  const withWda = new PeerDevice({ udid: '00008130-00BE0C4BE0C4BE0C', name: 'Bench iPhone', productType: 'iPhone17,3', productVersion: '18.1', deviceClass: 'iPhone', screenshot: screen });
  const without = new PeerDevice({ udid: '00008030-00BE0C5BE0C5BE0C', name: 'Bench iPhone SE', productType: 'iPhone14,6', productVersion: '16.7', deviceClass: 'iPhone', screenshot: screen });
  const wda = new WdaPeer({ size, tree: sampleTree(size.width, size.height), screenshot: screen, frameSize: { width: options.width, height: options.height } });
  wda.install(withWda);
  const pattern = await wda.testPattern();
  const peer = new UsbmuxdPeer({ certs: await makePairingCertificates() });
  await peer.start();
  peer.attach(withWda);
  peer.attach(without);
  const drivers: DeviceDriver[] = [];
  const provider = new IosProvider({ hostId: 'bench', usbmuxd: peer.address, logger: pino({ level: 'silent' }), goIos: { tunnel: 'off' } });
  await provider.start({ added: (d) => drivers.push(d), removed: () => undefined });
  try {
    const byName = (name: string) => drivers.find((d) => d.info.name === name) as IosDevice;
    // MJPEG: latency from the peer's write of a frame to the consumer receiving those bytes.
    const sent: { index: number; at: number }[] = [];
    wda.on('frame', (index: number, at: number) => sent.push({ index, at }));
    const mjpeg = await run(byName('Bench iPhone'), options, (jpeg, receivedAt) => {
      const index = pattern.findIndex((p) => p.equals(jpeg));
      for (let i = sent.length - 1; i >= 0; i--) if (sent[i]!.index === index) return receivedAt - sent[i]!.at;
      return null;
    });
    const screenshotr = await run(byName('Bench iPhone SE'), options, (_jpeg, receivedAt, capturedAt) => receivedAt - capturedAt);
    return { width: options.width, height: options.height, mjpeg: { ...mjpeg, framesSent: wda.framesSent }, screenshotr };
  } finally {
    await provider.stop();
    await peer.close();
  }
}

async function run(driver: IosDevice, options: IosScreenOptions, latency: (jpeg: Buffer, receivedAt: number, capturedAt: number) => number | null): Promise<{ fps: number; latencyMs: Distribution }> {
  await driver.prepare(() => undefined);
  const latencies: number[] = [];
  let frames = 0;
  const ticker = phase(`${driver.info.name}: ${driver.wda.running ? 'WebDriverAgent MJPEG' : 'screenshotr'}`);
  const started = performance.now();
  // capturedAt is wall-clock; the offset makes it comparable with performance.now().
  const offset = Date.now() - performance.now();
  await driver.startScreencast({ quality: options.quality }, async (frame) => {
    const receivedAt = performance.now();
    frames += 1;
    const l = latency(frame.jpeg, receivedAt, frame.capturedAt - offset);
    if (l !== null) latencies.push(l);
  });
  await new Promise((resolve) => setTimeout(resolve, options.durationSeconds * 1000));
  await driver.stopScreencast();
  const seconds = (performance.now() - started) / 1000;
  ticker.done(`${num(frames / seconds, 1)} frames/s`);
  await driver.release();
  return { fps: frames / seconds, latencyMs: distribution(latencies) };
}

export function formatIosScreen(r: IosScreenReport): string {
  return table(
    ['iOS live screen', 'frames/s', 'latency p50 ms', 'p99 ms'],
    [
      [`WebDriverAgent MJPEG (${r.width}x${r.height}, peer sent ${r.mjpeg.framesSent})`, num(r.mjpeg.fps, 1), num(r.mjpeg.latencyMs.p50, 1), num(r.mjpeg.latencyMs.p99, 1)],
      [`screenshotr PNG -> JPEG (${r.width}x${r.height})`, num(r.screenshotr.fps, 1), num(r.screenshotr.latencyMs.p50, 1), num(r.screenshotr.latencyMs.p99, 1)],
    ],
  );
}
