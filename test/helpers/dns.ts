import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { freePort } from './daemon.js';
import { eventually } from './df-farm.js';
import { http } from './server.js';

/** Debian's `dnsmasq` package (`apt-get install dnsmasq`). */
const DNSMASQ = '/usr/sbin/dnsmasq';
export const dnsmasqAvailable = existsSync(DNSMASQ);

/** The name whose TXT record says which start of the server answers: a restart is up when it serves its own number. */
const READY = '_ready.dnsmasq.test';

export interface TestDns {
  /** `127.0.0.1:<port>`: the value of `DNS_SERVERS`. */
  server: string;
  /** Adds a TXT record (and serves it once the method returns). */
  publish(name: string, value: string): Promise<void>;
  /** Removes every TXT record at `name`. */
  withdraw(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real DNS server on loopback (dnsmasq, UDP and TCP on a free port), answering only the TXT records it
 * is given and NXDOMAIN for any other name under `.test`: it forwards nothing anywhere. Records change by
 * a restart on the same port, waited for by querying it.
 */
export async function startDnsmasq(): Promise<TestDns> {
  if (!dnsmasqAvailable) throw new Error('dnsmasq is not installed (apt-get install dnsmasq)');
  const records = new Map<string, string[]>();
  const port = await freePort();
  const server = `127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let generation = 0;

  const stopChild = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await gone;
  };

  const start = async () => {
    await stopChild();
    generation += 1;
    const txt = [...records].flatMap(([name, values]) => values.map((v) => `--txt-record=${name},${v}`));
    const args = ['--no-resolv', '--no-hosts', '--keep-in-foreground', `--port=${port}`, '--listen-address=127.0.0.1', '--bind-interfaces', '--pid-file', '--local=/test/', `--txt-record=${READY},${generation}`, ...txt];
    const c = spawn(DNSMASQ, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child = c;
    const resolver = new Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([server]);
    const want = String(generation);
    await eventually(
      async () => {
        if (c.exitCode !== null) throw new Error(`dnsmasq exited (${c.exitCode}): ${stderr}`);
        const answer = await resolver.resolveTxt(READY);
        return answer.some((r) => r.join('') === want) ? true : undefined;
      },
      { timeoutMs: 10_000, what: `dnsmasq on ${server}` },
    );
  };

  await start();
  return {
    server,
    async publish(name, value) {
      records.set(name, [...(records.get(name) ?? []), value]);
      await start();
    },
    async withdraw(name) {
      records.delete(name);
      await start();
    },
    stop: stopChild,
  };
}

/** Claims `domain` for the token's company, publishes its TXT record in `dns` and verifies it; the verified domain. */
export async function verifyDomain(serverUrl: string, token: string, domain: string, dns: TestDns): Promise<{ domain: string; verifiedAt: string }> {
  const claimed = await http(serverUrl, 'POST', '/api/v1/domains', { token, body: { domain } });
  if (claimed.status !== 201) throw new Error(`claiming ${domain}: ${claimed.status} ${JSON.stringify(claimed.body)}`);
  await dns.publish(claimed.body.verification.name, claimed.body.verification.value);
  const verified = await http(serverUrl, 'POST', `/api/v1/domains/${domain}/verify`, { token });
  if (verified.status !== 200) throw new Error(`verifying ${domain}: ${verified.status} ${JSON.stringify(verified.body)}`);
  return verified.body;
}
