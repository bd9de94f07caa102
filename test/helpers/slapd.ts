import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { eventually } from './df-farm.js';
import { freePort } from './daemon.js';

/** Where Debian's `slapd` package puts the server, its modules and schemas. */
const SLAPD = ['/usr/sbin/slapd', '/usr/local/sbin/slapd'].find((p) => existsSync(p));
const MODULES = '/usr/lib/ldap';
const SCHEMAS = '/etc/ldap/schema';

/** Whether this machine has OpenLDAP's server and tools (`apt-get install slapd ldap-utils`). */
export const slapdAvailable = SLAPD !== undefined && existsSync(`${SCHEMAS}/inetorgperson.schema`);

export interface TestDirectory {
  url: string;
  suffix: string;
  adminDn: string;
  adminPassword: string;
  /** Adds entries (LDIF) with `ldapadd` as the directory's administrator. */
  add(ldif: string): Promise<void>;
  /** Changes entries (LDIF with `changetype`) with `ldapmodify`. */
  modify(ldif: string): Promise<void>;
  /** Removes an entry with `ldapdelete`. */
  remove(dn: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real OpenLDAP server (`slapd -f` with a slapd.conf of its own in a temporary directory) on a free
 * loopback port: an mdb database under `dc=corp,dc=test` with the core, cosine, inetOrgPerson and nis
 * schemas, and the password policy overlay, so an account can be locked as a directory locks it.
 */
export async function startSlapd(): Promise<TestDirectory> {
  if (!SLAPD) throw new Error('slapd is not installed (apt-get install slapd ldap-utils)');
  const dir = mkdtempSync(join(tmpdir(), 'qa-slapd-'));
  mkdirSync(join(dir, 'db'));
  const suffix = 'dc=corp,dc=test';
  const adminDn = `cn=admin,${suffix}`;
  const adminPassword = 'directory-admin-secret';
  writeFileSync(
    join(dir, 'slapd.conf'),
    [
      ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include ${SCHEMAS}/${s}.schema`),
      `modulepath ${MODULES}`,
      'moduleload back_mdb',
      'moduleload ppolicy',
      `pidfile ${join(dir, 'slapd.pid')}`,
      'database mdb',
      `suffix "${suffix}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${join(dir, 'db')}`,
      'maxsize 10485760',
      'overlay ppolicy',
      `ppolicy_default "cn=default-policy,${suffix}"`,
      // Anyone may authenticate; a signed-in user (and the search account) may read; passwords only to bind.
      'access to attrs=userPassword by anonymous auth by self write by * none',
      'access to * by users read by anonymous auth',
    ].join('\n') + '\n',
  );
  let child: ChildProcess | undefined;
  let url = '';
  // The free port may be taken between asking and slapd binding it: try a few.
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    url = `ldap://127.0.0.1:${await freePort()}`;
    const started = spawn(SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    started.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<boolean>((resolve) => started.once('exit', () => resolve(true)));
    const up = eventually(
      async () => {
        const c = new Client({ url, connectTimeout: 1_000 });
        try {
          await c.bind(adminDn, adminPassword);
          return true;
        } finally {
          await c.unbind().catch(() => undefined);
        }
      },
      { timeoutMs: 10_000, what: `slapd at ${url}` },
    ).catch(() => false);
    if ((await Promise.race([up, exited])) === true && started.exitCode === null) child = started;
    else if (attempt === 4) throw new Error(`slapd did not start: ${stderr}`);
  }
  const tool = (name: string, args: string[], input?: string) =>
    new Promise<void>((resolve, reject) => {
      const p = execFile(name, ['-x', '-H', url, '-D', adminDn, '-w', adminPassword, ...args], (err, _out, stderr) =>
        err ? reject(new Error(`${name}: ${stderr || err.message}`)) : resolve(),
      );
      if (input !== undefined) p.stdin!.end(input);
    });
  await tool(
    'ldapadd',
    [],
    `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: corp\no: Corp\n\n` +
      `dn: cn=default-policy,${suffix}\nobjectClass: organizationalRole\nobjectClass: pwdPolicy\ncn: default-policy\npwdAttribute: userPassword\npwdLockout: TRUE\n`,
  );
  return {
    url,
    suffix,
    adminDn,
    adminPassword,
    add: (ldif) => tool('ldapadd', [], ldif),
    modify: (ldif) => tool('ldapmodify', [], ldif),
    remove: (dn) => tool('ldapdelete', [dn]),
    async stop() {
      if (child && child.exitCode === null) {
        const gone = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
