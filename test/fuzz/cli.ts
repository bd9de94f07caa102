import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from '#services/run.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { buildCases, runCases, type OpenApiDocument } from './openapi-fuzz.js';

/**
 * `npm run fuzz -- [--rounds N] [--seed S] [--variants V]`: the fuzz suite's longer run. Starts its
 * own embedded server (agent off) in a temporary directory, signs two companies up, and fuzzes every
 * operation of the OpenAPI document for N rounds of different seeds, showing progress; exits 1 with
 * the findings when there are any.
 */
function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`--${name} takes a whole number\n`);
    process.exit(2);
  }
  return value;
}

const rounds = option('rounds', 10);
const firstSeed = option('seed', Date.now() % 1_000_000);
const variants = option('variants', 40);
const dataDir = mkdtempSync(join(tmpdir(), 'qa-fuzz-'));
const server = await startProcess({ NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, AGENT_ENABLED: 'false' });
let failed = 0;
try {
  const a = await signUpCompany(server.url, 'fuzz-a');
  await signUpCompany(server.url, 'fuzz-b');
  const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument;
  for (let round = 0; round < rounds; round++) {
    const seed = firstSeed + round;
    const cases = buildCases(doc, { seed, variants, skip: (method, path) => /\/auth\/logout$|sign-out/.test(path) || (method === 'delete' && /\/auth\/sessions/.test(path)) });
    const { findings, statuses } = await runCases(server.url, cases, {
      headers: { authorization: `Bearer ${a.token}`, 'x-workspace-id': String(a.workspaceId) },
      timeoutMs: 15_000,
      onProgress: (done) => {
        if (done % 250 === 0 || done === cases.length) process.stdout.write(`\rround ${round + 1}/${rounds} (seed ${seed}): ${done}/${cases.length} requests`);
      },
    });
    process.stdout.write(`  ${JSON.stringify(statuses)}\n`);
    for (const f of findings) process.stdout.write(`  FINDING ${f.problem}: ${f.case.operation} [${f.case.variant}] ${f.status ?? ''} ${f.body ?? ''}\n`);
    failed += findings.length;
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(failed === 0 ? 'no findings\n' : `${failed} findings\n`);
process.exit(failed === 0 ? 0 : 1);
