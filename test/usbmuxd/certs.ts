import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The certificates of one pairing, as a device and its host keep them (PEM). Made per test run; never stored. */
export interface PairingCertificates {
  rootKey: Buffer;
  rootCert: Buffer;
  hostKey: Buffer;
  hostCert: Buffer;
  deviceKey: Buffer;
  deviceCert: Buffer;
}

/** A root CA and a host and a device certificate it signed, made with the `openssl` command. */
export async function makePairingCertificates(): Promise<PairingCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'usbmuxd-certs-'));
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir, timeout: 30_000 });
  try {
    await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.crt', '-days', '2', '-subj', '/CN=Test Root');
    await writeFile(join(dir, 'ext.cnf'), 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n');
    for (const who of ['host', 'device']) {
      await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${who}.key`, '-out', `${who}.csr`, '-subj', `/CN=Test ${who}`);
      await openssl('x509', '-req', '-in', `${who}.csr`, '-CA', 'root.crt', '-CAkey', 'root.key', '-CAcreateserial', '-out', `${who}.crt`, '-days', '2', '-extfile', 'ext.cnf');
    }
    const read = (name: string) => readFile(join(dir, name));
    return {
      rootKey: await read('root.key'),
      rootCert: await read('root.crt'),
      hostKey: await read('host.key'),
      hostCert: await read('host.crt'),
      deviceKey: await read('device.key'),
      deviceCert: await read('device.crt'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
