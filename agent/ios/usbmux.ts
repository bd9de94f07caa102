import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { build, parse } from 'plist';
import { Usbmux, getDefaultSocket } from 'appium-ios-device/build/lib/usbmux/index.js';
import { connectPort, connectPortSSL, startLockdownSession } from 'appium-ios-device/build/lib/utilities.js';

/** Where usbmuxd listens: a Unix socket path (`/var/run/usbmuxd`) or `host:port` (usbmuxd over TCP). */
export type UsbmuxAddress = { socketPath: string } | { socketHost: string; socketPort: number };

/** The `ios.usbmuxd` setting: `host:port` or a path (optionally `unix:`-prefixed), as `USBMUXD_SOCKET_ADDRESS` reads. */
export function parseUsbmuxAddress(value: string): UsbmuxAddress {
  const plain = value.replace(/^unix:/i, '');
  const m = /^([^/:][^:]*):(\d{1,5})$/.exec(plain);
  if (m && Number(m[2]) > 0 && Number(m[2]) < 65_536) return { socketHost: m[1]!, socketPort: Number(m[2]) };
  if (!plain.startsWith('/')) throw new Error(`usbmuxd address "${value}" is neither host:port nor an absolute socket path`);
  return { socketPath: plain };
}

export const describeAddress = (a: UsbmuxAddress) => ('socketPath' in a ? a.socketPath : `${a.socketHost}:${a.socketPort}`);

/** One device as usbmuxd lists it. */
export interface UsbmuxDevice {
  deviceId: number;
  udid: string;
  connectionType: string;
}

const TIMEOUT_MS = 10_000;

/**
 * usbmuxd and the devices behind it through appium-ios-device: the device list, lockdown sessions
 * (StartSession with the pair record usbmuxd keeps, then TLS), services started through lockdown, and
 * plain connections to device TCP ports (what `iproxy` does). Every call opens its own usbmuxd
 * connection, because a connection becomes the device port once it connects.
 */
export class UsbmuxClient {
  constructor(readonly address: UsbmuxAddress) {}

  /**
   * A fresh connection to usbmuxd. It always has an error listener: appium-ios-device listens for errors
   * only while it connects, so a reset in the middle of a request (usbmuxd gone, a device unplugged)
   * would otherwise be an uncaught error that ends the agent; the request itself fails or times out.
   */
  async socket(): Promise<Socket> {
    const socket = (await getDefaultSocket({ ...this.address, timeout: TIMEOUT_MS })) as unknown as Socket;
    socket.on('error', () => undefined);
    return socket;
  }

  /** A fresh connection handed to an appium-ios-device call; destroyed at once when the call fails (appium-ios-device only ends it). */
  private async through<T>(use: (socket: Socket) => Promise<T>): Promise<T> {
    const socket = await this.socket();
    try {
      return await use(socket);
    } catch (err) {
      socket.destroy();
      throw err;
    }
  }

  async listDevices(): Promise<UsbmuxDevice[]> {
    const usbmux = new Usbmux(await this.socket());
    try {
      const list = (await usbmux.listDevices(TIMEOUT_MS)) as { DeviceID?: number; Properties?: { SerialNumber?: string; ConnectionType?: string } }[];
      return list.flatMap((d) => (d.Properties?.SerialNumber && typeof d.DeviceID === 'number' ? [{ deviceId: d.DeviceID, udid: d.Properties.SerialNumber, connectionType: d.Properties.ConnectionType ?? 'USB' }] : []));
    } finally {
      usbmux.close();
    }
  }

  /** Every lockdown value of the default domain, read inside a paired session (a device answers less without one). */
  async values(udid: string): Promise<Record<string, unknown>> {
    const lockdown = await this.through((socket) => startLockdownSession(udid, socket));
    try {
      return (await lockdown.getValue({}, TIMEOUT_MS)) as Record<string, unknown>;
    } finally {
      lockdown.close();
    }
  }

  /**
   * Several lockdown queries (a domain, a key of it, or both) answered inside **one** paired session, in
   * order; a query the device refuses (`MissingValue`, a domain it does not have) answers undefined, the
   * others still answered. A session that cannot start, or a device that stops answering, throws.
   */
  async valuesOf(udid: string, queries: { Domain?: string; Key?: string }[]): Promise<unknown[]> {
    const lockdown = await this.through((socket) => startLockdownSession(udid, socket));
    try {
      answerOnce(lockdown);
      const out: unknown[] = [];
      for (const query of queries) {
        out.push(
          await lockdown.getValue(query, TIMEOUT_MS).catch((err: Error) => {
            // appium-ios-device's word for an answer without a value (lockdown's `Error`); anything else is no answer at all.
            if (err.message.startsWith('Unexpected data received')) return undefined;
            throw err;
          }),
        );
      }
      return out;
    } finally {
      lockdown.close();
    }
  }

  /**
   * Starts a lockdown service and connects to the port it opened (through TLS when the device asks for
   * it). Refusals (`InvalidService`, a missing developer disk image) throw with lockdown's error.
   */
  async startService(udid: string, service: string): Promise<Socket | TLSSocket> {
    const lockdown = await this.through((socket) => startLockdownSession(udid, socket));
    let started: { Port?: number; EnableServiceSSL?: boolean };
    try {
      started = (await lockdown.startService(service, TIMEOUT_MS)) as { Port?: number; EnableServiceSSL?: boolean };
    } finally {
      lockdown.close();
    }
    if (!started.Port) throw new Error(`${service}: lockdown answered no port`);
    return started.EnableServiceSSL ? ((await this.through((socket) => connectPortSSL(udid, started.Port!, socket))) as TLSSocket) : await this.connectPort(udid, started.Port);
  }

  /** A byte stream to a TCP port on the device; refused when nothing listens there. */
  async connectPort(udid: string, port: number): Promise<Socket> {
    const socket = (await this.through((raw) => connectPort(udid, port, raw))) as Socket;
    // appium-ios-device unpipes its usbmux decoder on Connect, which leaves the socket paused for good;
    // it flows again once someone reads it (a 'data' listener alone would not resume it).
    const onListener = (event: string | symbol) => {
      if (event !== 'data') return;
      socket.off('newListener', onListener);
      process.nextTick(() => socket.resume());
    };
    socket.on('newListener', onListener);
    return socket;
  }

  /** The pair record usbmuxd keeps for the device, or null. */
  async pairRecord(udid: string): Promise<Record<string, unknown> | null> {
    const usbmux = new Usbmux(await this.socket());
    try {
      return (await usbmux.readPairRecord(udid, TIMEOUT_MS)) as Record<string, unknown> | null;
    } finally {
      usbmux.close();
    }
  }

  async buid(): Promise<string> {
    const usbmux = new Usbmux(await this.socket());
    try {
      return await usbmux.readBUID(TIMEOUT_MS);
    } finally {
      usbmux.close();
    }
  }

  /**
   * Follows attach and detach (`Listen`). appium-ios-device has no client for it, so the request is
   * written here: the same 16-byte header (length, version 1, type 8 = plist, tag) and XML plist body.
   */
  async listen(events: { attached(device: UsbmuxDevice): void; detached(deviceId: number): void; ended(err?: Error): void }): Promise<{ close(): void }> {
    const socket = await this.socket();
    socket.write(usbmuxFrame(1, { MessageType: 'Listen', ProgName: 'qa-platform-agent', ClientVersionString: 'qa-platform-agent', kLibUSBMuxVersion: 3 }));
    let buffer = Buffer.alloc(0);
    let confirmed = false;
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => (confirmed ? events.ended(err) : reject(err));
      socket.on('error', fail);
      socket.on('close', () => (confirmed ? events.ended() : reject(new Error('usbmuxd closed the connection before confirming Listen'))));
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        while (buffer.length >= 16 && buffer.length >= buffer.readUInt32LE(0)) {
          const length = buffer.readUInt32LE(0);
          const message = parse(buffer.subarray(16, length).toString('utf8')) as Record<string, unknown>;
          buffer = buffer.subarray(length);
          if (message.MessageType === 'Result') {
            if (message.Number !== 0) return reject(new Error(`usbmuxd refused Listen (${String(message.Number)})`));
            confirmed = true;
            resolve();
          } else if (message.MessageType === 'Attached') {
            const props = message.Properties as { SerialNumber?: string; ConnectionType?: string } | undefined;
            if (props?.SerialNumber && typeof message.DeviceID === 'number') events.attached({ deviceId: message.DeviceID, udid: props.SerialNumber, connectionType: props.ConnectionType ?? 'USB' });
          } else if (message.MessageType === 'Detached' && typeof message.DeviceID === 'number') {
            events.detached(message.DeviceID);
          }
        }
      });
    });
    return { close: () => socket.destroy() };
  }
}

/**
 * appium-ios-device (3.1) pipes a lockdown connection's frame splitter into its plist decoder a second
 * time when the session turns to TLS, so every answer inside the session is queued twice and a second
 * request would be answered with the first one's copy. One of the two pipes is taken away — only when
 * there are two, so a library that no longer does it is left as it is.
 */
function answerOnce(lockdown: unknown): void {
  const service = (lockdown as { _plistService?: { _splitter?: Readable; _decoder?: Writable } })._plistService;
  const splitter = service?._splitter;
  const decoder = service?._decoder;
  const pipes = (splitter as { _readableState?: { pipes?: unknown[] } } | undefined)?._readableState?.pipes;
  if (splitter && decoder && Array.isArray(pipes) && pipes.filter((p) => p === decoder).length > 1) splitter.unpipe(decoder);
}

/** One usbmuxd request: 16-byte little-endian header (length, version 1, type 8 = plist, tag) and an XML plist. */
export function usbmuxFrame(tag: number, message: Record<string, unknown>): Buffer {
  const body = Buffer.from(build(message as Parameters<typeof build>[0]));
  const header = Buffer.alloc(16);
  header.writeUInt32LE(16 + body.length, 0);
  header.writeUInt32LE(1, 4);
  header.writeUInt32LE(8, 8);
  header.writeUInt32LE(tag, 12);
  return Buffer.concat([header, body]);
}
