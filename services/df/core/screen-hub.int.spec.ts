import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '#shared/blob/index.js';
import { createMemoryBus } from '#shared/bus/index.js';
import { encodeFrame, ok, subjects } from '#shared/wire/index.js';
import { ScreenHub, type Viewer } from './screen-hub.js';

const logger = pino({ level: 'silent' });
const hubs: ScreenHub[] = [];
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.stop();
});

/** A viewer that records what it was sent and how it was closed (no device: frames never come). */
function viewer(id: string, userId: number, name: string, access: 'view' | 'control', since: string) {
  const sent: Record<string, unknown>[] = [];
  const closed: { code: number; reason: string }[] = [];
  const v: Viewer = {
    id, userId, name, access, since,
    sendFrame: () => undefined,
    sendJson: (m) => sent.push(m),
    close: (code, reason) => closed.push({ code, reason }),
    stats: () => ({ framesSent: 0, framesDropped: 0 }),
  };
  return { v, sent, closed };
}

describe('screen hub viewers', () => {
  it('lists one entry per user with their connections, tells every viewer who watches, and closes a disconnected user on every replica', async () => {
    const bus = createMemoryBus();
    const blobs = createFsBlobStore(mkdtempSync(join(tmpdir(), 'hub-')));
    const [a, b] = [new ScreenHub({ bus, blobs, logger, commandTimeoutMs: 50 }), new ScreenHub({ bus, blobs, logger, commandTimeoutMs: 50 })];
    hubs.push(a, b);
    await a.start();
    await b.start();
    const target = { hostId: 'h', deviceId: 'd', sessionId: 's-1' };
    const ann = viewer('v1', 7, 'Ann', 'control', '2026-01-01T00:00:00.000Z');
    const ann2 = viewer('v2', 7, 'Ann', 'view', '2026-01-01T00:00:02.000Z');
    const bob = viewer('v3', 9, 'Bob', 'view', '2026-01-01T00:00:01.000Z');
    // No agent answers the screencast lease here: joining still registers the viewer.
    await a.join(target, 1, ann.v).catch(() => undefined);
    await a.join(target, 1, ann2.v).catch(() => undefined);
    await a.join(target, 1, bob.v).catch(() => undefined);
    expect(a.viewers('s-1')).toEqual([
      { userId: 7, name: 'Ann', access: 'control', connectedAt: '2026-01-01T00:00:00.000Z', connections: 2 },
      { userId: 9, name: 'Bob', access: 'view', connectedAt: '2026-01-01T00:00:01.000Z', connections: 1 },
    ]);
    expect(ann.sent.at(-1)).toEqual({ type: 'viewers', viewers: a.viewers('s-1') });

    // Bob is disconnected from the other replica: his socket here closes, and Ann is told.
    expect(await b.disconnectEverywhere('s-1', 9)).toBe(0);
    await expect.poll(() => bob.closed).toEqual([{ code: 4403, reason: 'SESSION_ACCESS_WITHDRAWN' }]);
    expect(bob.sent.at(-1)).toMatchObject({ type: 'error', code: 'SESSION_ACCESS_WITHDRAWN' });
    expect(a.viewers('s-1').map((v) => v.userId)).toEqual([7]);
    expect(ann.sent.at(-1)).toEqual({ type: 'viewers', viewers: [expect.objectContaining({ userId: 7, connections: 2 })] });
    expect(a.disconnectUser('s-1', 7)).toBe(2);
    expect(a.viewers('s-1')).toEqual([]);
  });
});

describe('screen hub recordings', () => {
  /** A hub recording session `s-r` of device `d` on host `h`, whose lease a stand-in agent grants; frames are published as the agent does. */
  async function recordingHub() {
    const bus = createMemoryBus();
    const blobs = createFsBlobStore(mkdtempSync(join(tmpdir(), 'hub-rec-')));
    const hub = new ScreenHub({ bus, blobs, logger, commandTimeoutMs: 2_000 });
    hubs.push(hub);
    await hub.start();
    await bus.subscribe(subjects.rpc('h', 'd'), (msg) => void bus.respond(msg, ok({ streaming: true })));
    const target = { hostId: 'h', deviceId: 'd', sessionId: 's-r' };
    expect(await hub.startRecording(target, 1, 'rec-1', new Date())).toBe(true);
    // The host cannot encode a video: the recording keeps the screen's frames.
    await hub.keepFrames('s-r', 'rec-1');
    let seq = 0;
    const send = async (capturedAt: number, byte: number) => {
      const { data, headers } = encodeFrame({ sessionId: 's-r', seq: ++seq, capturedAt, width: 10, height: 10, jpeg: new Uint8Array([byte]) });
      await bus.publish(subjects.frames('h', 'd'), data, headers);
    };
    const stored = async (key: string) => {
      const blob = await blobs.get(key);
      const chunks: Buffer[] = [];
      for await (const c of blob!.stream) chunks.push(c as Buffer);
      return [...Buffer.concat(chunks)];
    };
    return { hub, send, stored };
  }

  it('keeps the last frame of a burst faster than its rate once its turn comes, so the recording shows where the screen settled', async () => {
    const { hub, send, stored } = await recordingHub();
    const t0 = Date.now();
    await send(t0, 1);
    await send(t0 + 40, 2);
    await send(t0 + 80, 3);
    // The first is kept at once; 2 is replaced by 3 while they wait; 3 is kept after the interval.
    await expect.poll(() => hub.recordingStatus('s-r')?.frames, { timeout: 5_000 }).toBe(2);
    const done = await hub.stopRecording('s-r');
    expect(done!.frames).toHaveLength(2);
    expect(await stored(done!.frames[0]!.key)).toEqual([1]);
    expect(await stored(done!.frames[1]!.key)).toEqual([3]);
    expect(new Date(done!.frames[1]!.at).getTime()).toBe(t0 + 80);
  });

  it('keeps a frame still held back by the rate when the recording stops', async () => {
    const { hub, send, stored } = await recordingHub();
    const t0 = Date.now();
    await send(t0, 1);
    await expect.poll(() => hub.recordingStatus('s-r')?.frames).toBe(1);
    await send(t0 + 10, 2);
    const done = await hub.stopRecording('s-r');
    expect(done!.frames.map((f) => f.index)).toEqual([0, 1]);
    expect(await stored(done!.frames[1]!.key)).toEqual([2]);
  });
});
