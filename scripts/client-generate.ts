// `npm run client:generate`: writes clients/api/src/schema.ts from the live OpenAPI document.
// `npm run client:check` (`--check`): writes nothing, exits 1 when the checked-in file differs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { liveDocument, REGENERATE, SCHEMA_FILE, schemaSource } from './client-schema.js';

const check = process.argv.includes('--check');
const started = Date.now();
const source = await schemaSource(await liveDocument());
const where = relative(process.cwd(), SCHEMA_FILE);
const current = existsSync(SCHEMA_FILE) ? readFileSync(SCHEMA_FILE, 'utf8') : '';
if (check) {
  if (current !== source) {
    process.stderr.write(`${where} is not what the OpenAPI document generates: ${REGENERATE}\n`);
    process.exit(1);
  }
  process.stdout.write(`${where} matches the OpenAPI document\n`);
} else if (current === source) {
  process.stdout.write(`${where} is up to date (${Date.now() - started} ms)\n`);
} else {
  writeFileSync(SCHEMA_FILE, source);
  process.stdout.write(`${where} written (${Date.now() - started} ms)\n`);
}
// The server's adapters may leave timers behind; the work is done.
process.exit(0);
