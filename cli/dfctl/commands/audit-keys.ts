import { readFileSync, writeFileSync } from 'node:fs';
import { KeySetError, parseKeySet, type AuditPublicKey } from '../../../shared/audit/key-ring.js';
import type { Context } from '../command.js';
import { CliError, EXIT } from '../errors.js';
import { printJson, printLine } from '../output.js';

/** The keys `--keys FILE` pins, with where they came from; none when signatures are checked with the file's own keys. */
export interface PinnedKeys {
  file: string;
  keys: AuditPublicKey[];
}

const notAKeySet = (path: string, why: string) =>
  new CliError(`${path}: ${why} (a key set as GET /api/v1/audit/keys answers it, dfctl audit keys -o FILE saves one)`, 'NOT_A_KEY_SET', EXIT.ERROR);

/** The key set of `--keys FILE`, or NOT_A_KEY_SET / FILE_UNREADABLE. */
export function readPinnedKeys(path: string): PinnedKeys {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`, 'FILE_UNREADABLE', EXIT.ERROR);
  }
  try {
    return { file: path, keys: parseKeySet(text) };
  } catch (err) {
    if (err instanceof KeySetError) throw notAKeySet(path, err.message);
    throw err;
  }
}

/** Where the keys a verification used came from: the line printed after its result, and its JSON field. */
export function keysStatement(pinned: PinnedKeys | undefined): { line: string; json: { source: 'file' } | { source: 'pinned'; file: string; count: number } } {
  if (!pinned) return { line: "keys: taken from the file itself, not pinned (--keys FILE checks against the installation's published keys)", json: { source: 'file' } };
  return { line: `keys: pinned, ${pinned.keys.length} from ${pinned.file}`, json: { source: 'pinned', file: pinned.file, count: pinned.keys.length } };
}

/** `dfctl audit keys [-o FILE]`: the installation's published audit keys (GET /api/v1/audit/keys), checked to be a key set, to FILE or standard output. */
export async function downloadKeys(ctx: Context, output: string | undefined): Promise<number> {
  const bytes = await ctx.api().request<Buffer>('GET', '/api/v1/audit/keys', { binary: true });
  let keys: AuditPublicKey[];
  try {
    keys = parseKeySet(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof KeySetError) throw new CliError(`the server's answer is not a key set: ${err.message}`, 'NOT_A_KEY_SET', EXIT.ERROR);
    throw err;
  }
  if (output === undefined) {
    process.stdout.write(bytes.toString('utf8').endsWith('\n') ? bytes : Buffer.concat([bytes, Buffer.from('\n')]));
    return EXIT.OK;
  }
  writeFileSync(output, bytes);
  const kids = keys.map((k) => k.kid);
  if (ctx.json) printJson({ file: output, keys: kids });
  else printLine(`Wrote ${output} (${kids.length} ${kids.length === 1 ? 'key' : 'keys'}: ${kids.join(', ')}).`);
  return EXIT.OK;
}
