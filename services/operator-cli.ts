import { ConfigError } from '#shared/config.js';
import { DataDirLockedError } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';

/**
 * Runs an operator's command line (`npm run domains`, `npm run audit:keys`, the rebuild) and exits with
 * its code: 2 for a configuration it cannot start with, or an embedded data directory a running
 * platform holds (`lockedHint` says what to do), 1 for a refusal (`CODE: message`) or a failure.
 */
export function runOperatorCli(main: () => Promise<number>, lockedHint: string): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof AppError) {
        process.stderr.write(`${err.code}: ${err.message}\n`);
        process.exit(1);
      }
      if (err instanceof ConfigError || err instanceof DataDirLockedError) {
        process.stderr.write(`${err.message}\n`);
        if (err instanceof DataDirLockedError) process.stderr.write(`${lockedHint}\n`);
        process.exit(2);
      }
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
