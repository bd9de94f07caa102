import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectViewer, eventually, startTestSite, writeAgentConfig, type TestSite } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';

/**
 * The device farm end to end on real Chromium: the server with its in-process agent offering two
 * browser devices (a touch phone and a desktop), driven through the HTTP API and the viewer socket.
 */
const ADMIN = { email: 'farm-admin@example.com', password: 'farm-password-1' };
let server: TestServer;
let site: TestSite;
let token: string;
let listedAfterMs = 0;

const PHONE = 'Phone (test)';
const DESKTOP = 'Desktop (test)';

beforeAll(async () => {
  site = await startTestSite();
  server = await startTestServer({
    // The typing test sends its characters one after another: a loaded machine must not make a pause of them.
    DF_TYPING_BURST: '30s',
    // A host without videos: its recordings keep the screen's JPEG frames, which this file replays.
    AGENT_VIDEO_ENABLED: 'false',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'e2e-node',
      hubId: 'e2e-hub',
      heartbeatMs: 500,
      devices: [
        { provider: 'browser', name: PHONE, profile: 'pixel-7', width: 360, height: 640, scale: 2 },
        { provider: 'browser', name: DESKTOP, profile: 'desktop', width: 800, height: 600 },
      ],
    }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices', { token });
    return r.body.totalElements === 2 ? r.body : undefined;
  }, { what: 'two devices' });
  listedAfterMs = Date.now() - Date.parse(server.process.agent!.startedAt);
});

afterAll(async () => {
  await server?.stop();
  await site?.close();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
const deviceNamed = async (name: string) => (await api('GET', `/devices?search=${encodeURIComponent(name)}`)).body.content[0];

describe('devices', () => {
  it('lists the agent\'s devices within seconds of the agent starting, with their profiles', async () => {
    expect(listedAfterMs).toBeLessThan(5_000);
    const list = await api('GET', '/devices?sortBy=name&sortDir=asc');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 0, size: 20, totalElements: 2, totalPages: 1 });
    const [desktop, phone] = list.body.content;
    expect(desktop).toMatchObject({ name: DESKTOP, platform: 'web', type: 'desktop', status: 'available', nodeName: 'e2e-node', hubId: 'e2e-hub', isRealDevice: false, favorite: false, alias: null });
    expect(phone).toMatchObject({ name: PHONE, type: 'phone', model: 'Pixel 7 (emulated)', screen: { width: 720, height: 1280, scale: 2 } });
    expect(phone.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('filters by every parameter, repeats multi-value ones, and counts facets', async () => {
    const only = async (query: string) => (await api('GET', `/devices?${query}`)).body.content.map((d: { name: string }) => d.name);
    expect(await only('type=phone')).toEqual([PHONE]);
    expect(await only('excludeType=phone')).toEqual([DESKTOP]);
    expect(await only('status=available&status=offline')).toHaveLength(2);
    expect(await only('status=offline')).toEqual([]);
    expect(await only('nodeName=e2e-node&nodeName=other')).toHaveLength(2);
    expect(await only('model=Chromium')).toEqual([DESKTOP]);
    expect(await only('osVersion=Chromium&platform=web&hubId=e2e-hub&isRealDevice=false')).toHaveLength(2);
    expect(await only('isRealDevice=true')).toEqual([]);
    expect(await only('search=pixel')).toEqual([PHONE]);
    expect(await only('sortBy=name&sortDir=desc')).toEqual([PHONE, DESKTOP]);
    const paged = await api('GET', '/devices?size=1&page=1&sortBy=name');
    expect(paged.body).toMatchObject({ page: 1, size: 1, totalElements: 2, totalPages: 2 });
    expect(paged.body.content[0].name).toBe(PHONE);
    expect((await api('GET', '/devices?status=bogus')).status).toBe(400);
    const facets = await api('GET', '/devices/filter-options?type=phone');
    expect(facets.status).toBe(200);
    // Each facet counts under the other filters, so the chosen type still shows its alternative.
    expect(facets.body.type).toEqual([{ value: 'desktop', count: 1 }, { value: 'phone', count: 1 }]);
    expect(facets.body.status).toEqual([{ value: 'available', count: 1 }]);
  });

  it('keeps an alias and a favorite per user', async () => {
    const phone = await deviceNamed(PHONE);
    const aliased = await api('PUT', `/devices/${phone.id}/alias`, { alias: 'My phone' });
    expect(aliased.body).toMatchObject({ alias: 'My phone', name: PHONE });
    expect((await api('PUT', `/devices/${phone.id}/favorite`)).body.favorite).toBe(true);
    expect((await api('GET', '/devices?favorite=true')).body.content.map((d: { id: string }) => d.id)).toEqual([phone.id]);
    expect((await api('GET', '/devices?search=my%20phone')).body.totalElements).toBe(1);
    expect((await api('DELETE', `/devices/${phone.id}/alias`)).body.alias).toBeNull();
    expect((await api('DELETE', `/devices/${phone.id}/favorite`)).body.favorite).toBe(false);
    expect((await api('GET', '/devices/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('a session on a phone', () => {
  let sessionId: string;
  let phoneId: string;

  it('opens once the device is ready and holds the device', async () => {
    phoneId = (await deviceNamed(PHONE)).id;
    const created = await api('POST', '/sessions', { deviceId: phoneId, name: 'Checkout flow', buildName: 'build-1', metadata: { ticket: 'QA-1' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ deviceId: phoneId, name: 'Checkout flow', type: 'manual', status: 'active', buildName: 'build-1', metadata: { ticket: 'QA-1' }, screen: { width: 720, height: 1280 } });
    sessionId = created.body.id;
    expect((await api('GET', `/devices/${phoneId}`)).body.status).toBe('in_use');
    const again = await api('POST', '/sessions', { deviceId: phoneId });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DEVICE_BUSY');
    expect((await api('GET', '/sessions/active')).body.content.map((s: { id: string }) => s.id)).toEqual([sessionId]);
  });

  it('returns a screenshot as a PNG of the device\'s pixels, kept as an artifact', async () => {
    const res = await fetch(new URL(`/df/api/sessions/${sessionId}/screenshot`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(720);
    expect(png.readUInt32BE(20)).toBe(1280);
    const artifacts = await api('GET', `/sessions/${sessionId}/artifacts?type=screenshot`);
    expect(artifacts.body).toHaveLength(1);
    expect(artifacts.body[0]).toMatchObject({ type: 'screenshot', contentType: 'image/png', size: png.length });
  });

  it('opens a URL and a tap lands on the page, as the page\'s own script records', async () => {
    const opened = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'openUrl', url: site.url });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ ok: true, action: 'openUrl', url: site.url });
    expect((await site.waitForEvent((e) => e.kind === 'storage')).detail).toBe('none');

    const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
    expect(tree.status).toBe(200);
    const button = tree.body.root.children.find((n: { id?: string }) => n.id === 'target');
    expect(button).toMatchObject({ role: 'button', name: 'Tap me' });
    const x = button.bounds.x + button.bounds.width / 2;
    const y = button.bounds.y + button.bounds.height / 2;
    const tapped = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x, y });
    expect(tapped.status).toBe(200);
    // Screenshot pixels are twice the page's CSS pixels on this phone; the page sees CSS pixels.
    expect((await site.waitForEvent((e) => e.kind === 'tap')).detail).toBe(`${Math.round(x / 2)},${Math.round(y / 2)}`);
    const after = await api('GET', `/sessions/${sessionId}/ui-tree`);
    expect(after.body.root.children.find((n: { id?: string }) => n.id === 'status').text).toBe('taps: 1');
  });

  it('types text and keys into the page', async () => {
    const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
    const field = tree.body.root.children.find((n: { id?: string }) => n.id === 'field');
    await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: field.bounds.x + 20, y: field.bounds.y + 20 });
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'text', text: 'hello farm' })).status).toBe(200);
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'key', key: 'Enter' })).status).toBe(200);
    expect((await site.waitForEvent((e) => e.kind === 'enter')).detail).toBe('hello farm');
    const bad = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'key', key: 'NoSuchKey' });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('BAD_REQUEST');
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'fly' })).status).toBe(400);
  });

  it('keeps a burst of typing as one timeline entry, with its length and not its text', async () => {
    const typed = async () => {
      const timeline = await api('GET', `/sessions/${sessionId}/activities?size=200`);
      return (timeline.body.content as { id: string; at: string; detail: Record<string, unknown> }[]).filter((a) => a.detail.action === 'text');
    };
    const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
    const field = tree.body.root.children.find((n: { id?: string }) => n.id === 'field');
    await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: field.bounds.x + 20, y: field.bounds.y + 20 });
    const before = await typed();
    // A word typed a character at a time, as a person types: one entry for the word.
    for (const c of 'burst') expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'text', text: c })).status).toBe(200);
    const after = await typed();
    expect(after).toHaveLength(before.length + 1);
    const entry = after[after.length - 1]!;
    expect(entry.detail).toMatchObject({ text: '[5 characters]', characters: 5, inputs: 5, via: 'api', by: { userId: 1 } });
    expect(Date.parse(entry.detail.until as string)).toBeGreaterThanOrEqual(Date.parse(entry.at));
    expect(JSON.stringify(entry)).not.toContain('burst');
    // Another entry (a tap) ends the burst: the text after it is an entry of its own.
    await api('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: field.bounds.x + 20, y: field.bounds.y + 20 });
    await api('POST', `/sessions/${sessionId}/device/control`, { action: 'text', text: 'cd' });
    const last = await typed();
    expect(last).toHaveLength(before.length + 2);
    expect(last[last.length - 2]!.detail).toMatchObject({ characters: 5, inputs: 5 });
    expect(last[last.length - 1]!.detail).toMatchObject({ text: '[2 characters]', characters: 2, inputs: 1 });
  });

  it('rotates, swipes, long-presses, goes back and home', async () => {
    const rotated = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'rotate', orientation: 'landscape' });
    expect(rotated.body.orientation).toBe('landscape');
    const shot = Buffer.from(await (await fetch(new URL(`/df/api/sessions/${sessionId}/screenshot`, server.url), { headers: { authorization: `Bearer ${token}` } })).arrayBuffer());
    expect([shot.readUInt32BE(16), shot.readUInt32BE(20)]).toEqual([1280, 720]);
    await api('POST', `/sessions/${sessionId}/device/control`, { action: 'rotate', orientation: 'portrait' });
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'swipe', x1: 300, y1: 1000, x2: 300, y2: 400, durationMs: 100 })).status).toBe(200);
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'longPress', x: 10, y: 10, durationMs: 50 })).status).toBe(200);
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'home' })).body.url).toBe('about:blank');
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'back' })).body.url).toBe(site.url);
  });

  it('keeps logs, notes, name, metadata, the activity timeline and storage', async () => {
    const logs = await api('GET', `/sessions/${sessionId}/logs`);
    expect(logs.body.entries.map((e: { text: string }) => e.text)).toContain('test page loaded');
    expect((await api('PUT', `/sessions/${sessionId}/notes`, { notes: 'Button works' })).body.notes).toBe('Button works');
    expect((await api('GET', `/sessions/${sessionId}/notes`)).body.notes).toBe('Button works');
    expect((await api('PUT', `/sessions/${sessionId}/name`, { name: 'Checkout v2' })).body.name).toBe('Checkout v2');
    expect((await api('PUT', `/sessions/${sessionId}/metadata`, { metadata: { ticket: 'QA-2' } })).body.metadata).toEqual({ ticket: 'QA-2' });
    expect((await api('POST', `/sessions/${sessionId}/activity`, { kind: 'custom', message: 'checked the cart' })).status).toBe(201);
    const timeline = await api('GET', `/sessions/${sessionId}/activities?size=200`);
    const kinds = timeline.body.content.map((a: { kind: string; detail: { action?: string } }) => a.detail.action ?? a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['lifecycle', 'openUrl', 'tap', 'text', 'key', 'rotate', 'swipe', 'longPress', 'home', 'back', 'screenshot', 'note', 'custom']));
    const text = timeline.body.content.find((a: { detail: { action?: string } }) => a.detail.action === 'text');
    expect(text.detail.text).toBe('[10 characters]');
    const storage = await api('GET', `/sessions/${sessionId}/storage`);
    expect(storage.body.artifacts).toBe(2);
    expect(storage.body.byType.screenshot.artifacts).toBe(2);
  });

  it('streams frames to a viewer, whose input changes the page, and shows who watches', async () => {
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
    const hello = await viewer.next((m) => m.type === 'hello');
    expect(hello).toMatchObject({ sessionId, canControl: true, screen: { width: 720, height: 1280 } });
    await viewer.framesAtLeast(1);
    expect(viewer.frames[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await api('GET', `/sessions/${sessionId}/viewers`)).body).toEqual([expect.objectContaining({ userId: 1, access: 'control', connections: 1 })]);
    const tree = await api('GET', `/sessions/${sessionId}/ui-tree`);
    const button = tree.body.root.children.find((n: { id?: string }) => n.id === 'target');
    const before = site.events.filter((e) => e.kind === 'tap').length;
    viewer.send({ type: 'input', id: 'in-1', action: { action: 'tap', x: button.bounds.x + 40, y: button.bounds.y + 40 } });
    expect(await viewer.next((m) => m.type === 'ack' && m.id === 'in-1')).toMatchObject({ action: 'tap' });
    await site.waitForEvent((e) => e.kind === 'tap' && site.events.filter((t) => t.kind === 'tap').length > before);
    viewer.socket.close();
    await viewer.closed;
    await eventually(async () => ((await api('GET', `/sessions/${sessionId}/viewers`)).body.length === 0 ? true : undefined), { what: 'the viewer to leave' });
  });

  it('accepts the token as the first message, and refuses a viewer without one', async () => {
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}`);
    viewer.send({ type: 'auth', token, workspaceId: 1 });
    await viewer.next((m) => m.type === 'hello');
    await viewer.framesAtLeast(1);
    viewer.socket.close();
    const anonymous = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}`);
    anonymous.send({ type: 'ping' });
    expect((await anonymous.closed).code).toBe(4401);
  });

  it('refuses a viewer and any access from another company as not found', async () => {
    const other = await http(server.url, 'POST', '/api/v1/auth/signup', { body: { email: 'rival@example.com', password: 'rival-password', name: 'Rival', companyName: 'Rival Inc' } });
    expect(other.status).toBe(201);
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}`, { authorization: `Bearer ${other.body.token}` });
    const closed = await viewer.closed;
    expect(closed.code).toBe(4404);
    expect(viewer.frames).toHaveLength(0);
    const read = await http(server.url, 'GET', `/df/api/sessions/${sessionId}`, { token: other.body.token });
    expect(read.status).toBe(404);
    expect(errorCode(read)).toBe('NOT_FOUND');
    const end = await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token: other.body.token });
    expect(end.status).toBe(404);
    expect(errorCode(end)).toBe('NOT_FOUND');
  });

  it('records the screen and replays the frames with the timeline', async () => {
    const started = await api('POST', `/sessions/${sessionId}/recording/start`);
    expect(started.body).toMatchObject({ recording: true });
    await eventually(async () => ((await api('GET', `/sessions/${sessionId}/recording/status`)).body.frames >= 2 ? true : undefined), { what: 'recorded frames' });
    const stopped = await api('POST', `/sessions/${sessionId}/recording/stop`);
    expect(stopped.body.recording).toBe(false);
    const replay = await api('GET', `/sessions/${sessionId}/replay`);
    expect(replay.body.recordings).toHaveLength(1);
    const frame = replay.body.recordings[0].frames[0];
    const jpeg = await fetch(new URL(frame.url, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(replay.body.activities.length).toBeGreaterThan(5);
  });

  it('ends: the device is freed, logs are kept, and the next session sees a clean profile', async () => {
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${token}`);
    await viewer.next((m) => m.type === 'hello');
    const ended = await api('DELETE', `/sessions/${sessionId}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: 'ended', endReason: 'user' });
    expect(await viewer.next((m) => m.type === 'ended')).toMatchObject({ reason: 'user' });
    expect((await viewer.closed).code).toBe(4000);
    expect((await api('GET', `/devices/${phoneId}`)).body.status).toBe('available');
    expect((await api('GET', `/sessions/${sessionId}/artifacts?type=log`)).body).toHaveLength(1);
    expect((await api('GET', `/sessions/${sessionId}/logs`)).body.entries.length).toBeGreaterThan(0);
    expect((await api('POST', `/sessions/${sessionId}/device/control`, { action: 'home' })).body.code).toBe('SESSION_NOT_ACTIVE');

    const next = await api('POST', '/sessions', { deviceId: phoneId, buildName: 'build-1' });
    expect(next.status).toBe(201);
    const storageEvents = site.events.filter((e) => e.kind === 'storage').length;
    await api('POST', `/sessions/${next.body.id}/device/control`, { action: 'openUrl', url: site.url });
    const seen = await site.waitForEvent((e) => e.kind === 'storage' && site.events.filter((s) => s.kind === 'storage').length > storageEvents);
    expect(seen.detail).toBe('none');
    await api('DELETE', `/sessions/${next.body.id}`);
  });

  it('lists sessions, builds, stats; ending again changes nothing; removing an ended session is its own, audited request', async () => {
    const list = await api('GET', '/sessions?status=ended');
    expect(list.body.totalElements).toBe(2);
    expect((await api('GET', '/sessions/builds')).body.content).toEqual([expect.objectContaining({ buildName: 'build-1', sessions: 2, activeSessions: 0 })]);
    expect((await api('GET', '/sessions/builds/build-1/sessions')).body.totalElements).toBe(2);
    const stats = await api('GET', '/sessions/stats');
    expect(stats.body).toMatchObject({ total: 2, active: 0, byStatus: { ended: 2 }, byType: { manual: 2 } });
    expect((await api('GET', '/sessions/company/active')).body.totalElements).toBe(0);
    // A retried DELETE of an ended session answers it unchanged: evidence is never removed by ending.
    const before = (await api('GET', `/sessions/${sessionId}`)).body;
    const again = await api('DELETE', `/sessions/${sessionId}`);
    expect([again.status, again.body]).toEqual([200, before]);
    expect((await api('GET', `/sessions/${sessionId}/artifacts`)).body.length).toBeGreaterThan(0);

    const me = (await http(server.url, 'GET', '/api/v1/users/me', { token })).body as { companyId: number };
    const folder = `df/company-${me.companyId}/sessions/${sessionId}`;
    expect(await server.process.platform.blobs.usage(folder)).toBeGreaterThan(0);
        const open = await api('POST', '/sessions', { deviceId: phoneId });
    expect(errorCode(await api('DELETE', `/sessions/${open.body.id}?purge=true`))).toBe('SESSION_OPEN');
    await api('DELETE', `/sessions/${open.body.id}`);

    expect((await api('DELETE', `/sessions/${sessionId}?purge=true`)).status).toBe(204);
    expect((await api('GET', `/sessions/${sessionId}`)).status).toBe(404);
    expect((await api('GET', `/sessions/${sessionId}/artifacts`)).status).toBe(404);
    expect(await server.process.platform.blobs.usage(folder)).toBe(0);
    expect((await api('DELETE', `/sessions/${sessionId}?purge=true`)).status).toBe(404);

    // The audit history keeps who opened and who removed it, and from where.
    const audit = await http(server.url, 'GET', `/api/v1/audit/events?sessionId=${sessionId}&size=50`, { token });
    const types = (audit.body.content as { eventType: string }[]).map((e) => e.eventType);
    expect(types[0]).toBe('DeviceSessionDeleted');
    expect(types).toContain('DeviceSessionRequested');
    expect(types).toContain('DeviceSessionEnded');
    expect(audit.body.content[0]).toMatchObject({ actorName: 'Administrator', actorEmail: ADMIN.email, clientAddress: '127.0.0.1', deviceId: phoneId });
  });
});
