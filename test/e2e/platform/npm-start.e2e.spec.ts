import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'qa-npm-start-'));
let server: ChildServer | undefined;

afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  // A start through npm makes a new PGlite data directory (no test template): 12–16 s on a quiet machine,
  // past the default 30 s when the machine is busy; the wait itself is on the server's log, not on time.
  it('stops the server gracefully when SIGTERM reaches the npm process', { timeout: 120_000 }, async () => {
    server = await startChildServer({ DATA_DIR: dataDir, AGENT_ENABLED: 'false' }, { viaNpm: true });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    // npm's child is the server, run from the compiled bundle, not through a TypeScript loader.
    const serverPid = Number(readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8').trim().split(' ').at(-1));
    expect(readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0')).toEqual(['node', 'dist/server/main.mjs', '']);
    server.child.kill('SIGTERM');
    // The server itself logs the signal and its shutdown: it was the server, not only npm, that got it.
    await server.waitForLog((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM');
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});
