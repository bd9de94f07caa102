import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Adb } from './adb.js';
import { AndroidDebug } from './debug.js';

/**
 * The host side of the adb protocol as an adb server speaks it to adbkit, answering in one write each
 * service's OKAY and its first data: what a busy agent reads when the server's two writes arrive
 * before it gets to the socket.
 */
const SERIAL = 'emulator-5554';
const PROCESSES = new Map([
  [4242, 'com.example.debuggable'],
  [4343, 'com.example.other'],
]);
let server: Server;
let port: number;

const hex = (b: Buffer) => Buffer.concat([Buffer.from(b.length.toString(16).padStart(4, '0')), b]);

function answer(socket: Socket, service: string): void {
  if (service === `host:transport:${SERIAL}`) return void socket.write('OKAY');
  if (service === 'track-jdwp') return void socket.write(Buffer.concat([Buffer.from('OKAY'), hex(Buffer.from([...PROCESSES.keys()].map((p) => `${p}\n`).join('')))]));
  const cmdline = /^shell:cat \/proc\/(\d+)\/cmdline/.exec(service);
  if (cmdline) return void socket.end(Buffer.concat([Buffer.from('OKAY'), Buffer.from(`${PROCESSES.get(Number(cmdline[1])) ?? ''}\0`)]));
  if (service.startsWith('shell:cat /proc/net/unix')) return void socket.end('OKAY');
  socket.end(Buffer.concat([Buffer.from('FAIL'), hex(Buffer.from(`unknown service ${service}`))]));
}

beforeAll(async () => {
  server = createServer((socket) => {
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = parseInt(pending.subarray(0, 4).toString('latin1'), 16);
        if (pending.length < 4 + length) return;
        const service = pending.subarray(4, 4 + length).toString('utf8');
        pending = pending.subarray(4 + length);
        answer(socket, service);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('Android debug targets', () => {
  it('lists the debuggable processes when the first list arrives with the OKAY of track-jdwp', async () => {
    const client = Adb.createClient({ host: '127.0.0.1', port });
    const debug = new AndroidDebug(SERIAL, client.getDevice(SERIAL), { client, adbHost: '127.0.0.1', adbPort: port, adbBinary: 'adb', logger: pino({ level: 'silent' }) });
    const targets = await debug.targets();
    expect(targets.map((t) => [t.kind, t.pid ?? null, t.package ?? null])).toEqual([
      ['device', null, null],
      ['process', 4242, 'com.example.debuggable'],
      ['process', 4343, 'com.example.other'],
    ]);
  });
});
