import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { NotABundleError, verifyBundle } from '../../../shared/audit/verify-chain.js';
import { positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, usage } from '../errors.js';
import { printJson, printLine } from '../output.js';
import { downloadKeys, keysStatement, readPinnedKeys, type PinnedKeys } from './audit-keys.js';
import { isEvidence, verifyEvidenceFile } from './evidence.js';

const notEither = (path: string, why: string) => new CliError(`${path}: ${why}`, 'NOT_A_BUNDLE', EXIT.ERROR);

/** The file's lines, and whether its first one is an audit bundle's header (else it is read as one JSON document). */
async function openLines(path: string): Promise<{ bundle: boolean; lines: AsyncGenerator<string> }> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  let bundle = false;
  try {
    bundle = !first.done && (JSON.parse(first.value as string) as { format?: unknown }).format === 'qa-audit-bundle/1';
  } catch {
    bundle = false;
  }
  if (!bundle) lines.close();
  return {
    bundle,
    lines: (async function* () {
      if (first.done) return;
      yield first.value as string;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value as string;
    })(),
  };
}

/** A document that is not a bundle: a session's evidence, or neither (told as the bundle's verifier tells it). */
async function verifyDocument(path: string, files: string | undefined, pinned: PinnedKeys | undefined, json: boolean): Promise<number> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    doc = null;
  }
  if (isEvidence(doc)) return verifyEvidenceFile(path, files, pinned, json);
  throw notEither(path, "neither an audit export bundle (no qa-audit-bundle/1 header on its first line) nor a session's evidence (qa-session-evidence/1)");
}

/** An export bundle: the chain walked, its checkpoints checked with the bundle's keys or the pinned ones. */
async function verifyBundleFile(path: string, lines: AsyncGenerator<string>, pinned: PinnedKeys | undefined, json: boolean): Promise<number> {
  let result;
  try {
    result = await verifyBundle(lines, pinned?.keys);
  } catch (err) {
    if (err instanceof NotABundleError) throw notEither(path, err.message);
    throw err;
  }
  const keys = keysStatement(pinned);
  if (json) printJson({ ...result, keys: keys.json });
  else if (result.ok) printLine(`intact: ${result.events} events, ${result.checkpoints} signed checkpoints verified`);
  else printLine(`BROKEN at position ${result.firstBadPosition ?? '(unknown)'}: ${result.reason ?? ''} (${result.events} events verified before it)`);
  if (!json) printLine(keys.line);
  return result.ok ? EXIT.OK : EXIT.ERROR;
}

/** `dfctl audit verify FILE [--files DIR] [--keys KEYS]`. */
async function verifyFile(path: string, files: string | undefined, keysFile: string | undefined, json: boolean): Promise<number> {
  try {
    if (!statSync(path).isFile()) throw usage(`${path} is not a file`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`, 'FILE_UNREADABLE', EXIT.ERROR);
  }
  const pinned = keysFile === undefined ? undefined : readPinnedKeys(keysFile);
  const { bundle, lines } = await openLines(path);
  if (!bundle) return verifyDocument(path, files, pinned, json);
  if (files !== undefined) throw usage('--files is for a session\'s evidence; an audit bundle lists no files');
  return verifyBundleFile(path, lines, pinned, json);
}

/** `dfctl audit verify FILE`: checks an export bundle of the history's chain, or a session's evidence, offline; `dfctl audit keys`: saves the keys to pin. */
export const audit: Command = {
  name: 'audit',
  summary: "audit verify FILE: check an exported audit bundle or a session's evidence offline (exit 0 intact, 1 broken); audit keys: save the keys to pin",
  usage: `Usage: dfctl audit verify FILE [--files DIR] [--keys KEYS] [--json]
       dfctl audit keys [-o|--output KEYS] [--json]

verify checks, without the server, either of what the platform signs with its audit key:
- an export of the company's history (GET /api/v1/audit/bundle): every event's hash and order, and every
  signed checkpoint against the keys the bundle carries (or the pinned ones). Prints the number of events
  and checkpoints checked, or the first position where the chain breaks and why.
- a session's evidence (GET /df/api/sessions/{id}/evidence, dfctl evidence): every event's hash
  recomputed from its encoded text, the signature over the manifest with the key it names among the keys
  it carries (or the pinned ones), and with --files DIR each artifact's SHA-256 against the file of its
  fileName in DIR (a missing file fails). Prints what held, or what failed first:
  BROKEN (event|signature|file|format): why.
--keys KEYS pins the installation's published keys (a file saved by dfctl audit keys beforehand):
signatures are then checked only with those, by key id; a key id they lack, or a key in FILE that differs
from the pinned key of its id, breaks. Without it the keys are taken from FILE itself, which only shows
it was signed by whoever put them there; a line after the result says which. A KEYS file that is not a
key set is NOT_A_KEY_SET.
keys downloads GET /api/v1/audit/keys (needs a sign-in and AUDIT_READ) to KEYS, or to standard output.
Exit 0: intact (or saved); 1: broken (or the file is neither, or KEYS is no key set); 2: usage error.`,
  flags: { values: ['files', 'keys', 'output'], short: { o: 'output' } },
  async run(ctx) {
    const sub = ctx.args.positionals[0];
    const { values } = ctx.args;
    if (sub === 'keys') {
      positionals(ctx.args, ['keys']);
      if (values.has('files') || values.has('keys')) throw usage('--files and --keys are for dfctl audit verify');
      return downloadKeys(ctx, values.get('output'));
    }
    const [, file] = positionals(ctx.args, ['verify', 'FILE']);
    if (sub !== 'verify') throw usage(`unknown audit command ${sub ?? ''} (dfctl help audit)`);
    if (values.has('output')) throw usage('--output is for dfctl audit keys');
    return verifyFile(file as string, values.get('files'), values.get('keys'), ctx.json);
  },
};
