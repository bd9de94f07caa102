import { loadSecretBox } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { ChainWalk, type AuditPublicKey, type BundleHeaderLine, type VerifyResult } from '#shared/audit/verify-chain.js';
import type { Platform } from '../../platform.js';
import type { EvidenceEvent } from '#shared/audit/session-evidence.js';
import { anchorOf, chainHeadSeq, chainItems, seqRange, streamsChainEvents, type Bound, type ChainItem } from './chain-reads.js';
import { Checkpointer } from './checkpoints.js';
import { AuditSigningKeys, migrateAuditChain } from './signing-keys.js';

/** What an export bundle's first line says; the lines after it are `{event}` and `{checkpoint}` items. */
export interface BundleHeader extends BundleHeaderLine {
  companyId: number;
  exportedAt: string;
}

/** The chain a company's events form. */
export const companyChain = (companyId: number) => `company:${companyId}`;

const MAX_POSITION = 2n ** 63n - 1n;

/** A range's bound as a query gives it: a position (digits) or an ISO 8601 time, never in the future. */
export function parseBound(text: string | undefined, name: string, now: Date): Bound | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) {
    const position = BigInt(text);
    if (position > MAX_POSITION) throw new AppError('VALIDATION_FAILED', `${name}: a position is at most ${MAX_POSITION}`);
    return { position };
  }
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) throw new AppError('VALIDATION_FAILED', `${name}: a position (digits) or an ISO 8601 time`);
  if (time.getTime() > now.getTime()) throw new AppError('VALIDATION_FAILED', `${name}: ${text} is in the future`);
  return { time };
}

function assertOrdered(from: Bound | undefined, to: Bound | undefined): void {
  if (!from || !to) return;
  const later =
    'position' in from && 'position' in to ? from.position > to.position : 'time' in from && 'time' in to ? from.time > to.time : false;
  if (later) throw new AppError('VALIDATION_FAILED', 'from is after to');
}

/** The history's chain as the organization module serves it: keys, checkpoints, verification and export. */
export class AuditChain {
  readonly keys: AuditSigningKeys;
  readonly checkpoints: Checkpointer;
  private migrated: Promise<void> | null = null;

  constructor(private readonly platform: Platform) {
    const { config } = platform;
    const box = loadSecretBox({ key: config.SECRETS_KEY, previousKeys: config.SECRETS_PREVIOUS_KEYS, dataDir: config.DATA_DIR });
    this.keys = new AuditSigningKeys(platform.db, box, platform.now);
    this.checkpoints = new Checkpointer(platform.db, this.keys, {
      everyEvents: config.AUDIT_CHECKPOINT_EVENTS,
      everyMs: config.AUDIT_CHECKPOINT_INTERVAL,
      now: platform.now,
    });
  }

  /**
   * Creates the tables (once per process). On the KurrentDB store, whose events carry no chain, every use
   * is refused with 501 `AUDIT_CHAIN_UNAVAILABLE` instead of failing on columns that are not there.
   */
  ready(): Promise<void> {
    if (this.platform.config.EVENTSTORE_URL) {
      return Promise.reject(new AppError('AUDIT_CHAIN_UNAVAILABLE', "This installation's event store (KurrentDB) keeps no chain of the history: it cannot be verified, exported or signed"));
    }
    this.migrated ??= migrateAuditChain(this.platform.db);
    return this.migrated;
  }

  async start(): Promise<void> {
    // KurrentDB's events carry no chain: nothing to checkpoint.
    if (this.platform.config.EVENTSTORE_URL) return;
    await this.ready();
    this.checkpoints.start((err) => this.platform.logger.warn({ err }, 'audit checkpoint pass failed'));
  }

  stop(): Promise<void> {
    return this.checkpoints.stop();
  }

  /** The items of a company's chain between two bounds, with where the walk starts; null when none. */
  private async items(companyId: number, fromText: string | undefined, toText: string | undefined) {
    await this.ready();
    const now = this.platform.now();
    const from = parseBound(fromText, 'from', now);
    const to = parseBound(toText, 'to', now);
    assertOrdered(from, to);
    const chain = companyChain(companyId);
    const range = await seqRange(this.platform.db, chain, from, to);
    const anchor = range ? await anchorOf(this.platform.db, chain, range) : null;
    return { chain, range, anchor, open: to === undefined };
  }

  /** Verifies a company's chain between two bounds against the database. */
  async verify(companyId: number, from?: string, to?: string): Promise<VerifyResult> {
    // The head row is read before the events: events appended during the walk move it on, not back.
    const headBefore = to === undefined ? await this.ready().then(() => chainHeadSeq(this.platform.db, companyChain(companyId))) : null;
    const { chain, range, anchor, open } = await this.items(companyId, from, to);
    const walk = new ChainWalk(chain, anchor ?? { seq: 0, hash: '' }, await this.keys.publicKeys());
    if (!range) return walk.finish();
    if (!anchor) walk.fail(undefined, `event ${range.first - 1} of the chain, which the range follows, is missing`);
    for await (const item of chainItems(this.platform.db, chain, range)) {
      if ('event' in item) walk.event(item.event);
      else walk.checkpoint(item.checkpoint);
      if (walk.failed) break;
    }
    if (!walk.failed && walk.head.seq < range.last) walk.fail(walk.head.position ?? undefined, `events after ${walk.head.seq} of the chain are missing`);
    // Open-ended: every event the chain's head row counted (read before the walk) must have been walked.
    if (!walk.failed && open && headBefore !== null && walk.head.seq < headBefore) {
      walk.fail(walk.head.position ?? undefined, `the chain's head is further than its last event ${walk.head.seq}: events are missing at the end`);
    }
    return walk.finish();
  }

  /** Signs a statement (a session's evidence) with the installation's current key: the key's id and the signature, base64url. */
  async sign(message: Buffer): Promise<{ keyId: string; signature: string }> {
    await this.ready();
    const key = await this.keys.current();
    return { keyId: key.keyId, signature: key.sign(message) };
  }

  /** Every signing key ever used, newest first (the key set `GET /api/v1/audit/keys` answers). */
  async publicKeys(): Promise<AuditPublicKey[]> {
    await this.ready();
    return this.keys.publicKeys();
  }

  /** The chained events of these streams, in log order, each with the hash before it in its chain. */
  async streamEvents(streams: readonly string[]): Promise<EvidenceEvent[]> {
    await this.ready();
    return streamsChainEvents(this.platform.db, streams);
  }

  /** An export of a company's chain between two bounds, line by line (JSON lines). */
  async bundle(companyId: number, from?: string, to?: string): Promise<AsyncGenerator<string>> {
    const { chain, range, anchor } = await this.items(companyId, from, to);
    const header: BundleHeader = {
      format: 'qa-audit-bundle/1',
      chain,
      companyId,
      exportedAt: this.platform.now().toISOString(),
      anchor: anchor ?? { seq: 0, hash: '' },
      keys: { keys: await this.keys.publicKeys() },
    };
    const items: AsyncIterable<ChainItem> = range ? chainItems(this.platform.db, chain, range) : (async function* () {})();
    return (async function* () {
      yield `${JSON.stringify(header)}\n`;
      for await (const item of items) yield `${JSON.stringify(item)}\n`;
    })();
  }
}
