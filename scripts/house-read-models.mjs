// The read models' house rules (docs/architecture.md, "Reads"), run by check-house.mjs:
//
// - no SQL outside `projections/<name>/` names a table that projection owns (creates or declares): a read
//   model is read through its own queries;
// - every read model (`projections/<name>/` with a `projection.ts`) applies events through `applyByType`
//   (`projections/types.ts`), in its `projection.ts` or through a factory of `projections/` that does
//   (`revocableKeysProjection`), and has a spec (`*.spec.ts`) in its folder.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep, dirname } from 'node:path';
import ts from 'typescript';
import { isDir } from './check-house-rules.mjs';


/** A read model's folder: `projections/<name>/`; its tables are read only from within (its queries). */
const PROJECTIONS = 'projections';
const CREATE_TABLE = /\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/gi;
/** A table named where SQL reads or writes it. */
const TABLE_USE = /\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_][a-z0-9_]*)/gi;

function folderFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) folderFiles(path, out);
    else if (/\.(ts|sql)$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * The tables each projection owns, as table → projection name: those its files under `projections/<name>/`
 * create (`CREATE TABLE`), or declare (`tables: [...]`, or `table: '...'` for a shared definition's table).
 */
export function projectionTables(root) {
  const owners = new Map();
  const dir = join(root, PROJECTIONS);
  if (!isDir(dir)) return owners;
  for (const name of readdirSync(dir).sort()) {
    if (!isDir(join(dir, name))) continue;
    for (const file of folderFiles(join(dir, name))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(CREATE_TABLE)) owners.set(m[1].toLowerCase(), name);
      if (!file.endsWith('.ts')) continue;
      const visit = (node) => {
        if (ts.isPropertyAssignment(node) && ['table', 'tables'].includes(node.name.getText())) {
          const values = ts.isArrayLiteralExpression(node.initializer) ? node.initializer.elements : [node.initializer];
          for (const v of values) if (ts.isStringLiteralLike(v) && /^[a-z_][a-z0-9_]*$/.test(v.text)) owners.set(v.text, name);
        }
        ts.forEachChild(node, visit);
      };
      visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
    }
  }
  return owners;
}

/** Folders whose files are outside the read-model rule: tests, fixtures, benchmarks, scripts. */
const OUTSIDE_READ_MODEL_RULE = /(^|\/)(test|tests|fixtures|bench|scripts)\//;

/** The text of a string or template literal, its substitutions blanked. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ${} ');
  return undefined;
}

/**
 * SQL outside a projection's folder that names one of its tables (FROM, JOIN, UPDATE, INTO, DELETE FROM),
 * as `file:line table (projections/<owner>)`: a read model is read through its own queries only.
 */
export function readModelCrossings(root, files) {
  const owners = projectionTables(root);
  const out = [];
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    if (OUTSIDE_READ_MODEL_RULE.test(path)) continue;
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node) => {
      const sql = literalText(node);
      if (sql !== undefined) {
        const named = new Set();
        for (const m of sql.matchAll(TABLE_USE)) {
          const table = m[1].toLowerCase();
          const owner = owners.get(table);
          if (owner && !path.startsWith(`${PROJECTIONS}/${owner}/`) && !named.has(table)) {
            named.add(table);
            out.push(`${path}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1} ${table} (${PROJECTIONS}/${owner})`);
          }
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** What applies events one handler per type (`projections/types.ts`). */
const APPLY_BY_TYPE = 'applyByType';

const parse = (file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** Whether `node` calls `applyByType` (with or without type arguments) anywhere within it. */
function callsApplyByType(node) {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === APPLY_BY_TYPE) return true;
  return Boolean(ts.forEachChild(node, callsApplyByType));
}

/** The `.ts` file of `projections/` (not of a read model's folder) a relative import of `file` names, or null. */
function factoryFile(root, file, specifier) {
  if (!specifier.startsWith('.')) return null;
  const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
  return relative(root, dirname(target)).split(sep).join('/') === PROJECTIONS ? target : null;
}

/** The names `sf` imports from a factory file of `projections/` that makes a projection through `applyByType`. */
function applyingFactories(root, file, sf) {
  const names = new Set();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause?.namedBindings || !ts.isNamedImports(st.importClause.namedBindings)) continue;
    const target = factoryFile(root, file, st.moduleSpecifier.text);
    if (!target) continue;
    let factory;
    try {
      factory = parse(target);
    } catch {
      continue;
    }
    for (const el of st.importClause.namedBindings.elements) {
      const exported = (el.propertyName ?? el.name).text;
      const made = factory.statements.find((d) => (ts.isFunctionDeclaration(d) && d.name?.text === exported) || (ts.isVariableStatement(d) && d.declarationList.declarations.some((v) => v.name.getText() === exported)));
      if (made && callsApplyByType(made)) names.add(el.name.text);
    }
  }
  return names;
}

/** Whether a projection file applies through `applyByType`: a call of it, or of a factory of `projections/` that calls it. */
function appliesByType(root, file) {
  const sf = parse(file);
  if (callsApplyByType(sf)) return true;
  const factories = applyingFactories(root, file, sf);
  const callsFactory = (node) => (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && factories.has(node.expression.text)) || Boolean(ts.forEachChild(node, callsFactory));
  return factories.size > 0 && callsFactory(sf);
}

/**
 * Read models off the rule, as `projections/<name>/projection.ts: …` or `projections/<name>: …`: every
 * folder with a `projection.ts` applies events through `applyByType` and has a `*.spec.ts` beside it.
 */
export function projectionsOffTheRule(root) {
  const dir = join(root, PROJECTIONS);
  if (!isDir(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const folder = join(dir, name);
    if (!isDir(folder)) continue;
    const files = readdirSync(folder);
    if (!files.includes('projection.ts')) continue;
    if (!appliesByType(root, join(folder, 'projection.ts'))) out.push(`${PROJECTIONS}/${name}/projection.ts: applies events without applyByType (one handler per event type)`);
    if (!files.some((f) => /\.spec\.ts$/.test(f))) out.push(`${PROJECTIONS}/${name}: no spec beside it (projection.int.spec.ts, given events → then rows)`);
  }
  return out;
}
