import { loadConfig } from '#shared/config.js';
import { createLogger } from '#shared/logger.js';
import { personalDataOf } from '#shared/pii/index.js';
import { openPlatform } from './open-platform.js';
import { runOperatorCli } from './operator-cli.js';
import { AuditChain } from './organization/audit/index.js';
import { migratePersonalData } from './pii-migration.js';

/**
 * `npm run pii:migrate`: seals the personal data of events recorded before sealing existed, hashes the
 * touched chains again, moves the checkpoints they invalidate aside and signs new ones
 * (services/pii-migration.ts; docs/operations.md, "Erasing a person"). Until it has run, erasing a
 * person is refused with 409 PII_MIGRATION_PENDING. Opens the store from the same configuration as
 * `npm start`; with the embedded database the platform must be stopped first.
 */
const tty = process.stdout.isTTY === true;

async function main(): Promise<number> {
  const config = loadConfig();
  if (config.EVENTSTORE_URL) {
    process.stderr.write('KurrentDB keeps its events as they were written: they cannot be sealed where they lie.\n');
    return 1;
  }
  const platform = await openPlatform(config, { logger: createLogger({ LOG_LEVEL: 'warn' }) });
  try {
    const data = personalDataOf(platform.store)!;
    let last = 0;
    const report = await migratePersonalData(platform.db, data, (read, through) => {
      if (Date.now() - last < (tty ? 250 : 5000)) return;
      last = Date.now();
      process.stdout.write(`${tty ? '\r\x1b[2K' : ''}${read} events read (through position ${through})${tty ? '' : '\n'}`);
    });
    if (tty) process.stdout.write('\r\x1b[2K');
    if (!report) {
      process.stdout.write('nothing to migrate: every event was recorded with its personal data sealed\n');
      return 0;
    }
    process.stdout.write(`${report.read} events read, ${report.sealed} sealed\n`);
    for (const c of report.chains) {
      process.stdout.write(`${c.chain}: ${c.rehashed} events hashed again from #${c.fromSeq}, head ${c.oldHead.slice(0, 16)}… → ${c.newHead.slice(0, 16)}…, ${c.superseded} checkpoint(s) superseded\n`);
    }
    const chain = new AuditChain(platform);
    await chain.ready();
    const signed = await chain.checkpoints.pass(true);
    process.stdout.write(`${signed} new checkpoint(s) signed; erasing a person is possible now\n`);
    return 0;
  } finally {
    await platform.close();
  }
}

runOperatorCli(main, 'Stop the platform first, or use a PostgreSQL database (DATABASE_URL) that a running platform shares.');
