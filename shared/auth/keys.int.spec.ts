import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importSPKI,
  jwtVerify,
  type JWK,
} from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import {
  keyFilePath,
  loadSigningKeys,
  persistKeyFile,
  readKeyFile,
  type SigningAlg,
  type SigningKeys,
} from './keys.js';
import { createTokenService } from './tokens.js';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'auth-keys-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const verifierOf = (keys: SigningKeys) => createTokenService({ keys, issuer: 'test', accessTtlMs: 60_000 });
const tokenFrom = async (keys: SigningKeys) =>
  (await verifierOf(keys).issueAccessToken({ userId: 1, companyId: 1 })).token;

async function newPem(alg: SigningAlg): Promise<{ pem: string; spki: string; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return {
    pem: await exportPKCS8(privateKey),
    spki: await exportSPKI(publicKey),
    publicJwk: await exportJWK(publicKey),
  };
}

describe.each(['EdDSA', 'ES256'] as const)('signing keys kept under DATA_DIR (%s)', (alg) => {
  it('generates a key on first start and stores it readable by the owner only', async () => {
    const keys = await loadSigningKeys({ alg, dataDir });

    const file = keyFilePath(dataDir);
    expect(file).toBe(join(dataDir, 'keys', 'signing-key.json'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { alg: string; kid: string; privateJwk: JWK };
    expect(stored.alg).toBe(alg);
    expect(stored.kid).toBe(keys.kid);
    expect(typeof stored.privateJwk.d).toBe('string');
  });

  it('reloads the same key with the same kid on the next start', async () => {
    const first = await loadSigningKeys({ alg, dataDir });
    const second = await loadSigningKeys({ alg, dataDir });

    expect(second.kid).toBe(first.kid);
    expect(second.publicJwks).toEqual(first.publicJwks);
    // Same private key, not just the same file: the restarted process accepts tokens of the first.
    await expect(verifierOf(second).verifyAccessToken(await tokenFrom(first))).resolves.toMatchObject({ userId: 1 });
  });

  it('names a generated key by its RFC 7638 thumbprint', async () => {
    const keys = await loadSigningKeys({ alg, dataDir });
    expect(keys.kid).toBe(await calculateJwkThumbprint(keys.publicJwks.keys[0]!));
  });

  it('publishes only the public members of the key', async () => {
    const keys = await loadSigningKeys({ alg, dataDir });

    expect(keys.publicJwks.keys).toHaveLength(1);
    const jwk = keys.publicJwks.keys[0]!;
    const members = ['alg', 'crv', 'kid', 'kty', 'use', 'x', ...(alg === 'ES256' ? ['y'] : [])];
    expect(Object.keys(jwk).sort()).toEqual(members);
    expect(jwk).toMatchObject({ alg, kid: keys.kid, use: 'sig' });
  });

  it('keeps the private key non-extractable once loaded', async () => {
    const keys = await loadSigningKeys({ alg, dataDir });
    expect(keys.privateKey.extractable).toBe(false);
    await expect(exportJWK(keys.privateKey)).rejects.toThrow();
  });

  it('agrees on one key when several processes start at once on an empty directory', async () => {
    const all = await Promise.all(Array.from({ length: 6 }, () => loadSigningKeys({ alg, dataDir })));

    expect(new Set(all.map((k) => k.kid)).size).toBe(1);
    const stored = await readKeyFile(keyFilePath(dataDir));
    expect(stored.kid).toBe(all[0]!.kid);
    // Each one signs with the key on disk, so any of them accepts the others' tokens.
    for (const keys of all) {
      await expect(verifierOf(all[0]!).verifyAccessToken(await tokenFrom(keys))).resolves.toBeDefined();
    }
    expect(await readdir(join(dataDir, 'keys'))).toEqual(['signing-key.json']);
  });
});

describe('persistKeyFile', () => {
  async function record(alg: SigningAlg) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    return { alg, kid: await calculateJwkThumbprint(privateJwk), privateJwk, createdAt: new Date().toISOString() };
  }

  it('keeps the key already published and returns it to the process that lost the race', async () => {
    const file = keyFilePath(dataDir);
    const winner = await record('EdDSA');
    const loser = await record('EdDSA');

    expect(await persistKeyFile(file, winner)).toEqual(winner);
    expect(await persistKeyFile(file, loser)).toEqual(winner);

    expect(await readKeyFile(file)).toEqual(winner);
    expect(await readdir(dirname(file))).toEqual(['signing-key.json']);
  });
});

describe('stored key problems', () => {
  it('refuses a stored key of another algorithm than JWT_ALG, naming the variable', async () => {
    await loadSigningKeys({ alg: 'EdDSA', dataDir });

    const err = await loadSigningKeys({ alg: 'ES256', dataDir }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues[0]!.variable).toBe('JWT_ALG');
  });

  it('refuses a corrupt key file and leaves it in place rather than replacing the key', async () => {
    const file = keyFilePath(dataDir);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '{"alg":"EdDSA"', { mode: 0o600 });

    await expect(loadSigningKeys({ alg: 'EdDSA', dataDir })).rejects.toThrow(/not valid JSON/);
    expect(await readFile(file, 'utf8')).toBe('{"alg":"EdDSA"');
  });
});

describe('a configured PEM key (JWT_PRIVATE_KEY)', () => {
  it.each(['EdDSA', 'ES256'] as const)('signs with the %s PEM and writes nothing under DATA_DIR', async (alg) => {
    const { pem, spki } = await newPem(alg);

    const keys = await loadSigningKeys({ alg, privateKeyPem: pem, dataDir });

    const { payload } = await jwtVerify(await tokenFrom(keys), await importSPKI(spki, alg));
    expect(payload.sub).toBe('1');
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('derives a stable kid from the key when JWT_KEY_ID is not set', async () => {
    const { pem, publicJwk } = await newPem('EdDSA');

    const a = await loadSigningKeys({ alg: 'EdDSA', privateKeyPem: pem, dataDir });
    const b = await loadSigningKeys({ alg: 'EdDSA', privateKeyPem: pem, dataDir });

    expect(a.kid).toBe(await calculateJwkThumbprint(publicJwk));
    expect(b.kid).toBe(a.kid);
  });

  it('uses JWT_KEY_ID as the kid when set', async () => {
    const { pem } = await newPem('ES256');
    const keys = await loadSigningKeys({ alg: 'ES256', privateKeyPem: pem, keyId: 'key-2025-01', dataDir });

    expect(keys.kid).toBe('key-2025-01');
    expect([...keys.verificationKeys.keys()]).toEqual(['key-2025-01']);
    expect(keys.publicJwks.keys[0]!.kid).toBe('key-2025-01');
  });

  it('accepts a PEM written on one line with literal \\n, as env files often carry it', async () => {
    const { pem } = await newPem('EdDSA');
    const oneLine = pem.trim().replace(/\n/g, '\\n');

    const a = await loadSigningKeys({ alg: 'EdDSA', privateKeyPem: oneLine, dataDir });
    const b = await loadSigningKeys({ alg: 'EdDSA', privateKeyPem: pem, dataDir });

    expect(a.kid).toBe(b.kid);
  });

  it.each([
    ['garbage', async () => 'not a pem'],
    ['a key of the other algorithm', async () => (await newPem('ES256')).pem],
  ])('refuses %s as JWT_PRIVATE_KEY', async (_name, pemOf) => {
    const err = await loadSigningKeys({ alg: 'EdDSA', privateKeyPem: await pemOf(), dataDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues[0]!.variable).toBe('JWT_PRIVATE_KEY');
  });
});

describe('extra JWKS for rotation (JWT_EXTRA_JWKS)', () => {
  it('verifies tokens of the old key and publishes it beside the new one', async () => {
    const old = await loadSigningKeys({ alg: 'EdDSA', privateKeyPem: (await newPem('EdDSA')).pem, dataDir });
    const oldToken = await tokenFrom(old);

    const current = await loadSigningKeys({ alg: 'EdDSA', extraJwks: JSON.stringify(old.publicJwks), dataDir });

    await expect(verifierOf(current).verifyAccessToken(oldToken)).resolves.toMatchObject({ userId: 1 });
    expect(current.publicJwks.keys.map((k) => k.kid)).toEqual([current.kid, old.kid]);
    expect([...current.verificationKeys.keys()]).toEqual([current.kid, old.kid]);
  });

  it('strips private members from an extra key and names a kid-less key by its thumbprint', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);

    const keys = await loadSigningKeys({ alg: 'EdDSA', extraJwks: JSON.stringify({ keys: [privateJwk] }), dataDir });

    const extra = keys.publicJwks.keys[1]!;
    expect(extra).not.toHaveProperty('d');
    expect(extra).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(extra.kid).toBe(await calculateJwkThumbprint(privateJwk));
  });

  it('tolerates the current key listed again, but not its kid on a different key', async () => {
    const first = await loadSigningKeys({ alg: 'EdDSA', dataDir });
    const again = await loadSigningKeys({ alg: 'EdDSA', extraJwks: JSON.stringify(first.publicJwks), dataDir });
    expect(again.publicJwks.keys).toHaveLength(1);

    const { publicJwk } = await newPem('EdDSA');
    const clash = JSON.stringify({ keys: [{ ...publicJwk, kid: first.kid }] });
    await expect(loadSigningKeys({ alg: 'EdDSA', extraJwks: clash, dataDir })).rejects.toBeInstanceOf(ConfigError);
  });

  it.each([
    ['invalid JSON', '{'],
    ['a bare array', '[]'],
    ['a symmetric key', JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 'hs' }] })],
    ['an RSA key', JSON.stringify({ keys: [{ kty: 'RSA', n: 'AQAB', e: 'AQAB', kid: 'rsa' }] })],
    ['an encryption key', JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'AAAA', use: 'enc' }] })],
    [
      'a key whose alg contradicts its curve',
      JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'AAAA', alg: 'ES256' }] }),
    ],
  ])('refuses %s as JWT_EXTRA_JWKS', async (_name, extraJwks) => {
    const err = await loadSigningKeys({ alg: 'EdDSA', extraJwks, dataDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues[0]!.variable).toBe('JWT_EXTRA_JWKS');
  });
});
