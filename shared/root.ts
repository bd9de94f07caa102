import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The platform's own folder (the one holding its package.json): what the console's build, the client
 * packages, dfctl and the files read beside the sources are found under. Found by walking up from this
 * module, so it is the same whether the sources run through a TypeScript loader or as the compiled
 * bundle `npm start` runs (`dist/server/`), which sits at another depth.
 */
export const ROOT = findRoot(import.meta.dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'qa-platform') return dir;
    if (dirname(dir) === dir) throw new Error(`no qa-platform package.json above ${from}`);
  }
}
