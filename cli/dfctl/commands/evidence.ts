import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVIDENCE_FORMAT, SAFE_FILE_NAME, verifyEvidence, type EvidenceResult, type SessionEvidence } from '../../../shared/audit/session-evidence.js';
import { positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, usage } from '../errors.js';
import { printJson, printLine } from '../output.js';
import { keysStatement, type PinnedKeys } from './audit-keys.js';

/** The SHA-256 (hex) of `dir/fileName`, or null when there is no such file. */
function hashIn(dir: string) {
  return async (fileName: string): Promise<string | null> => {
    const path = join(dir, fileName);
    if (!existsSync(path) || !statSync(path).isFile()) return null;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  };
}

/** Whether a parsed document says it is a session's evidence. */
export const isEvidence = (doc: unknown): boolean => typeof doc === 'object' && doc !== null && (doc as { format?: unknown }).format === EVIDENCE_FORMAT;

/** `dfctl audit verify FILE [--files DIR] [--keys FILE]` for a session's evidence: prints what held or what failed first, and whose keys; exit 0 or 1. */
export async function verifyEvidenceFile(path: string, filesDir: string | undefined, pinned: PinnedKeys | undefined, json: boolean): Promise<number> {
  if (filesDir !== undefined && !(existsSync(filesDir) && statSync(filesDir).isDirectory())) throw usage(`--files ${filesDir} is not a folder`);
  const doc: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const result: EvidenceResult = await verifyEvidence(doc, filesDir === undefined ? undefined : hashIn(filesDir), pinned?.keys);
  const keys = keysStatement(pinned);
  if (json) printJson({ ...result, keys: keys.json });
  else if (result.ok) {
    const files = filesDir === undefined ? 'files not checked (--files DIR checks them)' : `${result.files} of ${result.artifacts} files match`;
    printLine(`intact: session ${result.sessionId ?? ''}: ${result.events} events, manifest signed by ${result.keyId ?? ''}, ${files}`);
  } else printLine(`BROKEN (${result.failed ?? 'unknown'}): ${result.reason ?? ''}`);
  if (!json) printLine(keys.line);
  return result.ok ? EXIT.OK : EXIT.ERROR;
}

/** `dfctl evidence <sessionId>`: downloads a session's signed evidence, and with `--files` the files it lists. */
export const evidence: Command = {
  name: 'evidence',
  summary: "download an ended session's signed evidence (--files DIR: its artifacts too); dfctl audit verify checks it",
  usage: `Usage: dfctl evidence <sessionId> [--output FILE] [--files DIR]

Downloads the session's evidence (GET /df/api/sessions/{id}/evidence: its record, timeline, WebDriver
command log, artifacts by SHA-256 and its events in the history's chain, signed with the installation's
audit key) to FILE (default session-evidence-<sessionId>.json), as the server sent it. --files DIR also
saves every artifact it lists (screenshots, logs, recordings, the video) in DIR under its fileName.
Check both offline with: dfctl audit verify FILE --files DIR --keys KEYS (KEYS: dfctl audit keys -o KEYS). Needs access to the session's content and
the AUDIT_READ permission; an open session is refused (SESSION_OPEN).`,
  flags: { values: ['output', 'files'] },
  async run(ctx) {
    const [id] = positionals(ctx.args, ['sessionId']);
    const api = ctx.api();
    const file = ctx.args.values.get('output') ?? `session-evidence-${id}.json`;
    const dir = ctx.args.values.get('files');
    const bytes = await api.request<Buffer>('GET', `/df/api/sessions/${encodeURIComponent(id!)}/evidence`, { binary: true });
    writeFileSync(file, bytes);
    let saved = 0;
    if (dir !== undefined) {
      const doc = JSON.parse(bytes.toString('utf8')) as SessionEvidence;
      mkdirSync(dir, { recursive: true });
      for (const a of doc.manifest.artifacts) {
        if (!SAFE_FILE_NAME.test(a.fileName) || !a.download.startsWith('/df/api/sessions/')) throw new CliError(`the evidence lists an artifact that cannot be saved: ${a.fileName}`, 'BAD_EVIDENCE', EXIT.ERROR);
        const [path, query] = a.download.split('?');
        const body = await api.request<Buffer>('GET', path!, { binary: true, query: Object.fromEntries(new URLSearchParams(query ?? '')) });
        writeFileSync(join(dir, a.fileName), body);
        saved++;
      }
    }
    if (ctx.json) return printJson({ file, bytes: bytes.length, ...(dir !== undefined ? { files: dir, saved } : {}) });
    printLine(`Wrote ${file} (${bytes.length} bytes)${dir !== undefined ? `; ${saved} files in ${dir}` : ''}.`);
  },
};
