import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { NotABundleError, verifyBundle } from '../../../shared/audit/verify-chain.js';
import { positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, usage } from '../errors.js';
import { printJson, printLine } from '../output.js';
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
async function verifyDocument(path: string, files: string | undefined, json: boolean): Promise<number> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    doc = null;
  }
  if (isEvidence(doc)) return verifyEvidenceFile(path, files, json);
  throw notEither(path, "neither an audit export bundle (no qa-audit-bundle/1 header on its first line) nor a session's evidence (qa-session-evidence/1)");
}

/** `dfctl audit verify FILE`: checks an export bundle of the history's chain, or a session's evidence, offline. */
export const audit: Command = {
  name: 'audit',
  summary: "audit verify FILE: check an exported audit bundle or a session's evidence offline (exit 0 intact, 1 broken)",
  usage: `Usage: dfctl audit verify FILE [--files DIR] [--json]

Checks, without the server, either of what the platform signs with its audit key:
- an export of the company's history (GET /api/v1/audit/bundle): every event's hash and order, and every
  signed checkpoint against the keys the bundle carries. Prints the number of events and checkpoints
  checked, or the first position where the chain breaks and why.
- a session's evidence (GET /df/api/sessions/{id}/evidence, dfctl evidence): every event's hash
  recomputed from its encoded text, the signature over the manifest with the key it names among the keys
  it carries, and with --files DIR each artifact's SHA-256 against the file of its fileName in DIR (a
  missing file fails). Prints what held, or what failed first: BROKEN (event|signature|file|format): why.
Exit 0: intact; 1: broken (or the file is neither); 2: usage error.`,
  flags: { values: ['files'] },
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
    const files = ctx.args.values.get('files');
    const { bundle, lines } = await openLines(path);
    if (!bundle) return verifyDocument(path, files, ctx.json);
    if (files !== undefined) throw usage('--files is for a session\'s evidence; an audit bundle lists no files');
    let result;
    try {
      result = await verifyBundle(lines);
    } catch (err) {
      if (err instanceof NotABundleError) throw notEither(path, err.message);
      throw err;
    }
    if (ctx.json) printJson(result);
    else if (result.ok) printLine(`intact: ${result.events} events, ${result.checkpoints} signed checkpoints verified`);
    else printLine(`BROKEN at position ${result.firstBadPosition ?? '(unknown)'}: ${result.reason ?? ''} (${result.events} events verified before it)`);
    return result.ok ? EXIT.OK : EXIT.ERROR;
  },
};
