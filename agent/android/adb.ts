import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import { inChildSpan, SpanKind } from '#shared/tracing/index.js';

// adbkit is CommonJS; loading it through `require` gives the same module under tsx, node and vitest.
export const { Adb } = createRequire(import.meta.url)('@devicefarmer/adbkit') as typeof import('@devicefarmer/adbkit');
export type AdbClient = ReturnType<typeof Adb.createClient>;
export type AdbDevice = ReturnType<AdbClient['getDevice']>;

/** Single-quotes a word for the device's `sh`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Reads a stream to its end. */
export async function readAll(stream: Duplex | Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** Runs a shell command (`shell:` v1, as adbkit always does) and returns its output as text. */
export async function shell(device: AdbDevice, command: string): Promise<string> {
  // The device call: a leaf span of the trace it is part of, named by the command's first two words
  // (`input tap`), never its arguments (text a user typed).
  return inChildSpan(`adb shell ${command.split(' ', 2).join(' ')}`, {}, async () => (await readAll(await device.shell(command))).toString('utf8'), SpanKind.CLIENT);
}

/** Pushes a local file to the device and waits for the transfer to finish. */
export async function pushFile(device: AdbDevice, localPath: string, devicePath: string, mode = 0o644): Promise<void> {
  const transfer = await device.push(localPath, devicePath, mode);
  await new Promise<void>((resolve, reject) => {
    transfer.on('end', () => resolve());
    transfer.on('error', reject);
  });
}

/** Pulls a device file into a local file. */
export async function pullFile(device: AdbDevice, devicePath: string, localPath: string): Promise<void> {
  const transfer = await device.pull(devicePath);
  await pipeline(transfer, createWriteStream(localPath));
}

/** A loopback port that is free right now. */
export async function freeLocalPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The size in an image's PNG header. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

type SharpFactory = (input: Buffer) => {
  resize(options: { width?: number; height?: number; fit: 'inside'; withoutEnlargement: boolean }): ReturnType<SharpFactory>;
  jpeg(options: { quality: number }): ReturnType<SharpFactory>;
  toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number } }>;
};
let codec: Promise<SharpFactory | null> | null = null;

/** The image codec (sharp) if it is installed; JPEG output needs it, PNG does not. */
export function imageCodec(): Promise<SharpFactory | null> {
  codec ??= import('sharp').then(
    (m) => (m.default as unknown as SharpFactory) ?? null,
    () => null,
  );
  return codec;
}

/** PNG to JPEG, scaled down to fit `max` when given; null without a codec. */
export async function pngToJpeg(png: Buffer, quality: number, max: { width?: number; height?: number } = {}): Promise<{ data: Buffer; width: number; height: number } | null> {
  const sharp = await imageCodec();
  if (!sharp) return null;
  let image = sharp(png);
  if (max.width || max.height) image = image.resize({ ...(max.width ? { width: max.width } : {}), ...(max.height ? { height: max.height } : {}), fit: 'inside', withoutEnlargement: true });
  const { data, info } = await image.jpeg({ quality: Math.max(1, Math.min(100, Math.round(quality))) }).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * A device's WebDriver capabilities for Appium's UiAutomator2 driver: the device by its serial, and the
 * adb server that knows it — its port (the driver's own default is 5037) and, when it is not on this
 * machine, its host.
 */
export function uiautomator2Capabilities(serial: string, adbServer: { host: string; port: number } | null): Record<string, unknown> {
  const remote = adbServer && !LOOPBACK_HOSTS.has(adbServer.host) ? { 'appium:remoteAdbHost': adbServer.host } : {};
  return { platformName: 'Android', 'appium:automationName': 'UiAutomator2', 'appium:udid': serial, ...(adbServer ? { 'appium:adbPort': adbServer.port } : {}), ...remote };
}
