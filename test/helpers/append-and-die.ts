/**
 * Child process of the durability tests: appends one event at a time to one stream and, after each
 * append has resolved, prints `ack <revision> <event id> <position>`, until it is killed.
 *
 *   node --import tsx test/helpers/append-and-die.ts pglite <data dir> <stream>
 *   node --import tsx test/helpers/append-and-die.ts postgres <url> <stream>
 */
import { randomUUID } from 'node:crypto';
import { openPglite, openPostgres, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore } from '#shared/es/index.js';

const [kind, target, stream] = process.argv.slice(2);
if ((kind !== 'pglite' && kind !== 'postgres') || !target || !stream) {
  process.stderr.write('usage: append-and-die.ts <pglite|postgres> <data dir|url> <stream>\n');
  process.exit(2);
}

const db: Database = kind === 'pglite' ? await openPglite(target) : openPostgres(target, { max: 2 });
await migrateSqlEventStore(db);
const store = createSqlEventStore(db);
process.stdout.write('ready\n');

for (let revision = 0; ; revision++) {
  const id = randomUUID();
  const result = await store.append(
    stream,
    [
      {
        id,
        type: 'DurabilityProbed',
        payload: { revision, filler: 'x'.repeat(500) },
        metadata: { occurredAt: new Date().toISOString() },
      },
    ],
    revision === 0 ? 'no_stream' : revision - 1,
  );
  // A pipe to the parent is written synchronously on Linux: once this returns, the parent can read it.
  process.stdout.write(`ack ${result.nextExpectedRevision} ${id} ${result.position}\n`);
}
