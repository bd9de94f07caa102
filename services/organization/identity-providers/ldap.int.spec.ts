import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { AppError } from '#shared/errors.js';
import { freePort } from '#test/helpers/daemon.js';
import { slapdAvailable, startSlapd, type TestDirectory } from '#test/helpers/slapd.js';
import { CHECK_FAILURE_MS, LdapDirectory } from './ldap.js';

let directory: TestDirectory;
let silent: Server;
const held: Socket[] = [];
let silentPort = 0;

const provider = (url: string, bindPassword = directory.adminPassword) =>
  ({ id: 1, name: 'Directory', type: 'ldap', config: { url, bindDn: directory.adminDn, bindPassword, userSearchBase: directory.suffix, userFilter: '(uid={{username}})' } }) as unknown as IdentityProviderRow;

/** The directory with the failures it logged; `resolve` answers every name with `answers` in turn. */
function ldap(allowPrivate: boolean, answers: string[] = []) {
  const logged: unknown[] = [];
  const lookups: string[] = [];
  const resolve = async (hostname: string) => {
    lookups.push(hostname);
    return [{ address: answers[Math.min(lookups.length, answers.length) - 1]!, family: 4 }];
  };
  return { dir: new LdapDirectory({ allowPrivate, resolve, logFailure: (err) => logged.push(err) }), logged, lookups };
}

/** How a check ended, and how long it took. */
async function timedCheck(dir: LdapDirectory, p: IdentityProviderRow) {
  const started = performance.now();
  const outcome = await dir.check(p).then(
    (ok) => ({ ok }),
    (err: unknown) => ({ code: err instanceof AppError ? err.code : String(err), message: (err as Error).message }),
  );
  return { outcome, ms: performance.now() - started };
}

beforeAll(async () => {
  if (!slapdAvailable) return;
  directory = await startSlapd();
  // A port that accepts and never answers: the slowest way to fail.
  silent = createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await directory?.stop();
});

describe.runIf(slapdAvailable)('directory connections', { timeout: 60_000 }, () => {
  it('refuses a directory at a loopback address where private addresses are not allowed, for a check and a sign-in, before any connection (AddressRefused)', async () => {
    const { dir, logged } = ldap(false, ['127.0.0.1']);
    const named = provider(directory.url.replace('127.0.0.1', 'directory.inside.test'));
    const { outcome } = await timedCheck(dir, named);
    expect(outcome).toMatchObject({ code: 'BAD_REQUEST' });
    expect(logged.map((e) => (e as Error).name)).toEqual(['AddressRefused']);
    await expect(dir.authenticate(named, 'alice', 'pw')).rejects.toMatchObject({ code: 'SSO_FAILED' });
    await expect(dir.authenticate(provider(directory.url), 'alice', 'pw')).rejects.toMatchObject({ code: 'SSO_FAILED' });
  });

  it('connects to the address it checked, though the name resolves elsewhere afterwards', async () => {
    const { dir, lookups } = ldap(true, ['127.0.0.1', '127.0.0.2']);
    const { outcome } = await timedCheck(dir, provider(directory.url.replace('127.0.0.1', 'directory.rebinding.test')));
    expect(outcome).toEqual({ ok: { searchBaseEntries: 1 } });
    expect(lookups).toEqual(['directory.rebinding.test']);
  });

  it('answers every failed check alike and at the same time: a closed port, a silent port, a refused account', async () => {
    const { dir } = ldap(true);
    const closed = `ldap://127.0.0.1:${await freePort()}`;
    const failures = await Promise.all([
      timedCheck(dir, provider(closed)),
      timedCheck(dir, provider(`ldap://127.0.0.1:${silentPort}`)),
      timedCheck(dir, provider(directory.url, 'not-the-password')),
    ]);
    const first = failures[0]!.outcome;
    expect(first).toMatchObject({ code: 'BAD_REQUEST' });
    for (const f of failures) {
      expect(f.outcome).toEqual(first);
      expect(f.ms).toBeGreaterThanOrEqual(CHECK_FAILURE_MS - 5);
      expect(f.ms).toBeLessThan(CHECK_FAILURE_MS + 1_000);
    }
    // A check that works is answered as soon as it is done.
    const ok = await timedCheck(dir, provider(directory.url));
    expect(ok.outcome).toEqual({ ok: { searchBaseEntries: 1 } });
    expect(ok.ms).toBeLessThan(CHECK_FAILURE_MS);
  });
});
