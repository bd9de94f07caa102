import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Current cost: N=2^15, r=8, p=1 (OWASP's scrypt minimum is N=2^17 with r=8; 2^15 keeps a login near
 * 50–100 ms on one libuv thread). Stored hashes carry their own parameters, so raising these only makes
 * `needsRehash` true for older hashes, which callers re-hash on the next successful login.
 */
const CURRENT = { N: 2 ** 15, r: 8, p: 1, saltBytes: 16, keyBytes: 32 } as const;

/** Bounds for parameters read back from storage, so a corrupt row cannot ask for gigabytes or minutes. */
const LIMITS = { maxMemoryBytes: 256 * 2 ** 20, maxP: 16 } as const;

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function derive(plain: string, salt: Buffer, keyBytes: number, N: number, r: number, p: number): Promise<Buffer> {
  // Node refuses when ~128*N*r exceeds maxmem (32 MiB by default, exactly what N=2^15, r=8 needs).
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  // One Unicode form, so the same password typed on different keyboards or platforms matches.
  const input = plain.normalize('NFC');
  return new Promise((resolve, reject) => {
    scrypt(input, salt, keyBytes, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function parse(stored: string): ParsedHash | undefined {
  if (typeof stored !== 'string') return undefined;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, nText, rText, pText, saltText, hashText] = parts as [string, string, string, string, string, string];
  if (![nText, rText, pText].every((t) => /^[1-9]\d{0,9}$/.test(t))) return undefined;
  const N = Number(nText);
  const r = Number(rText);
  const p = Number(pText);
  const logN = Math.log2(N);
  if (!Number.isInteger(logN) || logN < 1 || 128 * N * r > LIMITS.maxMemoryBytes || p > LIMITS.maxP) {
    return undefined;
  }
  if (!B64URL.test(saltText) || !B64URL.test(hashText)) return undefined;
  const salt = Buffer.from(saltText, 'base64url');
  const hash = Buffer.from(hashText, 'base64url');
  if (salt.length < 8 || hash.length < 16 || hash.length > 128) return undefined;
  return { N, r, p, salt, hash };
}

/** Hashes a password with scrypt into the self-describing `scrypt$N$r$p$salt$hash` form (base64url). */
export async function hashPassword(plain: string): Promise<string> {
  const { N, r, p, saltBytes, keyBytes } = CURRENT;
  const salt = randomBytes(saltBytes);
  const hash = await derive(plain, salt, keyBytes, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** True when `plain` matches `stored`; false for a wrong password or an unreadable stored hash. */
export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const candidate = await derive(plain, parsed.salt, parsed.hash.length, parsed.N, parsed.r, parsed.p);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with other parameters than the current ones (or cannot be read). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    !parsed ||
    parsed.N !== CURRENT.N ||
    parsed.r !== CURRENT.r ||
    parsed.p !== CURRENT.p ||
    parsed.salt.length !== CURRENT.saltBytes ||
    parsed.hash.length !== CURRENT.keyBytes
  );
}

/** A well-formed hash at the current cost that no password matches in practice (random salt, zero key). */
const DUMMY_HASH =
  `scrypt$${CURRENT.N}$${CURRENT.r}$${CURRENT.p}$${randomBytes(CURRENT.saltBytes).toString('base64url')}` +
  `$${Buffer.alloc(CURRENT.keyBytes).toString('base64url')}`;

/** Spends the time of a real verification and resolves false; call it when the account does not exist. */
export async function dummyVerify(plain = ''): Promise<false> {
  await verifyPassword(plain, DUMMY_HASH);
  return false;
}
