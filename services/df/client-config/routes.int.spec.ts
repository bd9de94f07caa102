import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '#shared/http/errors.js';
import { ClientPackages } from './packages.js';
import { clientConfigRoutes, DfctlFiles } from './routes.js';

/** dfctl's and the client packages' manifests and downloads on their own, over folders the test controls (built or not). */
const apps: FastifyInstance[] = [];
const PACKAGES = [
  { name: '@qa-platform/client', version: '9.9.9' },
  { name: '@qa-platform/wdio-service', version: '9.9.8' },
];
async function appOver(dir: string, appUrl?: string, packagesDir = dir): Promise<FastifyInstance> {
  const app = fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await app.register(clientConfigRoutes, { prefix: '/df', sessionIdleTimeoutSeconds: 900, dfctl: new DfctlFiles(dir, '9.9.9'), packages: new ClientPackages(packagesDir, PACKAGES), ...(appUrl ? { appUrl } : {}) });
  apps.push(app);
  return app;
}

afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

describe('dfctl downloads', () => {
  it('answers 503 DFCTL_NOT_BUILT until the files exist, then serves them, read once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dfctl-dist-'));
    const app = await appOver(dir);
    for (const url of ['/df/api/client-config/dfctl-manifest', '/df/downloads/dfctl/dfctl.cjs']) {
      const r = await app.inject({ url, headers: { host: 'farm.test:8443' } });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ code: 'DFCTL_NOT_BUILT', message: 'dfctl 9.9.9 is not built on this server; run npm run build:dfctl there' });
    }

    const script = Buffer.from('#!/usr/bin/env node\nconsole.log("9.9.9")\n');
    const tgz = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    writeFileSync(join(dir, 'dfctl.cjs'), script);
    writeFileSync(join(dir, 'dfctl-9.9.9.tgz'), tgz);
    const m = await app.inject({ url: '/df/api/client-config/dfctl-manifest', headers: { host: 'farm.test:8443' } });
    expect(m.statusCode).toBe(200);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(m.json()).toEqual({
      name: 'dfctl',
      version: '9.9.9',
      node: '>=20',
      files: [
        { kind: 'npm-tarball', name: 'dfctl-9.9.9.tgz', url: 'http://farm.test:8443/df/downloads/dfctl/dfctl-9.9.9.tgz', sha256: sha(tgz), size: tgz.length },
        { kind: 'script', name: 'dfctl.cjs', url: 'http://farm.test:8443/df/downloads/dfctl/dfctl.cjs', sha256: sha(script), size: script.length },
      ],
      install: 'npm install -g http://farm.test:8443/df/downloads/dfctl/dfctl-9.9.9.tgz',
    });

    const got = await app.inject({ url: '/df/downloads/dfctl/dfctl.cjs' });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(got.headers['content-length']).toBe(String(script.length));
    expect(got.rawPayload.equals(script)).toBe(true);
    const head = await app.inject({ method: 'HEAD', url: '/df/downloads/dfctl/dfctl-9.9.9.tgz' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/gzip');
    expect(head.headers.etag).toBe(`"${sha(tgz).slice(0, 32)}"`);
    // Read once: a changed file on disk is not served until the process restarts.
    writeFileSync(join(dir, 'dfctl.cjs'), 'changed');
    expect((await app.inject({ url: '/df/downloads/dfctl/dfctl.cjs' })).rawPayload.equals(script)).toBe(true);
    const unknown = await app.inject({ url: '/df/downloads/dfctl/..%2Fpackage.json' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
  });

  it('names the operator\'s public address (APP_URL) when one is set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dfctl-dist-'));
    writeFileSync(join(dir, 'dfctl.cjs'), 'x');
    writeFileSync(join(dir, 'dfctl-9.9.9.tgz'), 'y');
    const app = await appOver(dir, 'https://farm.example.com/');
    const m = await app.inject({ url: '/df/api/client-config/dfctl-manifest', headers: { host: '10.0.0.5:8080' } });
    expect(m.json().files.map((f: { url: string }) => f.url)).toEqual(['https://farm.example.com/df/downloads/dfctl/dfctl-9.9.9.tgz', 'https://farm.example.com/df/downloads/dfctl/dfctl.cjs']);
  });
});

describe('client package downloads', () => {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  it('answers 503 CLIENTS_NOT_BUILT naming the missing tarball, then lists and serves them; unknown names are 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clients-dist-'));
    const app = await appOver(mkdtempSync(join(tmpdir(), 'dfctl-dist-')), undefined, dir);
    const client = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1]);
    const wdio = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 2, 2]);
    writeFileSync(join(dir, 'qa-platform-client-9.9.9.tgz'), client);
    for (const url of ['/df/api/client-config/packages-manifest', '/df/downloads/packages/qa-platform-client-9.9.9.tgz']) {
      const r = await app.inject({ url, headers: { host: 'farm.test:8443' } });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ code: 'CLIENTS_NOT_BUILT', message: 'The client packages are not built on this server (qa-platform-wdio-service-9.9.8.tgz missing); run npm run build:clients there' });
    }

    writeFileSync(join(dir, 'qa-platform-wdio-service-9.9.8.tgz'), wdio);
    const m = await app.inject({ url: '/df/api/client-config/packages-manifest', headers: { host: 'farm.test:8443' } });
    expect(m.statusCode).toBe(200);
    const base = 'http://farm.test:8443/df/downloads/packages';
    expect(m.json()).toEqual({
      node: '>=20',
      packages: [
        { name: '@qa-platform/client', version: '9.9.9', file: 'qa-platform-client-9.9.9.tgz', url: `${base}/qa-platform-client-9.9.9.tgz`, sha256: sha(client), size: client.length, install: `npm install ${base}/qa-platform-client-9.9.9.tgz` },
        { name: '@qa-platform/wdio-service', version: '9.9.8', file: 'qa-platform-wdio-service-9.9.8.tgz', url: `${base}/qa-platform-wdio-service-9.9.8.tgz`, sha256: sha(wdio), size: wdio.length, install: `npm install ${base}/qa-platform-wdio-service-9.9.8.tgz` },
      ],
      install: `npm install ${base}/qa-platform-client-9.9.9.tgz ${base}/qa-platform-wdio-service-9.9.8.tgz`,
    });

    const got = await app.inject({ url: '/df/downloads/packages/qa-platform-wdio-service-9.9.8.tgz' });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/gzip');
    expect(got.headers['content-disposition']).toBe('attachment; filename="qa-platform-wdio-service-9.9.8.tgz"');
    expect(got.rawPayload.equals(wdio)).toBe(true);
    const again = await app.inject({ url: '/df/downloads/packages/qa-platform-client-9.9.9.tgz', headers: { 'if-none-match': `"${sha(client).slice(0, 32)}"` } });
    expect(again.statusCode).toBe(304);
    // Only the names the manifest lists: a file beside them, another version or a path out of the folder is not served.
    writeFileSync(join(dir, 'other-1.0.0.tgz'), 'z');
    for (const name of ['other-1.0.0.tgz', 'qa-platform-client-9.9.8.tgz', '..%2F..%2Fpackage.json', '%2Fetc%2Fpasswd']) {
      const unknown = await app.inject({ url: `/df/downloads/packages/${name}` });
      expect(unknown.statusCode, name).toBe(404);
      expect(unknown.json(), name).toMatchObject({ code: 'NOT_FOUND', message: `No client package file named ${decodeURIComponent(name)}; GET /df/api/client-config/packages-manifest lists them` });
    }
  });

  it("names the operator's public address (APP_URL) when one is set", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clients-dist-'));
    writeFileSync(join(dir, 'qa-platform-client-9.9.9.tgz'), 'a');
    writeFileSync(join(dir, 'qa-platform-wdio-service-9.9.8.tgz'), 'b');
    const app = await appOver(mkdtempSync(join(tmpdir(), 'dfctl-dist-')), 'https://farm.example.com/', dir);
    const m = await app.inject({ url: '/df/api/client-config/packages-manifest', headers: { host: '10.0.0.5:8080' } });
    expect(m.json().install).toBe('npm install https://farm.example.com/df/downloads/packages/qa-platform-client-9.9.9.tgz https://farm.example.com/df/downloads/packages/qa-platform-wdio-service-9.9.8.tgz');
  });
});
