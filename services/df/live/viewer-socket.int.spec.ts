import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { FrameSender } from './viewer-socket.js';

/** A real WebSocket pair on loopback whose client stops reading, as a slow viewer would. */
let wss: WebSocketServer | null = null;

afterEach(async () => {
  for (const c of wss?.clients ?? []) c.terminate();
  await new Promise((resolve) => (wss ? wss.close(resolve) : resolve(undefined)));
  wss = null;
});

describe('frames to a slow viewer', () => {
  it('drops frames instead of buffering them without bound, and delivers the newest once the viewer reads again', async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(wss, 'listening');
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const [serverSide] = (await once(wss, 'connection')) as [WebSocket];
    await once(client, 'open');
    const received: Buffer[] = [];
    client.on('message', (data, isBinary) => {
      if (isBinary) received.push(data as Buffer);
    });
    // The viewer stops reading: its socket fills, then the kernel's buffers, then the sender's.
    (client as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();

    const sender = new FrameSender(serverSide);
    const jpeg = Buffer.alloc(256 * 1024, 7);
    let maxBuffered = 0;
    for (let seq = 1; seq <= 400; seq++) {
      sender.offer({ sessionId: 's', seq, capturedAt: seq, width: 1, height: 1, jpeg: Buffer.concat([Buffer.from([seq >> 8, seq & 255]), jpeg]) });
      maxBuffered = Math.max(maxBuffered, serverSide.bufferedAmount);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sender.framesDropped).toBeGreaterThan(300);
    // Never more than the two frames in flight (plus the small frame headers) wait in the socket.
    expect(maxBuffered).toBeLessThanOrEqual(2 * (jpeg.length + 2) + 1_024);

    (client as unknown as { _socket: { resume(): void } })._socket.resume();
    const last = await new Promise<Buffer>((resolve) => {
      const check = () => {
        const newest = received.at(-1);
        if (newest && newest.readUInt16BE(0) === 400) resolve(newest);
        else setTimeout(check, 20);
      };
      check();
    });
    expect(last.readUInt16BE(0)).toBe(400);
    expect(received.length).toBeLessThan(100);
    client.close();
  });
});
