import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUpCompany, type Client } from '#test/helpers/org-api.js';
import { errorCode, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Secrets follow their address (docs/modules/identity.md, "Secrets"): a change of where a provider's
 * stored secret goes — an LDAP URL, an OpenID issuer or client id — without the secret itself is 400
 * SECRET_REQUIRED and changes nothing, so the stored bind password or client secret never reaches a
 * listener the editor chose. The listeners here are on loopback and record whatever reaches them.
 */
let server: TestServer;
let admin: Client;
let tcpListener: TcpServer;
let httpListener: HttpServer;
const tcpBytes: Buffer[] = [];
const httpRequests: string[] = [];

const portOf = (s: TcpServer | HttpServer) => (s.address() as AddressInfo).port;

beforeAll(async () => {
  tcpListener = createTcpServer((socket) => socket.on('data', (chunk) => tcpBytes.push(chunk)));
  await new Promise<void>((resolve) => tcpListener.listen(0, '127.0.0.1', resolve));
  httpListener = createHttpServer((req, res) => {
    httpRequests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => httpListener.listen(0, '127.0.0.1', resolve));
  server = await startTestServer();
  admin = client(server.url, (await signUpCompany(server.url, 'secret-address')).token);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => tcpListener?.close(resolve));
  await new Promise((resolve) => httpListener?.close(resolve));
});

const settingsOf = async (id: number) => {
  const { id: _id, type: _t, secretsSet: _s, createdAt: _c, updatedAt: _u, ...settings } = (await admin.get(`/identity-providers/${id}`)).body;
  return settings;
};

describe('a stored secret goes only where it was set for', () => {
  it('LDAP: a new URL without the bind password is 400 SECRET_REQUIRED, and "try the settings" sends nothing to it', { timeout: 60_000 }, async () => {
    const created = await admin.post('/identity-providers', {
      type: 'ldap',
      name: 'Directory',
      domains: ['dir.test'],
      config: { url: 'ldap://127.0.0.1:1', bindDn: 'cn=reader,dc=dir,dc=test', bindPassword: 'the bind password', userSearchBase: 'dc=dir,dc=test', userFilter: '(uid={{username}})' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const settings = await settingsOf(created.body.id);
    const moved = await admin.put(`/identity-providers/${created.body.id}`, { ...settings, config: { ...settings.config, url: `ldap://127.0.0.1:${portOf(tcpListener)}` } });
    expect(moved.status).toBe(400);
    expect(errorCode(moved)).toBe('SECRET_REQUIRED');
    expect(moved.body.message).toContain('bindPassword');
    expect((await admin.get(`/identity-providers/${created.body.id}`)).body.config.url).toBe('ldap://127.0.0.1:1');
    await admin.post(`/identity-providers/${created.body.id}/test`);
    expect(Buffer.concat(tcpBytes).length).toBe(0);
    // With the password sent again, the move is the administrator's own.
    const withPassword = await admin.put(`/identity-providers/${created.body.id}`, { ...settings, config: { ...settings.config, url: `ldap://127.0.0.1:${portOf(tcpListener)}`, bindPassword: 'a new one' } });
    expect(withPassword.status).toBe(200);
  });

  it('OpenID Connect: a new issuer or client id without the client secret is 400 SECRET_REQUIRED, and nothing reaches the new issuer', async () => {
    const created = await admin.post('/identity-providers', {
      type: 'oidc',
      name: 'Corp ID',
      domains: ['oidc-secret.test'],
      config: { issuer: 'http://127.0.0.1:1', clientId: 'qa', clientSecret: 'the client secret' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const settings = await settingsOf(created.body.id);
    for (const config of [{ ...settings.config, issuer: `http://127.0.0.1:${portOf(httpListener)}` }, { ...settings.config, clientId: 'another client' }]) {
      const moved = await admin.put(`/identity-providers/${created.body.id}`, { ...settings, config });
      expect(moved.status).toBe(400);
      expect(errorCode(moved)).toBe('SECRET_REQUIRED');
    }
    await admin.post(`/identity-providers/${created.body.id}/test`);
    expect(httpRequests).toEqual([]);
    // Other settings change without the secret, as before.
    expect((await admin.put(`/identity-providers/${created.body.id}`, { ...settings, name: 'Corp Login' })).status).toBe(200);
  });
});
