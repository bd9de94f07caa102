import { ALL_PROJECTIONS } from './run.js';
import { createLogger } from '#shared/logger.js';
import { openPlatform } from './open-platform.js';
import { loadConfig } from '#shared/config.js';
import { runOperatorCli } from './operator-cli.js';
import { rebuildProjection } from '#projections/runner.js';

/**
 * `npm run projections:rebuild -- <name>`: empties a read model and replays the log into it, showing
 * progress. With a PostgreSQL read-model database a running platform notices the reset and takes the
 * replay over itself; the embedded database must be stopped first.
 */
const tty = process.stdout.isTTY === true;
/** Rewrites the current line on a terminal; elsewhere (CI logs) prints whole lines. */
const line = (text: string, final = false): void => {
  if (tty) process.stdout.write(`\r\x1b[2K${text}${final ? '\n' : ''}`);
  else process.stdout.write(`${text}\n`);
};

async function main(): Promise<number> {
  const names = process.argv.slice(2).filter((a) => a !== '--');
  const known = ALL_PROJECTIONS.map((p) => p.name);
  if (names.length === 0 || names.some((n) => n !== 'all' && !known.includes(n))) {
    process.stderr.write(`usage: npm run projections:rebuild -- <name|all> [...]\nprojections: ${known.join(', ')}\n`);
    return 2;
  }
  const selected = names.includes('all') ? ALL_PROJECTIONS : ALL_PROJECTIONS.filter((p) => names.includes(p.name));
  const config = loadConfig();
  const platform = await openPlatform(config, { logger: createLogger({ LOG_LEVEL: 'warn' }) });
  try {
    for (const projection of selected) {
      const started = Date.now();
      const head = await platform.store.headPosition();
      let lastPrint = 0;
      const result = await rebuildProjection(platform.store, platform.db, projection, {
        onProgress: (applied, position) => {
          if (Date.now() - lastPrint < (tty ? 250 : 5000)) return;
          lastPrint = Date.now();
          const pct = head > 0n ? Number((position * 1000n) / head) / 10 : 100;
          line(`${projection.name}: ${applied} events applied (${Math.min(100, pct).toFixed(1)}% of the log)`);
        },
      });
      const seconds = (Date.now() - started) / 1000;
      if (result.handedOver) {
        line(`${projection.name}: reset; the running platform is replaying it (${result.applied} events applied here)`, true);
      } else {
        const rate = seconds > 0 ? Math.round(result.applied / seconds) : result.applied;
        line(`${projection.name}: rebuilt from ${result.applied} events in ${seconds.toFixed(1)} s (${rate} events/s)`, true);
      }
    }
    return 0;
  } finally {
    await platform.close();
  }
}

runOperatorCli(main, 'Stop the platform first, then run the rebuild again.');
