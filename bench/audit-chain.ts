/*
 * The history's chain: appends with the chain (a group's statement numbering and hashing its events
 * under their chains' head rows, the row trigger for events that arrive without a hash) against the same
 * database appended to without it (a store whose groups leave the chain out, `unchained`, and the row
 * trigger disabled), taking turns within one run so both see the same load; then verification of the
 * chains written, in events per second (hashing the database's canonical encoding again and checking the
 * order, as GET /api/v1/audit/verify does). A third arm seals each event's client address under its
 * actor's key (shared/pii), as the platform's store does.
 */
import { randomBytes } from 'node:crypto';
import { createSqlEventStore } from '#shared/es/index.js';
import { ChainWalk, GENESIS } from '#shared/audit/verify-chain.js';
import { SecretBox } from '#shared/auth/index.js';
import { migratePersonKeys, PersonalData, PersonKeys, sealingEventStore } from '#shared/pii/index.js';
import { chainItems } from '#services/organization/audit/chain-reads.js';
import { migrateAuditChain } from '#services/organization/audit/signing-keys.js';
import { note, num, phase, table } from './console.js';
import { openPgliteStore, openPostgresStore, type BenchStore } from './stores.js';
import { runWriters, type WriterResult } from './writers.js';

export interface AuditChainOptions {
  backends: readonly BenchStore['name'][];
  writers: number;
  /** Chains the writers' events form (one company per writer modulo this). */
  companies: number;
  durationMs: number;
  rounds: number;
}

export interface AuditChainReport {
  store: BenchStore['name'];
  /** Best of the rounds, events/s. */
  withoutChain: number;
  withChain: number;
  /** How much slower with the chain, in per cent of the rate without (negative: faster). */
  slowerPercent: number;
  /** With the chain and each event's client address sealed under its actor's key (shared/pii), events/s. */
  withChainSealed: number;
  /** How much slower sealing makes the chained appends, in per cent. */
  sealingPercent: number;
  verifiedEvents: number;
  verifyEventsPerSecond: number;
  runs: { chain: boolean; sealed: boolean; round: number; load: WriterResult }[];
}

async function verifyAll(target: BenchStore): Promise<{ events: number; seconds: number }> {
  const { rows } = await target.db.query<{ chain: string; seq: string }>(`SELECT chain, seq::text AS seq FROM es_chains ORDER BY chain`);
  const started = performance.now();
  let events = 0;
  for (const { chain, seq } of rows) {
    const walk = new ChainWalk(chain, { seq: 0, hash: GENESIS }, []);
    for await (const item of chainItems(target.db, chain, { first: 1, last: Number(seq) })) if ('event' in item) walk.event(item.event);
    const result = walk.finish();
    if (!result.ok) throw new Error(`chain ${chain} does not verify: ${result.reason ?? ''}`);
    events += result.events;
  }
  return { events, seconds: (performance.now() - started) / 1000 };
}

async function measureOne(name: BenchStore['name'], options: AuditChainOptions): Promise<AuditChainReport> {
  const target = await (name === 'PostgreSQL' ? openPostgresStore() : openPgliteStore());
  // The same database without the chain: the baseline the chain's cost is measured against.
  const unchained = createSqlEventStore(target.db, { unchained: true });
  try {
    await migrateAuditChain(target.db);
    await migratePersonKeys(target.db, () => target.store.headPosition());
    // Sealing as the platform does it: each event's client address under its actor's key.
    const sealing = sealingEventStore(target.store, new PersonalData(new PersonKeys(target.db, new SecretBox(randomBytes(32))), { byType: {}, metadata: { clientAddress: 'address' } }));
    const runs: AuditChainReport['runs'] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const [chain, sealed] of [[false, false], [true, false], [true, true]] as const) {
        await target.db.query(`ALTER TABLE es_events ${chain ? "ENABLE" : "DISABLE"} TRIGGER USER`);
        const ticker = phase(`${name}, round ${round}, chain ${chain ? 'on' : 'off'}${sealed ? ', sealed' : ''}`);
        const category = `bench-chain${round}${chain ? 'on' : 'off'}${sealed ? 'sealed' : ''}`;
        const load = await runWriters(sealed ? sealing : chain ? target.store : unchained, { writers: options.writers, eventsPerAppend: 1, durationMs: options.durationMs, streamCategory: category, companies: options.companies, actors: true });
        ticker.done(`${num(load.eventsPerSecond)} events/s`);
        runs.push({ chain, sealed, round, load });
      }
    }
    // The events written with the trigger off are not chained: leave them out of verification.
    await target.db.query(`DELETE FROM es_events WHERE chain_hash IS NULL`);
    const verified = await verifyAll(target);
    const best = (chain: boolean, sealed: boolean) => Math.max(...runs.filter((r) => r.chain === chain && r.sealed === sealed).map((r) => r.load.eventsPerSecond));
    const withoutChain = best(false, false);
    const withChain = best(true, false);
    const withChainSealed = best(true, true);
    return {
      store: name,
      withoutChain,
      withChain,
      slowerPercent: ((withoutChain - withChain) / withoutChain) * 100,
      withChainSealed,
      sealingPercent: ((withChain - withChainSealed) / withChain) * 100,
      verifiedEvents: verified.events,
      verifyEventsPerSecond: verified.events / verified.seconds,
      runs,
    };
  } finally {
    await unchained.close();
    await target.dispose();
  }
}

export async function measureAuditChain(options: AuditChainOptions): Promise<AuditChainReport[]> {
  const reports: AuditChainReport[] = [];
  for (const name of options.backends) reports.push(await measureOne(name, options));
  return reports;
}

export function formatAuditChain(reports: readonly AuditChainReport[], options: AuditChainOptions, targetPercent: number): string {
  note(`target: appends with the chain under ${targetPercent} % slower than without`);
  return (
    `The history's chain — ${options.writers} writers × 1 event, ${options.companies} companies (chains), ${options.durationMs / 1000} s per run, best of ${options.rounds}\n` +
    table(
      ['store', 'without chain, events/s', 'with chain, events/s', 'slower', 'met', 'chain + sealed address, events/s', 'sealing costs', 'verified events', 'verification, events/s'],
      reports.map((r) => [
        r.store,
        num(r.withoutChain),
        num(r.withChain),
        `${num(r.slowerPercent, 1)} %`,
        r.slowerPercent < targetPercent ? 'yes' : 'no',
        num(r.withChainSealed),
        `${num(r.sealingPercent, 1)} %`,
        num(r.verifiedEvents),
        num(r.verifyEventsPerSecond),
      ]),
    ) +
    '\n'
  );
}
