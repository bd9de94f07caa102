import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appOps } from '#agent/ops/apps.js';
import { fileOps } from '#agent/ops/files.js';
import { inputOps } from '#agent/ops/input.js';
import { inspectOps } from '#agent/ops/inspect.js';
import { screenOps } from '#agent/ops/screen.js';
import { stagingOps } from '#agent/ops/staging.js';
import { testOps } from '#agent/ops/tests.js';
import { healthOps } from '#agent/ops/health.js';
import { sessionAdmission } from '#services/df/sessions/admission.js';
import { featureFolders } from '../../scripts/check-house.mjs';

// docs/architecture.md's tables of features, read models, admission checks and agent capabilities are
// kept true by this file: a feature, read model or event contract added without its line fails here, and
// so does a line for one that is gone.

const doc = readFileSync('docs/architecture.md', 'utf8');

/** The body of the section headed `heading` (up to the next heading of its level or above). */
function section(heading: string): string {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "${heading}"`);
  const level = heading.match(/^#+/)?.[0].length ?? 2;
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The rows of the first Markdown table in `text`, as cells (header and rule left out). */
function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(' | ').map((c) => c.trim()));
  }
  return rows;
}

const ticks = (cell: string | undefined): string[] => [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
const first = (cell: string | undefined): string => ticks(cell)[0] ?? '';
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

describe('docs/architecture.md, "Where things are"', () => {
  const rows = tableRows(section('### Where things are'));
  const named = (column: number) => new Set(rows.flatMap((r) => ticks(r[column])));

  it('names every read model, and only read models that exist', () => {
    const readModels = readdirSync('projections').filter((d) => existsSync(`projections/${d}/projection.ts`));
    const documented = [...named(3)].filter((n) => /^[a-z]+(-[a-z0-9]+)+$/.test(n));
    expect(sorted(documented)).toEqual(sorted(readModels));
  });

  it('names every feature folder of every module', () => {
    const written = new Set(rows.flatMap((r) => ticks(r[2])).map((n) => n.replace(/\/$/, '')));
    const missing = featureFolders('.')
      .map(({ module, feature }) => `${module}/${feature}`)
      .filter((f) => !written.has(f));
    expect(missing).toEqual([]);
  });

  it('names every event contract, and only contracts that exist', () => {
    const contracts = readdirSync('events', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(`events/${d.name}`).filter((f) => f.endsWith('.ts') && !f.includes('.spec.')).map((f) => `${d.name}/${f}`));
    const documented = [...named(1)].filter((n) => /^[a-z]+\/[\w-]+\.ts$/.test(n));
    for (const d of documented) expect(contracts, `${d} is in the table but not in events/`).toContain(d);
    expect(sorted(contracts).filter((c) => !documented.includes(c))).toEqual([]);
  });
});

describe('docs/architecture.md, the admission list', () => {
  it('lists the checks a session passes, in their order', () => {
    const rows = tableRows(section('### Opening a session: one admission (`services/df/sessions/admission.ts`)'));
    const stub = {} as never;
    const checks = sessionAdmission({ db: stub, scope: () => stub, reservations: stub, fleet: stub });
    expect(rows.map((r) => first(r[0]))).toEqual(checks.map((c) => c.name));
  });
});

describe("docs/architecture.md, the agent's capabilities", () => {
  const text = section("### The agent's capabilities (`agent/capabilities.ts`, `agent/ops/`)");
  const source = readFileSync('agent/capabilities.ts', 'utf8');

  it('lists the capabilities a driver is composed of, with their methods', () => {
    const composed = (source.match(/export type DeviceDriver =([^;]+);/)?.[1] ?? '').split('&').map((s) => s.trim());
    const rows = tableRows(text);
    expect(rows.map((r) => first(r[0]))).toEqual(composed);
    for (const row of rows) {
      const name = first(row[0]);
      const body = source.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))?.[1] ?? '';
      const methods = [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[(:]/gm)].map((m) => m[1] ?? '');
      expect(ticks(row[1]), name).toEqual(methods);
      const required = methods.some((m) => new RegExp(`^ {2}(?:readonly )?${m}[(:]`, 'm').test(body));
      expect((row[2] ?? '').startsWith('yes'), `${name}: every device has it`).toBe(required);
    }
  });

  it('lists every family of operations with its operations', () => {
    const tables = text.split('\n\n').filter((p) => p.trimStart().startsWith('| family'));
    const families: Record<string, object> = {
      'screen.ts': screenOps,
      'input.ts': inputOps,
      'inspect.ts': inspectOps,
      'apps.ts': appOps,
      'staging.ts': stagingOps,
      'files.ts': fileOps,
      'tests.ts': testOps,
      'health.ts': healthOps,
    };
    const onDisk = readdirSync('agent/ops').filter((f) => f.endsWith('.ts') && !f.includes('.spec.') && f !== 'index.ts' && f !== 'types.ts');
    expect(sorted(onDisk)).toEqual(sorted(Object.keys(families)));
    const rows = tableRows(tables[0] ?? '');
    expect(Object.fromEntries(rows.map((r) => [first(r[0]), ticks(r[1])]))).toEqual(
      Object.fromEntries(Object.entries(families).map(([file, ops]) => [file, Object.keys(ops)])),
    );
  });
});
