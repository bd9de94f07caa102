import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { ROOT } from '#shared/root.js';
import { readBuiltFile, type BuiltFile } from './built-files.js';

/** The path under the module where the tarballs are served (`/df` is the gateway's prefix). */
export const PACKAGE_DOWNLOADS = '/downloads/packages';

/**
 * The client packages in install order: the WebdriverIO service and the Playwright fixture depend on the
 * typed client, so an install that names the client first finds it there instead of asking a registry.
 */
const PACKAGE_DIRS = ['api', 'wdio-service', 'playwright-fixture'] as const;

const ClientPackage = z
  .object({
    name: z.string().describe('The npm package name'),
    version: z.string(),
    file: z.string().describe("The tarball's file name"),
    url: z.string().describe('Absolute download URL (public: no credential needed)'),
    sha256: z.string().describe('Hex SHA-256 of the tarball'),
    size: z.number().int().describe('Bytes'),
    install: z.string().describe('`npm install <url>`: adds it to a project'),
  })
  .meta({ id: 'ClientPackage' });

export const PackagesManifest = z
  .object({
    node: z.string().describe('The Node.js versions they run on'),
    packages: z.array(ClientPackage).describe('In install order: the typed client first, which the others depend on'),
    install: z.string().describe('One `npm install` of them all, the typed client first'),
  })
  .meta({ id: 'ClientPackagesManifest' });

/** npm pack's file name: the scope's @ dropped and its / made a dash (`@qa-platform/client` → `qa-platform-client-0.1.0.tgz`). */
export const tarballName = (name: string, version: string): string => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/**
 * The client packages' tarballs (`npm run build:clients` → dist/clients), read once and kept in memory
 * (some tens of kilobytes): the first request after they exist loads them, a request before that
 * answers 503 and tries again next time.
 */
export class ClientPackages {
  private loaded: { name: string; version: string; file: BuiltFile }[] | undefined;

  constructor(
    readonly dir: string,
    readonly packages: readonly { name: string; version: string }[],
  ) {}

  /** The tarballs, or 503 `CLIENTS_NOT_BUILT` naming what to run. */
  get(): { name: string; version: string; file: BuiltFile }[] {
    if (this.loaded) return this.loaded;
    const wanted = this.packages.map((p) => ({ ...p, fileName: tarballName(p.name, p.version) }));
    const missing = wanted.filter((w) => !existsSync(join(this.dir, w.fileName)));
    if (missing.length > 0) {
      throw new AppError('CLIENTS_NOT_BUILT', `The client packages are not built on this server (${missing.map((m) => m.fileName).join(', ')} missing); run npm run build:clients there`);
    }
    this.loaded = wanted.map((w) => ({ name: w.name, version: w.version, file: readBuiltFile(this.dir, w.fileName, 'application/gzip') }));
    return this.loaded;
  }

  /** The manifest, its URLs under `base` (the public address of the downloads folder). */
  manifest(base: string): z.infer<typeof PackagesManifest> {
    const packages = this.get().map((p) => {
      const url = `${base}/${p.file.name}`;
      return { name: p.name, version: p.version, file: p.file.name, url, sha256: p.file.sha256, size: p.file.bytes.length, install: `npm install ${url}` };
    });
    return { node: '>=20', packages, install: `npm install ${packages.map((p) => p.url).join(' ')}` };
  }
}

/** Where the repository's build puts the tarballs, and the packages' names and versions (their package.json). */
export function defaultClientPackages(): ClientPackages {
  const packages = PACKAGE_DIRS.map((dir) => {
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'clients', dir, 'package.json'), 'utf8')) as { name: string; version: string };
    return { name, version };
  });
  return new ClientPackages(join(ROOT, 'dist', 'clients'), packages);
}
