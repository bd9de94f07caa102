import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { loadSigningKeys, type SigningKeys } from '#shared/auth/index.js';
import { DATA_PLANE_AUDIENCE, DATA_PLANE_TOKEN_TYPE, issueDataPlaneToken } from '#shared/auth/index.js';
import { DataPlaneServer } from './server.js';

/**
 * The agent's data-plane server over real HTTP and WebSockets, with tokens signed by the platform's
 * own key code: what it lets through, and every way it refuses.
 */
const HOST = 'host-a';
const DEVICE = 'device-1';
const SESSION = 'session-1';
let dir: string;
let keys: SigningKeys;
let server: DataPlaneServer;
const sessions = new Map<string, string | null>([[DEVICE, SESSION]]);
const echo = new WebSocketServer({ noServer: true });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dp-test-'));
  keys = await loadSigningKeys({ alg: 'EdDSA', dataDir: dir });
  server = new DataPlaneServer({ hostId: HOST, logger: pino({ level: 'silent' }), sessionOf: (d) => sessions.get(d) ?? null });
  server.addRoute({
    prefix: '/echo',
    scope: 'devtools',
    http(req, res, rest, claims) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ rest, claims, authorization: req.headers.authorization ?? null }));
    },
    upgrade(req, socket, head, rest) {
      echo.handleUpgrade(req, socket, head, (ws) => {
        ws.send(`hello ${rest}`);
        ws.on('message', (data) => ws.send(data.toString()));
      });
    },
  });
  await server.start();
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const token = (over: Partial<{ hostId: string; deviceId: string; sessionId: string; scope: string }> = {}, ttlSeconds = 30) =>
  issueDataPlaneToken(keys, { hostId: HOST, deviceId: DEVICE, sessionId: SESSION, scope: 'devtools', ...over }, { ttlSeconds }).then((t) => t.token);

const get = async (path: string, bearer?: string) => {
  const res = await fetch(`${server.url}${path}`, bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {});
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Opens a WebSocket; resolves with its first message, or with the HTTP status it was refused with. */
const upgrade = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; first?: string; ws?: WebSocket }>((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`, { headers });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.once('message', (data) => resolve({ status: 101, first: data.toString(), ws }));
    ws.once('error', reject);
  });

describe('before the service sent its keys', () => {
  it('refuses everything with 503', async () => {
    expect(server.ready).toBe(false);
    const res = await get(`/devices/${DEVICE}/echo/x`, await token());
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('DATA_PLANE_NOT_READY');
  });
});

describe('with the service\'s keys', () => {
  beforeAll(() => server.setKeys(keys.publicJwks));

  it('passes a valid token to the route, with the claims and without the token', async () => {
    const res = await get(`/devices/${DEVICE}/echo/json/version?x=1`, await token());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rest: '/json/version?x=1', claims: { hostId: HOST, deviceId: DEVICE, sessionId: SESSION, scope: 'devtools' }, authorization: null });
  });

  it('accepts the token as dp_token and removes it from the URL the route sees', async () => {
    const res = await get(`/devices/${DEVICE}/echo/a?dp_token=${await token()}&y=2`);
    expect(res.status).toBe(200);
    expect(res.body.rest).toBe('/a?y=2');
  });

  it('refuses a request without a token (401)', async () => {
    const res = await get(`/devices/${DEVICE}/echo/x`);
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('refuses a forged token: signed by another key with the same kid (401)', async () => {
    const { privateKey } = await generateKeyPair('EdDSA');
    const forged = await new SignJWT({ deviceId: DEVICE, sessionId: SESSION, scope: 'devtools' })
      .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid, typ: DATA_PLANE_TOKEN_TYPE })
      .setSubject(HOST)
      .setAudience(DATA_PLANE_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('30s')
      .sign(privateKey);
    expect((await get(`/devices/${DEVICE}/echo/x`, forged)).status).toBe(401);
    // The same claims signed by the real key pass: the signature alone made the difference.
    expect((await get(`/devices/${DEVICE}/echo/x`, await token())).status).toBe(200);
  });

  it('refuses an access token of the platform (another type and audience) (401)', async () => {
    const other = await new SignJWT({ deviceId: DEVICE, sessionId: SESSION, scope: 'devtools' })
      .setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: 'at+jwt' })
      .setSubject(HOST)
      .setIssuedAt()
      .setExpirationTime('30s')
      .sign(keys.privateKey);
    expect((await get(`/devices/${DEVICE}/echo/x`, other)).status).toBe(401);
  });

  it('refuses an expired token (401 TOKEN_EXPIRED) and one valid for longer than a minute (401)', async () => {
    const past = new Date(Date.now() - 120_000);
    const expired = (await issueDataPlaneToken(keys, { hostId: HOST, deviceId: DEVICE, sessionId: SESSION, scope: 'devtools' }, { ttlSeconds: 30, now: past })).token;
    expect(await get(`/devices/${DEVICE}/echo/x`, expired)).toMatchObject({ status: 401, body: { code: 'TOKEN_EXPIRED' } });
    const long = await new SignJWT({ deviceId: DEVICE, sessionId: SESSION, scope: 'devtools' })
      .setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: DATA_PLANE_TOKEN_TYPE })
      .setSubject(HOST)
      .setAudience(DATA_PLANE_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(keys.privateKey);
    expect((await get(`/devices/${DEVICE}/echo/x`, long)).status).toBe(401);
  });

  it('refuses another host, another scope, another device and a session the device is not in (403)', async () => {
    expect((await get(`/devices/${DEVICE}/echo/x`, await token({ hostId: 'host-b' }))).status).toBe(403);
    expect((await get(`/devices/${DEVICE}/echo/x`, await token({ scope: 'webdriver' }))).status).toBe(403);
    expect((await get(`/devices/${DEVICE}/echo/x`, await token({ deviceId: 'device-2' }))).status).toBe(403);
    expect((await get(`/devices/${DEVICE}/echo/x`, await token({ sessionId: 'session-old' }))).status).toBe(403);
  });

  it('refuses an unknown route or path (404)', async () => {
    expect((await get(`/devices/${DEVICE}/nothing`, await token())).status).toBe(404);
    expect((await get('/elsewhere', await token())).status).toBe(404);
  });

  it('refuses the same things on a WebSocket upgrade, and relays once the token is right', async () => {
    const path = `/devices/${DEVICE}/echo/devtools/page/1`;
    expect((await upgrade(path)).status).toBe(401);
    expect((await upgrade(path, { authorization: 'Bearer not-a-jwt' })).status).toBe(401);
    expect((await upgrade(path, { authorization: `Bearer ${await token({ scope: 'webdriver' })}` })).status).toBe(403);
    expect((await upgrade(path, { authorization: `Bearer ${await token({ sessionId: 'other' })}` })).status).toBe(403);
    const ok = await upgrade(path, { authorization: `Bearer ${await token()}` });
    expect(ok).toMatchObject({ status: 101, first: 'hello /devtools/page/1' });
    const reply = new Promise<string>((resolve) => ok.ws!.once('message', (d) => resolve(d.toString())));
    ok.ws!.send('ping');
    expect(await reply).toBe('ping');
    ok.ws!.close();
  });

  it('closes an open WebSocket when the device leaves the session', async () => {
    const ok = await upgrade(`/devices/${DEVICE}/echo/devtools/page/2`, { authorization: `Bearer ${await token()}` });
    expect(ok.status).toBe(101);
    const closed = new Promise<void>((resolve) => ok.ws!.once('close', () => resolve()));
    expect(server.openConnections).toBeGreaterThan(0);
    sessions.set(DEVICE, null);
    server.revalidate();
    await closed;
    expect(server.openConnections).toBe(0);
    // And new requests of that session are refused from now on.
    expect((await get(`/devices/${DEVICE}/echo/x`, await token())).status).toBe(403);
    sessions.set(DEVICE, SESSION);
  });

  it('refuses keys that are not public asymmetric keys', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { extractable: true });
    const priv = await exportJWK(privateKey);
    const probe = new DataPlaneServer({ hostId: HOST, logger: pino({ level: 'silent' }), sessionOf: () => SESSION });
    probe.setKeys({ keys: [{ ...priv, kid: 'x' }, { kty: 'oct', k: 'c2VjcmV0', kid: 'y' }] });
    expect(probe.ready).toBe(false);
  });
});
