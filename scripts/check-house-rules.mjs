// The read-model and decider rules of `npm run check:house` (scripts/check-house.mjs), which runs them:
// no SQL outside a projection's folder on the tables it owns, and deciders made only with
// `defineDecider` or a factory of `shared/es/`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export const isDir = (path) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

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

/** What a decider is made with: `defineDecider` or a factory of `shared/es/` (lifecycle, revocable key, name claim, …). */
const DECIDER_MAKERS = /^(#shared\/es\/|(\.\.\/)+shared\/es\/)/;

const unwrap = (node) => (node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) ? unwrap(node.expression) : node);

/** Whether a declaration is a decider: typed `Decider<…>`, an `{ initialState, evolve, decide }` literal, or made by a call named like one. */
function declaresDecider(decl) {
  if (decl.type && /^Decider\s*</.test(decl.type.getText())) return true;
  const init = unwrap(decl.initializer);
  if (init && ts.isObjectLiteralExpression(init)) {
    const names = new Set(init.properties.map((p) => p.name?.getText()));
    return names.has('initialState') && names.has('evolve') && names.has('decide');
  }
  return Boolean(init && ts.isCallExpression(init) && /decider/i.test(init.expression.getText()));
}

/** The names a file imports from a module of `shared/es/`. */
function esImports(sf) {
  const names = new Set();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !DECIDER_MAKERS.test(st.moduleSpecifier.text) || !st.importClause?.namedBindings) continue;
    const bindings = st.importClause.namedBindings;
    if (ts.isNamedImports(bindings)) for (const el of bindings.elements) names.add(el.name.text);
  }
  return names;
}

/** The callee of `f(...)`, `f<T>()(...)` (a factory that takes its types first), as its identifier. */
function calleeName(call) {
  let callee = call.expression;
  while (ts.isCallExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) ? callee.text : null;
}

/** Deciders in `decide.ts` files not made with `defineDecider` or a factory of `shared/es/`, as `file:line name`. */
export function handWrittenDeciders(root, files) {
  const out = [];
  for (const file of files) {
    if (!file.endsWith(`${sep}decide.ts`)) continue;
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const makers = esImports(sf);
    for (const st of sf.statements) {
      if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const decl of st.declarationList.declarations) {
        if (!declaresDecider(decl)) continue;
        const init = unwrap(decl.initializer);
        if (init && ts.isCallExpression(init) && makers.has(calleeName(init) ?? '')) continue;
        out.push(`${relative(root, file).split(sep).join('/')}:${sf.getLineAndCharacterOfPosition(decl.getStart(sf)).line + 1} ${decl.name.getText()}`);
      }
    }
  }
  return out;
}
