import { createHash, verify as verifySignature } from 'node:crypto';
import { KeyRing, type AuditPublicKey } from './key-ring.js';

export type { AuditPublicKey } from './key-ring.js';

/*
 * Verification of the history's chain, with nothing but Node.js: the server runs it over the database,
 * `dfctl audit verify` over an export bundle. Free of the platform's code on purpose (the dfctl bundle
 * takes this file as it is).
 *
 * An event is checked by hashing the previous hash and the bytes of its canonical encoding (the text the
 * database hashed, which the event carries as `encoded`): SHA-256(previous || encoded) must be its hash,
 * its number must follow the previous one's, and the encoding must name its chain and position. A
 * checkpoint is checked by its signature (Ed25519, a key of the set by its id, or of the pinned set:
 * key-ring.ts) and by the hash the walk computed at its number, which must be the head it signed.
 */

/** One event of a chain as verification takes it. */
export interface ChainEvent {
  seq: number;
  position: string;
  /** SHA-256, hex. */
  hash: string;
  /** The canonical encoding the hash covers (sql-chain.ts). */
  encoded: string;
}

/** A signed statement of a chain's head at one of its events. */
export interface Checkpoint {
  chain: string;
  seq: number;
  position: string;
  /** The chain's hash at `seq`, hex. */
  head: string;
  /** ISO 8601, when it was signed. */
  at: string;
  keyId: string;
  /** Ed25519 over `checkpointMessage`, base64url. */
  signature: string;
}

export interface VerifyResult {
  ok: boolean;
  /** Events checked. */
  events: number;
  /** Checkpoints checked. */
  checkpoints: number;
  /** Where the chain first breaks, when it does. */
  firstBadPosition?: string;
  reason?: string;
}

/** The bytes a checkpoint's signature covers. */
export function checkpointMessage(c: Omit<Checkpoint, 'signature' | 'keyId'> & { keyId: string }): Buffer {
  return Buffer.from(JSON.stringify(['qa-audit-checkpoint/1', c.chain, c.seq, c.position, c.head, c.at, c.keyId]), 'utf8');
}

/** The hash that follows `previous` (hex) for an event encoded as `encoded`. */
export function nextHash(previous: string, encoded: string): string {
  return createHash('sha256').update(Buffer.from(previous, 'hex')).update(encoded, 'utf8').digest('hex');
}

/** The previous hash of a chain's first event. */
export const GENESIS = '0'.repeat(64);

/**
 * Walks one chain in order: `event` and `checkpoint` as they come, then `finish`. Stops at the first
 * fault and keeps it. `anchor` is where the walk starts: the number and hash of the event before the
 * first one (0 and GENESIS from the chain's start).
 */
export class ChainWalk {
  private seq: number;
  private hash: string;
  private lastPosition: string | null = null;
  private readonly hashes = new Map<number, { hash: string; position: string }>();
  private readonly keys: KeyRing;
  private fault: { position: string | undefined; reason: string } | null = null;
  events = 0;
  checkpoints = 0;

  constructor(
    private readonly chain: string,
    anchor: { seq: number; hash: string },
    keys: readonly AuditPublicKey[] | KeyRing,
  ) {
    this.seq = anchor.seq;
    this.hash = anchor.hash;
    // A key that does not load verifies nothing; its checkpoints fail by name below.
    this.keys = keys instanceof KeyRing ? keys : new KeyRing(keys);
  }

  get failed(): boolean {
    return this.fault !== null;
  }

  event(e: ChainEvent): void {
    if (this.fault) return;
    if (e.seq !== this.seq + 1) {
      const what = e.seq > this.seq + 1 ? `events ${this.seq + 1}..${e.seq - 1} of the chain are missing` : `event ${e.seq} comes after ${this.seq}`;
      return this.fail(e.position, what);
    }
    const computed = nextHash(this.hash, e.encoded);
    if (computed !== e.hash) return this.fail(e.position, `event ${e.seq} does not match its hash (altered, moved or forged)`);
    if (!encodingNames(e.encoded, this.chain, e.position)) return this.fail(e.position, `event ${e.seq} is not of this chain or position`);
    this.seq = e.seq;
    this.hash = computed;
    this.lastPosition = e.position;
    this.hashes.set(e.seq, { hash: computed, position: e.position });
    this.events++;
  }

  checkpoint(c: Checkpoint): void {
    if (this.fault) return;
    const found = this.keys.lookup(c.keyId);
    if ('missing' in found) return this.fail(c.position, `checkpoint at ${c.seq} is signed by key ${c.keyId}, which the key set does not hold`);
    if ('fault' in found) return this.fail(c.position, `checkpoint at ${c.seq}: ${found.fault}`);
    const { key } = found;
    let valid = false;
    try {
      valid = c.chain === this.chain && verifySignature(null, checkpointMessage(c), key, Buffer.from(c.signature, 'base64url'));
    } catch {
      valid = false;
    }
    if (!valid) return this.fail(c.position, `checkpoint at ${c.seq} has an invalid signature`);
    const at = this.hashes.get(c.seq);
    if (!at) return this.fail(c.position, `checkpoint at ${c.seq} names an event the walk has not reached`);
    if (at.hash !== c.head || at.position !== c.position) return this.fail(c.position, `the chain at ${c.seq} is not the head its checkpoint signed`);
    this.checkpoints++;
    // Hashes before a verified checkpoint are not needed again.
    for (const seq of this.hashes.keys()) if (seq < c.seq) this.hashes.delete(seq);
  }

  /** A fault found outside the walk (an unreadable line, a head that moved). */
  fail(position: string | undefined, reason: string): void {
    this.fault ??= { position, reason };
  }

  /** The last event checked: its number, hash and position. */
  get head(): { seq: number; hash: string; position: string | null } {
    return { seq: this.seq, hash: this.hash, position: this.lastPosition };
  }

  finish(): VerifyResult {
    const base = { events: this.events, checkpoints: this.checkpoints };
    if (!this.fault) return { ok: true, ...base };
    return { ok: false, ...base, ...(this.fault.position !== undefined ? { firstBadPosition: this.fault.position } : {}), reason: this.fault.reason };
  }
}

function encodingNames(encoded: string, chain: string, position: string): boolean {
  try {
    const parsed: unknown = JSON.parse(encoded);
    return Array.isArray(parsed) && parsed[0] === chain && parsed[1] === position;
  } catch {
    return false;
  }
}

/** Thrown when a file is not an export bundle at all (no bundle header on its first line). */
export class NotABundleError extends Error {}

/** The first line of an export bundle. */
export interface BundleHeaderLine {
  format: 'qa-audit-bundle/1';
  chain: string;
  anchor: { seq: number; hash: string };
  keys: { keys: AuditPublicKey[] };
}

function headerOf(line: string | undefined): BundleHeaderLine {
  let parsed: Partial<BundleHeaderLine> | null = null;
  try {
    parsed = line === undefined ? null : (JSON.parse(line) as Partial<BundleHeaderLine>);
  } catch {
    parsed = null;
  }
  if (
    !parsed ||
    parsed.format !== 'qa-audit-bundle/1' ||
    typeof parsed.chain !== 'string' ||
    typeof parsed.anchor?.seq !== 'number' ||
    typeof parsed.anchor.hash !== 'string' ||
    !Array.isArray(parsed.keys?.keys)
  ) {
    throw new NotABundleError('not an audit export bundle: its first line is not a qa-audit-bundle/1 header');
  }
  return parsed as BundleHeaderLine;
}

/**
 * Verifies an export bundle (JSON lines: the header with the public keys, then `{event}` and
 * `{checkpoint}` items in chain order) without the server. A line that does not read is skipped and
 * named; the chain then breaks at the next event, whose position is reported. Given `pinned` keys,
 * checkpoints are checked with those only (key-ring.ts), not with the keys the header carries.
 */
export async function verifyBundle(lines: AsyncIterable<string> | Iterable<string>, pinned?: readonly AuditPublicKey[]): Promise<VerifyResult> {
  let walk: ChainWalk | null = null;
  let unreadable: string | null = null;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (walk === null) {
      const header = headerOf(line);
      walk = new ChainWalk(header.chain, header.anchor, new KeyRing(header.keys.keys, pinned));
      continue;
    }
    if (line.trim() === '') continue;
    const item = itemOf(line);
    if (item === null) unreadable ??= `line ${n} does not read as an event or a checkpoint`;
    else if ('event' in item) walk.event(item.event);
    else walk.checkpoint(item.checkpoint);
  }
  if (walk === null) throw new NotABundleError('not an audit export bundle: the file is empty');
  const result = walk.finish();
  if (!result.ok && unreadable) return { ...result, reason: `${unreadable}; ${result.reason ?? ''}` };
  if (result.ok && unreadable) return { ...result, ok: false, reason: unreadable };
  return result;
}

function itemOf(line: string): { event: ChainEvent } | { checkpoint: Checkpoint } | null {
  try {
    const parsed = JSON.parse(line) as { event?: ChainEvent; checkpoint?: Checkpoint };
    if (parsed.event && typeof parsed.event.seq === 'number' && typeof parsed.event.encoded === 'string') return { event: parsed.event };
    if (parsed.checkpoint && typeof parsed.checkpoint.seq === 'number' && typeof parsed.checkpoint.signature === 'string') return { checkpoint: parsed.checkpoint };
    return null;
  } catch {
    return null;
  }
}
