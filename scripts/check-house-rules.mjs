// The decider rule of `npm run check:house` (scripts/check-house.mjs), which runs it: deciders made only
// with `defineDecider` or a factory of `shared/es/`; and what the house's checks share.
import { readFileSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import ts from 'typescript';

export const isDir = (path) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

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
