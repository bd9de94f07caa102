// The typed client's types (clients/api/src/schema.ts), generated from the platform's own OpenAPI
// document: the one a server started in this process answers at /openapi.json (embedded defaults, a
// fresh PGlite data directory, loopback only), turned into TypeScript by openapi-typescript. Used by
// `npm run client:generate` (writes the file), `npm run client:check` and test/clients/ (compare).
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { startTestServer } from '#test/helpers/server.js';

/** The checked-in file the generator writes. */
export const SCHEMA_FILE = fileURLToPath(new URL('../clients/api/src/schema.ts', import.meta.url));

const HEADER = `// Generated from the platform's OpenAPI document by \`npm run client:generate\`: do not edit.
// A route whose schema changes makes \`npm run client:check\` (and test/clients/) fail until this
// file is generated again.
`;

/** An object with its own keys in code-point order (one level). */
function sortedKeys<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries) as T;
}

/** An OpenAPI 3 document, as `/openapi.json` answers it. */
export type OpenApiDocument = OpenAPI3;

/**
 * The document in a stable order: paths and every components map sorted by name (the order routes
 * are registered in, which moves when a feature is added, changes no line of the output).
 */
export function stableDocument(document: OpenApiDocument): OpenApiDocument {
  const components = document.components ? Object.fromEntries(Object.entries(sortedKeys(document.components)).map(([k, v]) => [k, sortedKeys(v)])) : undefined;
  return { ...document, ...(document.paths ? { paths: sortedKeys(document.paths) } : {}), ...(components ? { components: components as OpenAPI3['components'] } : {}) };
}

/** The TypeScript source of clients/api/src/schema.ts for `document`, header included. */
export async function schemaSource(document: OpenApiDocument): Promise<string> {
  const nodes = await openapiTS(stableDocument(document), { alphabetize: true, silent: true });
  return `${HEADER}\n${astToString(nodes).trimEnd()}\n`;
}

/** The document a server started in this process serves (no listener of its own beyond loopback port 0). */
export async function liveDocument(): Promise<OpenApiDocument> {
  const server = await startTestServer({ AGENT_ENABLED: 'false' });
  try {
    const res = await server.process.app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
    return res.json() as OpenApiDocument;
  } finally {
    await server.stop();
  }
}

/** How to bring the checked-in file up to date, for failure messages. */
export const REGENERATE = 'run `npm run client:generate` and commit clients/api/src/schema.ts';
