import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceApks } from '#test/helpers/apps.js';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { eventually } from '#test/helpers/df-farm.js';
import { http } from '#test/helpers/server.js';

const dirs: string[] = [];
const children: ChildServer[] = [];
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ADMIN = { email: 'ops-admin@example.com', password: 'operations-password' };

describe('long-running operations across a crash', () => {
  it('a backfill whose process is killed is failed with a reason after the restart, and a new one finishes the work', { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qa-ops-'));
    dirs.push(dataDir);
    // A slow backfill (a pause between files), so the kill lands while it runs.
    const env = { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, AGENT_ENABLED: 'false', DF_BACKFILL_THROTTLE_MS: '1500' };
    const first = await startChildServer(env);
    children.push(first);
    const token = (await http(first.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const apk = readFileSync(referenceApks().settings);
    const fileIds: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const started = await http(first.url, 'POST', '/df/api/files/presigned-upload', { token, body: { name: `build-${i}.zip`, size: apk.length, contentType: 'application/zip' } });
      expect((await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: new Uint8Array(apk) })).status).toBe(200);
      expect((await http(first.url, 'POST', `/df/api/files/${started.body.fileId}/confirm`, { token })).body.kind).toBe('file');
      fileIds.push(started.body.fileId);
    }
    const backfill = await http(first.url, 'POST', '/df/api/files/apps/backfill', { token });
    expect(backfill.status).toBe(202);
    const operationId = backfill.body.operationId as string;
    await eventually(async () => {
      const op = (await http(first.url, 'GET', `/df/api/operations/${operationId}`, { token })).body;
      return op.state === 'running' && op.progress > 0 ? op : undefined;
    }, { what: 'the backfill to make progress', timeoutMs: 30_000 });
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startChildServer(env);
    children.push(second);
    try {
      const dead = await eventually(async () => {
        const op = (await http(second.url, 'GET', `/df/api/operations/${operationId}`, { token })).body;
        return op.state === 'running' ? undefined : op;
      }, { what: 'the dead backfill to be failed', timeoutMs: 60_000 });
      expect(dead).toMatchObject({ id: operationId, type: 'catalog-backfill', state: 'failed', error: { code: 'RUNNER_LOST', message: expect.stringContaining('stopped') } });
      expect(dead.progress).toBeLessThan(100);

      const again = await http(second.url, 'POST', '/df/api/files/apps/backfill', { token });
      const done = await eventually(async () => {
        const op = (await http(second.url, 'GET', `/df/api/operations/${again.body.operationId}`, { token })).body;
        return op.state === 'running' || op.state === 'pending' ? undefined : op;
      }, { what: 'the second backfill', timeoutMs: 60_000 });
      expect(done.state).toBe('succeeded');
      for (const id of fileIds) expect((await http(second.url, 'GET', `/df/api/files/${id}`, { token })).body.kind).toBe('app');
      const apps = (await http(second.url, 'GET', '/df/api/files/apps', { token })).body;
      expect(apps.content).toEqual([expect.objectContaining({ identifier: 'io.appium.settings', versionCount: 1 })]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
