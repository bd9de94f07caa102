import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHouse, FILE_MAX_LINES, FUNCTION_MAX_LINES, LONG_MARKER, projectionsOffTheRule, projectionTables, ROUTES_MAX_LINES } from '../../scripts/check-house.mjs';

/** A tiny repository on disk: the checker reads real files, as `npm run check:house` does. */
let root: string;
const write = (files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};
/** A function of `lines` lines in all, named `name`. */
const fn = (name: string, lines: number) => `export function ${name}() {\n${'  void 0;\n'.repeat(lines - 2)}}\n`;
const plugin = (name: string) => `import fp from 'fastify-plugin';\nexport const f = fp(async () => {}, { name: '${name}' });\n`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'check-house-'));
  write({
    'services/mod/index.ts': 'export {};\n',
    // In shape: a plugin named after module and feature, a decider with its specification.
    'services/mod/good/index.ts': plugin('mod-good'),
    'services/mod/good/routes.ts': 'export {};\n',
    // Deciders: made with defineDecider or a factory of shared/es/ (by alias, a relative path, types first), or by hand (lines 9, 10 and 11).
    'services/mod/good/decide.ts': [
      "import { defineDecider } from '#shared/es/index.js';",
      "import { lifecycleDecider } from '#shared/es/index.js';",
      "import { nameClaimDecider as claims } from '../../../shared/es/name-claim-decider.js';",
      "import type { Decider } from '#shared/es/index.js';",
      "import { localDecider } from './factory.js';",
      'export const a = defineDecider({ initialState: () => 0, evolve: {}, decide: {} });',
      "export const b = lifecycleDecider<number>()({ what: 'X' });",
      "export const c = claims({ claim: 'C' });",
      'export const d: Decider<never, never, number> = { initialState: () => 0, evolve: (s) => s, decide: () => [] };',
      'export const e = { initialState: () => 0, evolve: (s: number) => s, decide: () => [] } satisfies object;',
      'export const f = localDecider({});',
      'export const g = 3;',
      'const h = { initialState: () => 0, evolve: (s: number) => s, decide: () => [] };',
    ].join('\n'),
    'services/mod/good/other.ts': 'export const d = { initialState: () => 0, evolve: (s: number) => s, decide: () => [] };\n',
    'services/mod/good/decide.unit.spec.ts': 'export {};\n',
    // A feature without routes needs only its door.
    'services/mod/pure/index.ts': 'export {};\n',
    // Off the shape in every way the check knows.
    'services/mod/bad/routes.ts': 'export {};\n'.repeat(ROUTES_MAX_LINES + 1),
    'services/mod/bad/commands.ts': 'export {};\n',
    'services/mod/bad/decide.ts': 'export {};\n',
    'services/mod/named/index.ts': plugin('other-name'),
    'services/mod/named/x-routes.ts': 'export {};\n',
    'services/mod/noplugin/index.ts': 'export {};\n',
    'services/mod/noplugin/routes/a.ts': 'export {};\n',
    // The module's floor is not a feature.
    'services/mod/core/caller.ts': 'export {};\n',
    // A folder under services without an index.ts is not a module: its folders are not features.
    'services/loose/thing/a.ts': 'export {};\n',
    // Functions: at the limit, over it, over it with a reason, and in places that are not measured.
    'shared/at-limit.ts': fn('atLimit', FUNCTION_MAX_LINES),
    'shared/over.ts': fn('over', FUNCTION_MAX_LINES + 1),
    // Files: one line over the limit outside tests is named; the same length at the limit, or in a spec, is not.
    'shared/big.ts': 'export const x = 1;\n'.repeat(FILE_MAX_LINES),
    'shared/just.ts': 'export const x = 1;\n'.repeat(FILE_MAX_LINES - 1),
    'shared/big.unit.spec.ts': 'export const x = 1;\n'.repeat(FILE_MAX_LINES + 10),
    'shared/excused.ts': `// ${LONG_MARKER} a table of cases reads best whole.\n${fn('excused', FUNCTION_MAX_LINES + 40)}`,
    'console/src/page.tsx': `export const Page = () => {\n${'  void 0;\n'.repeat(FUNCTION_MAX_LINES)}  return null;\n};\n`,
    'shared/over.unit.spec.ts': fn('inSpec', FUNCTION_MAX_LINES + 10),
    'test/helper.ts': fn('inTest', FUNCTION_MAX_LINES + 10),
    // JSON texts compared (twice, on lines 2 and 3), and JSON texts used otherwise.
    'services/mod/good/compare.ts': 'export const f = (a: unknown, b: unknown) =>\n  JSON.stringify(a) === JSON.stringify(b) ||\n  JSON.stringify(a) != JSON.stringify([b]);\nexport const g = (a: unknown) => JSON.stringify(a) === "{}" || JSON.stringify(a).length > 2;\n',
    // Route files running commands: a handleCommand call (line 2), a writer's run (line 1), a claim (line 1);
    // a service's run is not a command run here.
    'services/mod/noplugin/routes/b.ts': 'export const f = (handleCommand: (x: object) => void) =>\n  handleCommand({});\n',
    'services/mod/noplugin/routes/c.ts': 'export const g = (writer: { run(): void }) => writer.run();\nexport const h = (service: { run(): void }) => service.run();\n',
    'services/loose/thing-routes.ts': 'export const k = (w: { claimName(): void }) => w.claimName();\n',
    'services/mod/good/compare.unit.spec.ts': 'export const f = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);\n',
    // Command contexts: the shared builder may build one; elsewhere a method (line 3), an arrow (line 5),
    // an async function (line 6), a literal declared one (line 7) and one asserted (line 8) are named, while
    // a context taken as a parameter, one asked of commandContext and an actor helper are not.
    'shared/es/decider.ts': 'export interface CommandContext { now: Date }\nexport function commandContext(clock: { now(): Date }): CommandContext {\n  return { now: clock.now() };\n}\n',
    'services/mod/good/contexts.ts': [
      "import { commandContext, type CommandActor, type CommandContext } from '#shared/es/index.js';",
      'export class S {',
      '  context(): CommandContext { return { now: new Date() }; }',
      '}',
      'export const arrow = (now: Date): CommandContext => ({ now });',
      'export async function later(): Promise<CommandContext> { return { now: new Date() }; }',
      'export const literal: CommandContext = { now: new Date() };',
      'export const asserted = { now: new Date() } as CommandContext;',
      'export const run = (context: CommandContext) => context;',
      'export const asked: CommandContext = commandContext({ now: () => new Date() });',
      'export const actor = (userId: number): CommandActor => ({ actorId: userId });',
      '',
    ].join('\n'),
    'services/mod/good/contexts.unit.spec.ts': "import type { CommandContext } from '#shared/es/index.js';\nexport const inSpec: CommandContext = { now: new Date() };\n",
    // Read models: tables a projection creates (in its code or a .sql file) or declares (`tables`, a shared definition's `table`).
    'projections/things/projection.ts':
      "import { applyByType } from '../types.js';\nexport const p = { schema: `CREATE TABLE IF NOT EXISTS things (id int);\\n CREATE TABLE thing_parts (id int)`, tables: ['things', 'thing_parts'],\n  apply: applyByType<never>({ A: () => `UPDATE things SET id = 1` }) };\n",
    'projections/things/schema.sql': 'CREATE TABLE IF NOT EXISTS thing_notes (id int);\n',
    'projections/keys/projection.ts': "import { keysProjection } from '../keys.js';\nexport const k = keysProjection({ name: 'keys', table: 'key_rows' });\n",
    // Read models applying through applyByType (themselves, or a factory of projections/ that does) with a spec beside them.
    'projections/types.ts': 'export const applyByType = (handlers: object) => handlers;\n',
    'projections/keys.ts': "import { applyByType } from './types.js';\nexport function keysProjection(t: { table: string }) {\n  return { ...t, apply: applyByType({}) };\n}\n",
    'projections/things/projection.int.spec.ts': 'export {};\n',
    'projections/keys/projection.unit.spec.ts': 'export {};\n',
    // Off the rule: a switch of its own and no spec; a factory of projections/ that does not use applyByType;
    // applyByType only named (an import, a comment), never called; a spec not in the folder but below it.
    'projections/bare/projection.ts': 'export const p = { apply: async (_tx: unknown, e: { type: string }) => { switch (e.type) { default: } } };\n',
    'projections/plain.ts': 'export function plainProjection() {\n  return { apply: async () => {} };\n}\n',
    'projections/made/projection.ts': "import { plainProjection } from '../plain.js';\nexport const p = plainProjection();\n",
    'projections/made/projection.int.spec.ts': 'export {};\n',
    'projections/named/projection.ts': "import { applyByType } from '../types.js';\n// Not through applyByType: it only imports it.\nexport const p = { apply: async () => {}, also: applyByType };\n",
    'projections/named/deeper/projection.int.spec.ts': 'export {};\n',
    // A folder without a projection.ts is not a read model of its own.
    'projections/shared-bits/helpers.ts': 'export {};\n',
    // Its own queries read it, in queries.ts or a queries/ folder.
    'projections/things/queries.ts': 'export const q = `SELECT * FROM things t JOIN thing_parts p ON p.id = t.id`;\n',
    'projections/things/queries/notes.ts': "export const n = 'SELECT id FROM thing_notes';\n",
    // Another projection's queries and a service name them (lines 1, 2, 3, 4 and 6); a module's own table, prose, a spec, a script and a test do not count.
    'projections/other/queries.ts': 'export const o = `SELECT * FROM other_rows o LEFT JOIN things t ON t.id = o.id`;\n',
    'services/mod/good/service.ts': [
      'export const a = (id: number) => `DELETE FROM key_rows WHERE id = ${id}`;',
      "export const b = 'update  THING_PARTS set id = 2';",
      'export const c = `INSERT INTO thing_notes (id) VALUES (1)`;',
      "export const d = sql`SELECT count(*) FROM ${'x'} JOIN things ON true`;",
      "export const e = 'INSERT INTO module_rows (id) SELECT 1';",
      "export const f = 'Take the things from the shelf; read from key_rows_archive';",
      "declare function sql(s: TemplateStringsArray, ...v: unknown[]): string;",
    ].join('\n'),
    'services/mod/good/service.unit.spec.ts': "export const s = 'SELECT * FROM things';\n",
    'scripts/tool.mjs': "export const t = 'SELECT * FROM things';\n",
    'test/things.ts': "export const t = 'SELECT * FROM things';\n",
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the feature shape', () => {
  it('lists each feature folder that is off the documented shape, and only those', () => {
    const { shape, features } = checkHouse(root);
    expect(features).toBe(5);
    expect(shape.sort()).toEqual(
      [
        'services/mod/bad: no index.ts (the feature\'s one door)',
        'services/mod/bad/commands.ts: the write side is named service.ts',
        `services/mod/bad/routes.ts: ${ROUTES_MAX_LINES + 2} lines; split it by resource into routes/`,
        'services/mod/bad/decide.ts: no specification beside it',
        "services/mod/named/index.ts: its plugin is not named 'mod-named'",
        'services/mod/noplugin/index.ts: has routes but exports no plugin made with fastify-plugin',
      ].sort(),
    );
  });
});

describe('long functions', () => {
  it('names functions over the limit outside tests, unless a comment says why', () => {
    const { long } = checkHouse(root);
    expect(long.map((f) => `${f.file}:${f.line} ${f.name} ${f.lines}`).sort()).toEqual(
      [`console/src/page.tsx:1 Page ${FUNCTION_MAX_LINES + 3}`, `shared/over.ts:1 over ${FUNCTION_MAX_LINES + 1}`].sort(),
    );
  });
});

describe('long files', () => {
  it('names source files over the limit outside tests', () => {
    expect(checkHouse(root).longFiles).toEqual([`shared/big.ts (${FILE_MAX_LINES + 1} lines)`]);
  });
});

describe('JSON texts compared', () => {
  it('names each comparison of two JSON.stringify texts outside tests, and nothing else done with JSON text', () => {
    expect(checkHouse(root).jsonTexts.sort()).toEqual(['services/mod/good/compare.ts:2', 'services/mod/good/compare.ts:3']);
  });
});

describe('command contexts built by hand', () => {
  it('names each function returning a CommandContext and each object literal declared one outside the shared builder and tests', () => {
    expect(checkHouse(root).contextBuilders.sort()).toEqual(
      [
        'services/mod/good/contexts.ts:3 context returns a CommandContext',
        'services/mod/good/contexts.ts:5 arrow returns a CommandContext',
        'services/mod/good/contexts.ts:6 later returns a CommandContext',
        'services/mod/good/contexts.ts:7 literal is an object literal declared CommandContext',
        'services/mod/good/contexts.ts:8 an object literal as a CommandContext',
      ].sort(),
    );
  });
});

describe('route files running commands', () => {
  it('names each route file that runs a command itself, at its first, and no file that calls a service', () => {
    expect(checkHouse(root).routesWriting.sort()).toEqual(['services/loose/thing-routes.ts:1', 'services/mod/noplugin/routes/b.ts:2', 'services/mod/noplugin/routes/c.ts:1']);
  });
});

describe('SQL on another read model', () => {
  it('learns the tables each projection creates or declares', () => {
    expect(Object.fromEntries([...projectionTables(root)].sort())).toEqual({ key_rows: 'keys', thing_notes: 'things', thing_parts: 'things', things: 'things' });
  });

  it('names each SQL text outside a projection that reads or writes one of its tables, and none in the projection itself, tests or scripts', () => {
    expect(checkHouse(root).readModelSql.sort()).toEqual(
      [
        'projections/other/queries.ts:1 things (projections/things)',
        'services/mod/good/service.ts:1 key_rows (projections/keys)',
        'services/mod/good/service.ts:2 thing_parts (projections/things)',
        'services/mod/good/service.ts:3 thing_notes (projections/things)',
        'services/mod/good/service.ts:4 things (projections/things)',
      ].sort(),
    );
  });
});

describe('deciders written by hand', () => {
  it('names each decider a decide.ts exports that is not made with defineDecider or a factory of shared/es/', () => {
    expect(checkHouse(root).deciders.sort()).toEqual(['services/mod/good/decide.ts:10 e', 'services/mod/good/decide.ts:11 f', 'services/mod/good/decide.ts:9 d']);
  });
});

describe('read models applying through applyByType, each with its spec', () => {
  it('names each read model that applies events without applyByType (itself or through a factory of projections/) or has no spec in its folder', () => {
    expect(checkHouse(root).projections).toEqual(projectionsOffTheRule(root));
    expect(projectionsOffTheRule(root).sort()).toEqual(
      [
        'projections/bare/projection.ts: applies events without applyByType (one handler per event type)',
        'projections/bare: no spec beside it (projection.int.spec.ts, given events → then rows)',
        'projections/made/projection.ts: applies events without applyByType (one handler per event type)',
        'projections/named/projection.ts: applies events without applyByType (one handler per event type)',
        'projections/named: no spec beside it (projection.int.spec.ts, given events → then rows)',
      ].sort(),
    );
  });
});
