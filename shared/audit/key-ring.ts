import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

/*
 * The keys a signature is checked with, for both documents the audit key signs (an export bundle's
 * checkpoints, a session's evidence). By default they are the ones the document carries, which proves
 * only that it was signed by whoever put those keys in it. Pinned (`dfctl audit verify --keys FILE`, the
 * installation's key set as `GET /api/v1/audit/keys` answered it, saved beforehand), a signature is
 * checked only with the pinned key of its id: an id the pinned set lacks fails by name, and so does a
 * key the document carries under a pinned id that is not the pinned key. Free of the platform's code on
 * purpose (the dfctl bundle takes this file as it is).
 */

/** An Ed25519 public key as the key set publishes it. */
export interface AuditPublicKey extends JsonWebKey {
  kid: string;
}

/** Thrown when a pinned key set does not read as `{keys: [{kty: "OKP", crv: "Ed25519", x, kid}]}`. */
export class KeySetError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function loaded(jwk: AuditPublicKey): KeyObject | null {
  try {
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return null;
  }
}

/** The keys of a key set's text (as `GET /api/v1/audit/keys` answers), or KeySetError saying why not. */
export function parseKeySet(text: string): AuditPublicKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeySetError('not JSON');
  }
  if (!isObject(parsed) || !Array.isArray(parsed.keys)) throw new KeySetError('not a key set: no "keys" array');
  if (parsed.keys.length === 0) throw new KeySetError('the key set holds no keys');
  const seen = new Set<string>();
  parsed.keys.forEach((k: unknown, i) => {
    if (!isObject(k) || k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string' || typeof k.kid !== 'string' || k.kid === '') {
      throw new KeySetError(`key ${i + 1} is not {kty: "OKP", crv: "Ed25519", x, kid}`);
    }
    if ('d' in k) throw new KeySetError(`key ${k.kid} holds a private part: pin the published keys only`);
    if (seen.has(k.kid)) throw new KeySetError(`two keys have the id ${k.kid}`);
    if (!loaded(k as AuditPublicKey)) throw new KeySetError(`key ${k.kid} is not an Ed25519 public key`);
    seen.add(k.kid);
  });
  return parsed.keys as AuditPublicKey[];
}

/** What a key id gives: the key to check with, or why there is none (`missing`: the carried set lacks it). */
export type KeyLookup = { key: KeyObject } | { missing: true } | { fault: string };

const spki = (key: KeyObject): Buffer => key.export({ format: 'der', type: 'spki' });

/** The keys signatures are checked with: those a document carries, or (pinned) only the given ones. */
export class KeyRing {
  private readonly carried = new Map<string, KeyObject | null>();
  private readonly pins: Map<string, KeyObject> | null;

  constructor(carried: readonly AuditPublicKey[], pinned?: readonly AuditPublicKey[]) {
    for (const k of carried) this.carried.set(k.kid, loaded(k));
    this.pins = pinned ? new Map() : null;
    for (const k of pinned ?? []) {
      const key = loaded(k);
      if (key) this.pins?.set(k.kid, key);
    }
  }

  /** Whether signatures are checked only with pinned keys. */
  get pinned(): boolean {
    return this.pins !== null;
  }

  /**
   * The key of `kid`. Not pinned: the carried key (a key that does not load is `missing`, and verifies
   * nothing). Pinned: the pinned key, when the document carries no other key under that id.
   */
  lookup(kid: string): KeyLookup {
    const carried = this.carried.get(kid);
    if (!this.pins) return carried ? { key: carried } : { missing: true };
    const pin = this.pins.get(kid);
    if (!pin) return { fault: `key ${kid} is not among the pinned keys` };
    if (this.carried.has(kid) && !(carried && spki(carried).equals(spki(pin)))) return { fault: `key ${kid} in the file differs from the pinned key of that id` };
    return { key: pin };
  }
}
