import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { build, parse } from 'plist';
import { Usbmux } from 'appium-ios-device/build/lib/usbmux/index.js';
import { usbmuxFrame, type UsbmuxClient } from './usbmux.js';

const RESULT = { OK: 0, BADCOMMAND: 1, BADDEV: 2, CONNREFUSED: 3 } as const;

/**
 * A byte stream that speaks usbmuxd's plist protocol to its client and shows only one device: its
 * listing, its attach notice, its pair record and BUID, and Connect to its ports (after which the stream
 * is that device port). Another device's id is BADDEV. Lets a remote libimobiledevice or Xcode-side
 * tool reach exactly the device of a session.
 */
export function usbmuxStream(client: UsbmuxClient, udid: string): Duplex {
  let buffer = Buffer.alloc(0);
  let device: Socket | null = null;
  let queue = Promise.resolve();

  const stream: Duplex = new Duplex({
    write(chunk: Buffer, _encoding, callback) {
      if (device) {
        device.write(chunk, (err) => callback(err ?? null));
        return;
      }
      buffer = Buffer.concat([buffer, chunk]);
      queue = queue.then(process).then(
        () => callback(),
        (err: Error) => callback(err),
      );
    },
    read() {
      device?.resume();
    },
    final(callback) {
      device?.end();
      callback();
    },
    destroy(err, callback) {
      device?.destroy();
      callback(err);
    },
  });

  const reply = (tag: number, message: Record<string, unknown>) => stream.push(usbmuxFrame(tag, message));
  const result = (tag: number, n: number) => reply(tag, { MessageType: 'Result', Number: n });

  /** The device as the real usbmuxd lists it, or null once it is gone. */
  const listing = async () => {
    const socket = await client.socket();
    const usbmux = new Usbmux(socket);
    try {
      const list = (await usbmux.listDevices()) as { DeviceID: number; Properties?: { SerialNumber?: string } }[];
      return list.find((d) => d.Properties?.SerialNumber === udid) ?? null;
    } finally {
      usbmux.close();
    }
  };

  async function process(): Promise<void> {
    while (!device && buffer.length >= 16 && buffer.length >= buffer.readUInt32LE(0)) {
      const length = buffer.readUInt32LE(0);
      const tag = buffer.readUInt32LE(12);
      const type = buffer.readUInt32LE(8);
      const body = buffer.subarray(16, length);
      buffer = buffer.subarray(length);
      if (type !== 8) {
        result(tag, RESULT.BADCOMMAND);
        continue;
      }
      let message: Record<string, unknown>;
      try {
        message = parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        result(tag, RESULT.BADCOMMAND);
        continue;
      }
      switch (message.MessageType) {
        case 'ListDevices': {
          const d = await listing();
          reply(tag, { DeviceList: d ? [{ ...d, MessageType: 'Attached' }] : [] });
          break;
        }
        case 'Listen': {
          const d = await listing();
          result(tag, RESULT.OK);
          if (d) reply(0, { ...d, MessageType: 'Attached' });
          break;
        }
        case 'ReadBUID':
          reply(tag, { BUID: await client.buid() });
          break;
        case 'ReadPairRecord': {
          const record = message.PairRecordID === udid ? await client.pairRecord(udid) : null;
          if (!record) result(tag, RESULT.BADDEV);
          else reply(tag, { PairRecordData: Buffer.from(build(record as Parameters<typeof build>[0])) });
          break;
        }
        case 'Connect': {
          const d = await listing();
          if (!d || message.DeviceID !== d.DeviceID) {
            result(tag, RESULT.BADDEV);
            break;
          }
          const raw = Number(message.PortNumber);
          const port = ((raw & 0xff) << 8) | ((raw >> 8) & 0xff);
          let socket: Socket;
          try {
            socket = await client.connectPort(udid, port);
          } catch {
            result(tag, RESULT.CONNREFUSED);
            break;
          }
          result(tag, RESULT.OK);
          device = socket;
          socket.on('data', (data: Buffer) => {
            if (!stream.push(data)) socket.pause();
          });
          socket.on('end', () => stream.push(null));
          socket.on('error', (err) => stream.destroy(err));
          if (buffer.length > 0) socket.write(buffer);
          buffer = Buffer.alloc(0);
          break;
        }
        default:
          result(tag, RESULT.BADCOMMAND);
      }
    }
  }

  return stream;
}
