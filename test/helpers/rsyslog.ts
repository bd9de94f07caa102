import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './daemon.js';

/** Debian's rsyslog (`apt-get install rsyslog rsyslog-openssl`): the daemon and its OpenSSL network stream driver. */
const RSYSLOGD = ['/usr/sbin/rsyslogd', '/usr/local/sbin/rsyslogd'].find((p) => existsSync(p));
const OSSL_DRIVER = ['/usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_ossl.so', '/usr/lib/aarch64-linux-gnu/rsyslog/lmnsd_ossl.so', '/usr/lib/rsyslog/lmnsd_ossl.so'].find((p) => existsSync(p));

/** Whether this machine has rsyslog with its TLS driver, and openssl to make the test's certificates. */
export const rsyslogAvailable = RSYSLOGD !== undefined && OSSL_DRIVER !== undefined && existsSync('/usr/bin/openssl');

export interface TestSyslog {
  /** `tls://127.0.0.1:<port>` */
  url: string;
  /** The PEM file of the CA that signed the server's certificate. */
  caFile: string;
  /** The messages received so far, as they came (the raw RFC 5424 text of each). */
  messages(): string[];
  /** Stops the daemon (SIGTERM) and waits for it to end; the messages and the port stay. */
  stop(): Promise<void>;
  /** Starts it again on the same port, appending to the same file. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A CA and a server certificate for 127.0.0.1, made with openssl in `dir`. */
function makeCertificates(dir: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=QA test syslog CA']);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server-key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext']);
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/**
 * Debian's rsyslogd in the foreground (`rsyslogd -n -f <conf> -i <pidfile>`) with a configuration of its
 * own in a temporary directory: imtcp over the OpenSSL stream driver (TLS, anonymous clients) on a free
 * loopback port, octet-counted framing, every message written to a file with a template that keeps the
 * raw message.
 */
export async function startRsyslog(): Promise<TestSyslog> {
  if (!rsyslogAvailable) throw new Error('rsyslog with its TLS driver is not installed (apt-get install rsyslog rsyslog-openssl)');
  const dir = mkdtempSync(join(tmpdir(), 'qa-rsyslog-'));
  makeCertificates(dir);
  const port = await freePort();
  const out = join(dir, 'received.log');
  writeFileSync(out, '');
  writeFileSync(
    join(dir, 'rsyslog.conf'),
    [
      `global(workDirectory="${dir}" maxMessageSize="256k"`,
      `  DefaultNetstreamDriver="ossl" DefaultNetstreamDriverCAFile="${dir}/ca.pem"`,
      `  DefaultNetstreamDriverCertFile="${dir}/server.pem" DefaultNetstreamDriverKeyFile="${dir}/server-key.pem")`,
      `module(load="imtcp" StreamDriver.Name="ossl" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")`,
      `input(type="imtcp" port="${port}" address="127.0.0.1")`,
      `template(name="raw" type="string" string="%rawmsg%\\n")`,
      `action(type="omfile" file="${out}" template="raw")`,
    ].join('\n') + '\n',
  );
  let child: ChildProcess | null = null;
  let stderr = '';
  const start = async () => {
    stderr = '';
    const started = spawn(RSYSLOGD!, ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    started.stdout!.on('data', (d: Buffer) => (stderr += d.toString()));
    child = started;
    const deadline = Date.now() + 15_000;
    while (!(await listening(port))) {
      if (started.exitCode !== null) throw new Error(`rsyslogd ended at start (${started.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`rsyslogd did not listen on ${port}: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const ended = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await ended;
  };
  await start();
  return {
    url: `tls://127.0.0.1:${port}`,
    caFile: join(dir, 'ca.pem'),
    messages: () => readFileSync(out, 'utf8').split('\n').filter((line) => line !== ''),
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
