import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';
import { ConfigError } from '../config.js';

/** The asymmetric JWS algorithms the platform signs and accepts; never `none`, never HS*. */
export const SIGNING_ALGS = ['EdDSA', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** A public verification key as published in the JWKS: public members only. */
export interface PublicJwk {
  kty: 'OKP' | 'EC';
  crv: 'Ed25519' | 'P-256';
  x: string;
  y?: string;
  kid: string;
  alg: SigningAlg;
  use: 'sig';
}

export interface VerificationKey {
  alg: SigningAlg;
  key: CryptoKey;
}

export interface SigningKeys {
  alg: SigningAlg;
  kid: string;
  /** Not extractable: nothing downstream can export or log the private key material. */
  privateKey: CryptoKey;
  publicJwks: { keys: PublicJwk[] };
  /** Keys already imported once, so verification never imports a key per call. */
  verificationKeys: ReadonlyMap<string, VerificationKey>;
}

export interface LoadSigningKeysOptions {
  alg: SigningAlg;
  /** PKCS#8 PEM (JWT_PRIVATE_KEY); literal `\n` sequences from one-line env values are accepted. */
  privateKeyPem?: string | undefined;
  keyId?: string | undefined;
  /** JWKS JSON (JWT_EXTRA_JWKS) of older public keys still accepted during a rotation. */
  extraJwks?: string | undefined;
  dataDir: string;
}

/** What `<dataDir>/keys/signing-key.json` holds. */
export interface KeyFileRecord {
  alg: SigningAlg;
  kid: string;
  privateJwk: JWK;
  createdAt: string;
}

const CURVE_OF: Record<SigningAlg, { kty: 'OKP' | 'EC'; crv: 'Ed25519' | 'P-256' }> = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  ES256: { kty: 'EC', crv: 'P-256' },
};

/** Path of the generated signing key under the data directory. */
export function keyFilePath(dataDir: string): string {
  return join(dataDir, 'keys', 'signing-key.json');
}

/** Loads the configured, stored or newly generated signing key plus the rotation keys accepted beside it. */
export async function loadSigningKeys(options: LoadSigningKeysOptions): Promise<SigningKeys> {
  const { alg } = options;
  if (!SIGNING_ALGS.includes(alg)) {
    throw new ConfigError([{ variable: 'JWT_ALG', message: `must be one of ${SIGNING_ALGS.join(', ')}` }]);
  }

  let kid: string;
  let privateJwk: JWK;
  if (options.privateKeyPem !== undefined) {
    privateJwk = await privateJwkFromPem(options.privateKeyPem, alg);
    kid = options.keyId ?? (await calculateJwkThumbprint(publicPart(privateJwk, alg)));
  } else {
    const record = await loadOrCreateKeyFile(keyFilePath(options.dataDir), alg);
    privateJwk = record.privateJwk;
    kid = record.kid;
  }

  const current: PublicJwk = { ...publicPart(privateJwk, alg), kid, alg, use: 'sig' };
  // `publicPart` accepted the key type, so importing yields a CryptoKey, never raw `oct` bytes.
  const privateKey = await importJWK(privateJwk as JWK & { kty: PublicJwk['kty'] }, alg, { extractable: false });
  const publicJwks: PublicJwk[] = [current];
  const verificationKeys = new Map<string, VerificationKey>([[kid, { alg, key: await importJWK(current, alg) }]]);

  if (options.extraJwks !== undefined) {
    for (const extra of await parseExtraJwks(options.extraJwks)) {
      const existing = publicJwks.find((k) => k.kid === extra.kid);
      if (existing) {
        // Pasting the whole current JWKS into JWT_EXTRA_JWKS is harmless; the same kid naming another key is not.
        if ((await calculateJwkThumbprint(existing)) === (await calculateJwkThumbprint(extra))) continue;
        throw new ConfigError([
          { variable: 'JWT_EXTRA_JWKS', message: `kid "${extra.kid}" is already used by a different key` },
        ]);
      }
      publicJwks.push(extra);
      verificationKeys.set(extra.kid, { alg: extra.alg, key: await importJWK(extra, extra.alg) });
    }
  }

  return { alg, kid, privateKey, publicJwks: { keys: publicJwks }, verificationKeys };
}

async function privateJwkFromPem(pem: string, alg: SigningAlg): Promise<JWK> {
  const normalized = pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  try {
    // Extractable only here, to derive the public half and thumbprint; the signing key is re-imported sealed.
    const key = await importPKCS8(normalized.trim(), alg, { extractable: true });
    return await exportJWK(key);
  } catch (cause) {
    throw new ConfigError([
      {
        variable: 'JWT_PRIVATE_KEY',
        message: `not a PKCS#8 PEM private key usable with JWT_ALG=${alg} (${(cause as Error).message})`,
      },
    ]);
  }
}

function publicPart(jwk: JWK, alg?: SigningAlg): Pick<PublicJwk, 'kty' | 'crv' | 'x' | 'y'> {
  const kty = jwk.kty;
  const crv = jwk.crv;
  if (
    typeof jwk.x !== 'string' ||
    !((kty === 'OKP' && crv === 'Ed25519') || (kty === 'EC' && crv === 'P-256' && typeof jwk.y === 'string'))
  ) {
    throw new Error(`unsupported signing key type ${String(kty)}/${String(crv)}`);
  }
  if (alg !== undefined && (CURVE_OF[alg].kty !== kty || CURVE_OF[alg].crv !== crv)) {
    throw new Error(`a ${kty}/${crv} key cannot sign ${alg}`);
  }
  return kty === 'EC'
    ? { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y as string }
    : { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
}

function algOfCurve(kty: unknown, crv: unknown): SigningAlg | undefined {
  return SIGNING_ALGS.find((alg) => CURVE_OF[alg].kty === kty && CURVE_OF[alg].crv === crv);
}

async function parseExtraJwks(json: string): Promise<PublicJwk[]> {
  const fail = (message: string): never => {
    throw new ConfigError([{ variable: 'JWT_EXTRA_JWKS', message }]);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return fail('is not valid JSON');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return fail('must be a JWKS object {"keys": [...]}');

  const result: PublicJwk[] = [];
  for (const [i, raw] of keys.entries()) {
    const jwk = raw as JWK;
    const alg = algOfCurve(jwk?.kty, jwk?.crv);
    // Only the asymmetric curves we sign with: an `oct` key here would turn verification into a shared secret.
    if (!alg) return fail(`keys[${i}] must be an OKP/Ed25519 or EC/P-256 key`);
    if (jwk.alg !== undefined && jwk.alg !== alg) return fail(`keys[${i}] has alg ${jwk.alg} but is a ${alg} key`);
    if (jwk.use !== undefined && jwk.use !== 'sig') return fail(`keys[${i}] is not a signature key`);
    let pub: Pick<PublicJwk, 'kty' | 'crv' | 'x' | 'y'>;
    try {
      pub = publicPart(jwk, alg);
    } catch (cause) {
      return fail(`keys[${i}]: ${(cause as Error).message}`);
    }
    const kid = typeof jwk.kid === 'string' && jwk.kid !== '' ? jwk.kid : await calculateJwkThumbprint(pub);
    if (result.some((k) => k.kid === kid)) return fail(`kid "${kid}" appears twice`);
    result.push({ ...pub, kid, alg, use: 'sig' });
  }
  return result;
}

async function loadOrCreateKeyFile(file: string, alg: SigningAlg): Promise<KeyFileRecord> {
  let record: KeyFileRecord;
  try {
    record = await readKeyFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    record = await persistKeyFile(file, {
      alg,
      kid: await calculateJwkThumbprint(publicPart(privateJwk)),
      privateJwk,
      createdAt: new Date().toISOString(),
    });
  }
  if (record.alg !== alg) {
    throw new ConfigError([
      {
        variable: 'JWT_ALG',
        message:
          `is ${alg} but ${file} holds an ${record.alg} key; set JWT_ALG=${record.alg}, or move the file away ` +
          `(listing its public key in JWT_EXTRA_JWKS) to generate a new key`,
      },
    ]);
  }
  return record;
}

/** Reads and checks a stored key file; a malformed file is an error, never silently replaced. */
export async function readKeyFile(file: string): Promise<KeyFileRecord> {
  const text = await readFile(file, 'utf8');
  let record: Partial<KeyFileRecord>;
  try {
    record = JSON.parse(text) as Partial<KeyFileRecord>;
  } catch (cause) {
    throw new Error(`${file} is not valid JSON`, { cause });
  }
  const { alg, kid, privateJwk } = record;
  if (
    !alg ||
    !SIGNING_ALGS.includes(alg) ||
    typeof kid !== 'string' ||
    kid === '' ||
    typeof privateJwk !== 'object' ||
    privateJwk === null ||
    typeof privateJwk.d !== 'string'
  ) {
    throw new Error(`${file} is not a signing key file (expected {alg, kid, privateJwk})`);
  }
  try {
    publicPart(privateJwk, alg);
  } catch (cause) {
    throw new Error(`${file}: ${(cause as Error).message}`, { cause });
  }
  return { alg, kid, privateJwk, createdAt: String(record.createdAt ?? '') };
}

/**
 * Writes the record unless a key file already exists, and returns the record that is on disk.
 *
 * The content goes to a private temp file first, then `link` publishes it: like `rename` it is atomic,
 * so no reader sees a half-written key, but unlike `rename` it fails with EEXIST instead of replacing a
 * key another process published first. The loser re-reads, so racing first starts share one key.
 */
export async function persistKeyFile(file: string, record: KeyFileRecord): Promise<KeyFileRecord> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomUUID()}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(record, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, file);
    return record;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return await readKeyFile(file);
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}
