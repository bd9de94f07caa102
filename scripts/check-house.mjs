#!/usr/bin/env node
// The house rules of docs/architecture.md that imports alone do not show ("The feature shape"):
//
// - every feature folder (`services/<module>/<feature>/`, for each module with an `index.ts`) has an
//   `index.ts`; a feature with HTTP routes exports its plugin there through `fastify-plugin`, named
//   `<module>-<feature>`; the write side is `service.ts` (no `commands.ts`); a `routes.ts` longer than
//   ROUTES_MAX_LINES is split by resource into `routes/`; a `decide.ts` has its specification beside it;
// - no source file outside tests is longer than FILE_MAX_LINES lines;
// - no function outside tests is longer than FUNCTION_MAX_LINES lines unless a comment just above it
//   says why (`// Long on purpose: <reason>`);
// - route files run no commands (`handleCommand`, an `OrgWriter`'s `run` or `claimName`): routes call
//   their feature's service, the write side;
// - no two values are compared by their JSON texts (`JSON.stringify(a) === JSON.stringify(b)`): the
//   order of an object's keys decides that comparison; `sameJson` (shared/canonical.ts) does not;
// - a command's context is built only by `commandContext` (shared/es/decider.ts): no other function
//   declares `CommandContext` as what it returns, and no object literal is declared one (`: CommandContext`,
//   `as`/`satisfies CommandContext`); a feature computes the actor (`CommandActor`) and calls it.
// - no SQL outside `projections/<name>/` names a table that projection owns (creates or declares): a read
//   model is read through its own queries (`projections/<name>/queries.ts` or `queries/`), never by another
//   feature's or projection's SQL (tests, fixtures, benchmarks and scripts aside);
// - every decider a `decide.ts` exports is made with `defineDecider` or a factory of `shared/es/`
//   (`lifecycleDecider`, `revocableKeyDecider`, the name-claim decider, …), never written as a literal;
// - every read model (`projections/<name>/` with a `projection.ts`) applies events through `applyByType`,
//   itself or through a factory of `projections/` that does, and has a spec (`*.spec.ts`) in its folder.
//
// Lists every offence and exits 1 when there is one; CI runs it (`npm run check:house`).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { handWrittenDeciders, isDir } from './check-house-rules.mjs';
import { projectionsOffTheRule, readModelCrossings } from './house-read-models.mjs';

export { handWrittenDeciders };
export { projectionTables, projectionsOffTheRule, readModelCrossings } from './house-read-models.mjs';

export const FUNCTION_MAX_LINES = 150;
/** No source file outside tests is longer: past it, a file holds more than one job (split it by job). */
export const FILE_MAX_LINES = 400;
export const ROUTES_MAX_LINES = 250;
/** The marker that excuses a long function; the reason follows it. */
export const LONG_MARKER = 'Long on purpose:';
/** Folders of code whose functions are measured (tests, benchmarks and fixtures are not). */
const CODE_FOLDERS = ['services', 'shared', 'events', 'projections', 'agent', 'cli', 'console/src', 'scripts'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test', 'bench', 'fixtures']);

const lineCount = (path) => readFileSync(path, 'utf8').split('\n').length;

/** A module's shared floor (`services/df/core/`): what its features share, not a feature. */
const FLOOR = 'core';

/** The feature folders of every module: `services/<module>/<feature>` where the module has an index.ts (its floor aside). */
export function featureFolders(root) {
  const services = join(root, 'services');
  if (!isDir(services)) return [];
  const out = [];
  for (const module of readdirSync(services).sort()) {
    const dir = join(services, module);
    if (!isDir(dir) || !existsSync(join(dir, 'index.ts'))) continue;
    for (const feature of readdirSync(dir).sort()) if (feature !== FLOOR && isDir(join(dir, feature))) out.push({ module, feature, dir: join(dir, feature) });
  }
  return out;
}

/** What a feature folder lacks of the documented shape, one line each. */
export function shapeOffences(root) {
  const out = [];
  for (const { module, feature, dir } of featureFolders(root)) {
    const where = relative(root, dir);
    const files = readdirSync(dir);
    const hasRoutes = files.some((f) => f === 'routes' || /(^|-)routes\.ts$/.test(f));
    const index = join(dir, 'index.ts');
    if (!existsSync(index)) out.push(`${where}: no index.ts (the feature's one door)`);
    else if (hasRoutes) {
      const text = readFileSync(index, 'utf8');
      const name = `${module}-${feature}`;
      if (!/from 'fastify-plugin'/.test(text)) out.push(`${where}/index.ts: has routes but exports no plugin made with fastify-plugin`);
      else if (!text.includes(`name: '${name}'`)) out.push(`${where}/index.ts: its plugin is not named '${name}'`);
    }
    if (files.includes('commands.ts')) out.push(`${where}/commands.ts: the write side is named service.ts`);
    if (files.includes('routes.ts') && lineCount(join(dir, 'routes.ts')) > ROUTES_MAX_LINES)
      out.push(`${where}/routes.ts: ${lineCount(join(dir, 'routes.ts'))} lines; split it by resource into routes/`);
    if (files.includes('decide.ts') && !files.some((f) => /^decide\..*spec\.ts$/.test(f))) out.push(`${where}/decide.ts: no specification beside it`);
  }
  return out;
}

function sourceFiles(dir, out = []) {
  if (!isDir(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `callback of ${parent.expression.getText().slice(0, 40)}`;
  return '<anonymous>';
}

/** Whether a comment carrying the marker stands just above the function (or the statement that starts with it). */
function excused(node, sf) {
  const text = sf.getFullText();
  const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  for (let n = node; n && n !== sf; n = n.parent) {
    if (sf.getLineAndCharacterOfPosition(n.getStart(sf)).line < start - 2) break;
    for (const range of ts.getLeadingCommentRanges(text, n.pos) ?? []) if (text.slice(range.pos, range.end).includes(LONG_MARKER)) return true;
  }
  return false;
}

/** Source files longer than FILE_MAX_LINES, as `file (lines)`. */
export function longFiles(root, files) {
  return files.flatMap((file) => {
    const lines = lineCount(file);
    return lines > FILE_MAX_LINES ? [`${relative(root, file).split(sep).join('/')} (${lines} lines)`] : [];
  });
}

/** Functions longer than FUNCTION_MAX_LINES with no comment saying why, in `files`. */
export function longFunctions(root, files) {
  const out = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const lines = sf.getLineAndCharacterOfPosition(node.end).line - first + 1;
        if (lines > FUNCTION_MAX_LINES && !excused(node, sf)) out.push({ file: relative(root, file), line: first + 1, name: nameOf(node), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out.sort((a, b) => b.lines - a.lines);
}

const isRouteFile = (path) => /^services\/.*(\/routes\.ts|\/routes\/[^/]+\.ts|-routes\.ts)$/.test(path);

/** Whether `node` runs a command: `handleCommand(...)`, `<writer>.run(...)`, `<anything>.claimName(...)`. */
function runsCommand(node) {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 'handleCommand';
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const name = callee.name.text;
  return name === 'claimName' || (name === 'run' && /writer$/i.test(callee.expression.getText()));
}

/** Route files that run commands, as `file:line` of the first. */
export function routesRunningCommands(root, files) {
  const running = [];
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    if (!isRouteFile(path)) continue;
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    let line = 0;
    const visit = (node) => {
      if (!line && runsCommand(node)) line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      ts.forEachChild(node, visit);
    };
    visit(sf);
    if (line) running.push(`${path}:${line}`);
  }
  return running;
}

const isJsonText = (node) => ts.isCallExpression(node) && node.expression.getText() === 'JSON.stringify';
const EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

/** Comparisons of two `JSON.stringify` texts in `files`, as `file:line`. */
export function jsonTextComparisons(root, files) {
  const out = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('JSON.stringify')) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node) => {
      if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind) && isJsonText(node.left) && isJsonText(node.right)) {
        out.push(`${relative(root, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** The one file that builds a command's context (`commandContext`). */
const CONTEXT_BUILDER = 'shared/es/decider.ts';

const isCommandContextType = (type) => {
  if (!type) return false;
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText();
    if (name === 'CommandContext') return true;
    // `Promise<CommandContext>` and the like: what an async builder returns.
    if (name === 'Promise' && type.typeArguments?.length === 1) return isCommandContextType(type.typeArguments[0]);
  }
  // `CommandContext & {...}`: a context with more, built all the same.
  if (ts.isIntersectionTypeNode(type)) return type.types.some(isCommandContextType);
  return false;
};
const unwrapped = (node) => (node && ts.isParenthesizedExpression(node) ? unwrapped(node.expression) : node);

/**
 * Places that build a command's context themselves instead of calling `commandContext`, as `file:line what`:
 * functions declaring `CommandContext` as their return type, object literals declared one.
 */
export function contextBuilders(root, files) {
  const out = [];
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    if (path === CONTEXT_BUILDER) continue;
    const text = readFileSync(file, 'utf8');
    if (!text.includes('CommandContext')) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const at = (node) => `${path}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const visit = (node) => {
      if (ts.isFunctionLike(node) && isCommandContextType(node.type)) out.push(`${at(node)} ${nameOf(node)} returns a CommandContext`);
      else if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) && isCommandContextType(node.type) && node.initializer && ts.isObjectLiteralExpression(unwrapped(node.initializer)))
        out.push(`${at(node)} ${node.name.getText()} is an object literal declared CommandContext`);
      else if ((ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node)) && isCommandContextType(node.type) && ts.isObjectLiteralExpression(unwrapped(node.expression)))
        out.push(`${at(node)} an object literal as a CommandContext`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

export function checkHouse(root) {
  const files = CODE_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)));
  return {
    shape: shapeOffences(root),
    long: longFunctions(root, files),
    longFiles: longFiles(root, files),
    jsonTexts: jsonTextComparisons(root, files),
    routesWriting: routesRunningCommands(root, files),
    contextBuilders: contextBuilders(root, files),
    readModelSql: readModelCrossings(root, files),
    deciders: handWrittenDeciders(root, files),
    projections: projectionsOffTheRule(root),
    files: files.length,
    features: featureFolders(root).length,
  };
}

function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { shape, long, longFiles: bigFiles, jsonTexts, routesWriting, contextBuilders: builders, readModelSql, deciders, projections, files, features } = checkHouse(root);
  for (const s of shape) console.log(`feature shape: ${s}`);
  for (const f of long) console.log(`long function: ${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
  for (const f of bigFiles) console.log(`long file: ${f} (split it by job; at most ${FILE_MAX_LINES} lines)`);
  for (const at of jsonTexts) console.log(`JSON texts compared: ${at} (compare with sameJson from shared/canonical.ts)`);
  for (const at of routesWriting) console.log(`route file runs a command: ${at} (move the write into the feature's service)`);
  for (const b of builders) console.log(`command context built by hand: ${b} (call commandContext(clock, actor) from shared/es/decider.ts)`);
  for (const at of readModelSql) console.log(`SQL on another read model's table: ${at} (ask a query of that projection's queries.ts)`);
  for (const at of deciders) console.log(`decider written by hand: ${at} (make it with defineDecider or a factory of shared/es/)`);
  for (const p of projections) console.log(`read model: ${p}`);
  console.log(
    `house: ${features} feature folders, ${shape.length} off the shape; ${files} files, ${long.length} functions over ${FUNCTION_MAX_LINES} lines without a reason, ${bigFiles.length} files over ${FILE_MAX_LINES} lines, ${jsonTexts.length} comparisons of JSON texts, ${routesWriting.length} route files running commands, ${builders.length} command contexts built by hand, ${readModelSql.length} SQL texts on another read model's tables, ${deciders.length} deciders written by hand, ${projections.length} read models off the rule (applyByType, a spec beside it)`,
  );
  return shape.length || long.length || bigFiles.length || jsonTexts.length || routesWriting.length || builders.length || readModelSql.length || deciders.length || projections.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
