import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { NotABundleError, verifyBundle } from '../../../shared/audit/verify-chain.js';
import { positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, usage } from '../errors.js';
import { printJson, printLine } from '../output.js';

/** `dfctl audit verify FILE`: checks an export bundle of the history's chain offline. */
export const audit: Command = {
  name: 'audit',
  summary: 'audit verify FILE: check an exported audit bundle offline (exit 0 intact, 1 broken)',
  usage: `Usage: dfctl audit verify FILE [--json]

Checks an export of the company's history (GET /api/v1/audit/bundle) without the server: every event's
hash and order, and every signed checkpoint against the keys the bundle carries. Prints the number of
events and checkpoints checked, or the first position where the chain breaks and why.
Exit 0: the chain is intact; 1: it breaks (or the file is not a bundle); 2: usage error.`,
  flags: {},
  async run(ctx) {
    const [sub, file] = positionals(ctx.args, ['verify', 'FILE']);
    if (sub !== 'verify') throw usage(`unknown audit command ${sub ?? ''} (dfctl help audit)`);
    const path = file as string;
    try {
      if (!statSync(path).isFile()) throw usage(`${path} is not a file`);
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`cannot read ${path}: ${(err as Error).message}`, 'FILE_UNREADABLE', EXIT.ERROR);
    }
    let result;
    try {
      result = await verifyBundle(createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity }));
    } catch (err) {
      if (err instanceof NotABundleError) throw new CliError(`${path}: ${err.message}`, 'NOT_A_BUNDLE', EXIT.ERROR);
      throw err;
    }
    if (ctx.json) printJson(result);
    else if (result.ok) printLine(`intact: ${result.events} events, ${result.checkpoints} signed checkpoints verified`);
    else printLine(`BROKEN at position ${result.firstBadPosition ?? '(unknown)'}: ${result.reason ?? ''} (${result.events} events verified before it)`);
    return result.ok ? EXIT.OK : EXIT.ERROR;
  },
};
