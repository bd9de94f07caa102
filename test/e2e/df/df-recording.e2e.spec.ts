import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { sharedDeployment } from '#test/helpers/deployment.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Recording across replicas: two servers of one deployment (one PostgreSQL database, Redis, NATS and
 * one blob directory). The recording runs on one replica; the other reports its status, stops it and
 * replays it. When the replica that recorded is gone, another finishes the recording from the blob store.
 */
const ADMIN = { email: 'farm-recording@example.com', password: 'farm-password-4' };
let deployment: Awaited<ReturnType<typeof sharedDeployment>>;
let dataDir: string;
let a: TestServer;
let b: TestServer | null;
let token: string;
/** What every replica of the deployment is started with. */
let shared: Record<string, string>;

beforeAll(async () => {
  deployment = await sharedDeployment();
  dataDir = mkdtempSync(join(tmpdir(), 'df-recording-'));
  shared = { ...deployment.env, DATA_DIR: dataDir };
  a = await startTestServer({
    ...shared,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    // A host without videos: its recordings keep the screen's JPEG frames, which this file replays.
    AGENT_VIDEO_ENABLED: 'false',
    AGENT_CONFIG: writeAgentConfig({ hostId: `rec-${randomBytes(3).toString('hex')}`, nodeName: 'rec-node', heartbeatMs: 300, devices: [{ provider: 'simulated', name: 'Rec sim', prepareMs: 50 }] }),
  });
  b = await startTestServer({ ...shared, AGENT_ENABLED: 'false' });
  token = (await http(a.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await deployment?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (server: TestServer, method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

/** Taps (each tap makes the simulated device send a frame) until `server` reports at least `n` recorded frames. */
const framesAtLeast = (server: TestServer, via: TestServer, sessionId: string, n: number) =>
  eventually(
    async () => {
      await api(via, 'POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: 1, y: 1 });
      const status = (await api(server, 'GET', `/sessions/${sessionId}/recording/status`)).body;
      return status.frames >= n ? status : undefined;
    },
    { what: `${n} recorded frames`, timeoutMs: 30_000 },
  );

async function openSession(): Promise<string> {
  const device = await eventually(async () => (await api(a, 'GET', '/devices?status=available')).body.content[0] as { id: string } | undefined, { what: 'an available device', timeoutMs: 30_000 });
  const session = await api(a, 'POST', '/sessions', { deviceId: device.id });
  expect(session.status).toBe(201);
  return session.body.id as string;
}

describe('a recording on one replica', () => {
  it('is reported, stopped and replayed by the other replica', async () => {
    const sessionId = await openSession();
    const started = await api(a, 'POST', `/sessions/${sessionId}/recording/start`);
    expect(started.status).toBe(200);
    expect(started.body.recording).toBe(true);
    await framesAtLeast(a, a, sessionId, 3);

    // The other replica knows it runs, which one it is, and (from the blob store) how far it got.
    const elsewhere = await framesAtLeast(b!, a, sessionId, 1);
    expect(elsewhere).toMatchObject({ recording: true, recordingId: started.body.recordingId, startedAt: started.body.startedAt });
    // Starting again on the other replica does not start a second recording.
    expect((await api(b!, 'POST', `/sessions/${sessionId}/recording/start`)).body.recordingId).toBe(started.body.recordingId);

    const stopped = await api(b!, 'POST', `/sessions/${sessionId}/recording/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ recording: false, recordingId: null });
    expect(stopped.body.frames).toBeGreaterThanOrEqual(3);
    expect(stopped.body.lastArtifactId).toEqual(expect.any(String));
    expect((await api(a, 'GET', `/sessions/${sessionId}/recording/status`)).body.recording).toBe(false);

    const replay = await api(b!, 'GET', `/sessions/${sessionId}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.body.recordings).toHaveLength(1);
    const frames = replay.body.recordings[0].frames as { url: string }[];
    expect(frames.length).toBe(stopped.body.frames);
    const frame = await fetch(`${b!.url}${frames[0]!.url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('image/jpeg');
    expect((await api(a, 'DELETE', `/sessions/${sessionId}`)).status).toBe(200);
  }, 120_000);

  it('is finished by another replica from the blob store when the replica that recorded is gone', async () => {
    const sessionId = await openSession();
    const started = await api(b!, 'POST', `/sessions/${sessionId}/recording/start`);
    expect(started.body.recording).toBe(true);
    await framesAtLeast(b!, a, sessionId, 2);
    // Wait until the manifest in the blob store shows the frames (it is rewritten each second).
    const stored = await framesAtLeast(a, a, sessionId, 2);
    await b!.stop();
    b = null;

    // Nobody records it any more: asked for the status, this replica finishes it from what was stored.
    const status = (await api(a, 'GET', `/sessions/${sessionId}/recording/status`)).body;
    expect(status).toMatchObject({ recording: false, recordingId: null, lastArtifactId: expect.any(String) });
    expect(status.frames).toBeGreaterThanOrEqual(stored.frames);
    const replay = await api(a, 'GET', `/sessions/${sessionId}/replay`);
    expect(replay.body.recordings[0].recordingId).toBe(started.body.recordingId);
    expect(replay.body.recordings[0].frames.length).toBe(status.frames);
    expect((await api(a, 'DELETE', `/sessions/${sessionId}`)).status).toBe(200);
  }, 120_000);

  it('does not block a new recording once the replica that recorded is gone', async () => {
    b = await startTestServer({ ...shared, AGENT_ENABLED: 'false' });
    const sessionId = await openSession();
    const orphan = await api(b, 'POST', `/sessions/${sessionId}/recording/start`);
    await framesAtLeast(b, a, sessionId, 1);
    await b.stop();
    b = null;

    // Starting again finishes the orphan and starts a recording that really records, here.
    const again = await api(a, 'POST', `/sessions/${sessionId}/recording/start`);
    expect(again.status).toBe(200);
    expect(again.body.recording).toBe(true);
    expect(again.body.recordingId).not.toBe(orphan.body.recordingId);
    await framesAtLeast(a, a, sessionId, 2);
    const stopped = await api(a, 'POST', `/sessions/${sessionId}/recording/stop`);
    expect(stopped.body.recording).toBe(false);
    const replay = (await api(a, 'GET', `/sessions/${sessionId}/replay`)).body.recordings as { recordingId: string }[];
    expect(replay.map((r) => r.recordingId).sort()).toEqual([orphan.body.recordingId, again.body.recordingId].sort());
    expect((await api(a, 'DELETE', `/sessions/${sessionId}`)).status).toBe(200);
  }, 120_000);
});
