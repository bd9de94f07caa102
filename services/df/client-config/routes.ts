import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { clientAddress } from '#shared/http/client-address.js';
import { ROOT } from '#shared/root.js';
import { readBuiltFile, sendBuiltFile, type BuiltFile } from './built-files.js';
import { ClientPackages, defaultClientPackages, PACKAGE_DOWNLOADS, PackagesManifest } from './packages.js';

/** Where clients reach the device module's endpoints, through the gateway: the same for every caller. */
const ENDPOINTS = {
  apiBasePath: '/df/api',
  webDriverPath: '/df/wd',
  viewerSocketPath: '/df/ws',
  devtoolsPath: '/df/devtools',
  debugTunnelPath: '/df/debug-tunnel',
} as const;

const ClientConfig = z
  .object({
    ...(Object.fromEntries(Object.keys(ENDPOINTS).map((name) => [name, z.string()])) as Record<keyof typeof ENDPOINTS, z.ZodString>),
    workspaceId: z.number().int(),
    sessionIdleTimeoutSeconds: z.number().int(),
  })
  .meta({ id: 'DfClientConfig' });

const DfctlFile = z
  .object({
    kind: z.enum(['npm-tarball', 'script']).describe('npm-tarball: `npm install -g <url>`; script: one file to run with `node`'),
    name: z.string().describe('The file name'),
    url: z.string().describe('Absolute download URL (public: no credential needed)'),
    sha256: z.string().describe('Hex SHA-256 of the file'),
    size: z.number().int().describe('Bytes'),
  })
  .meta({ id: 'DfctlFile' });

const DfctlManifest = z
  .object({
    name: z.literal('dfctl'),
    version: z.string(),
    node: z.string().describe('The Node.js versions it runs on'),
    files: z.array(DfctlFile),
    install: z.string().describe('The command that installs it on a machine with Node.js'),
  })
  .meta({ id: 'DfctlManifest' });

/** The path under the module where the files are served (`/df` is the gateway's prefix). */
const DOWNLOADS = '/downloads/dfctl';

interface DfctlFile extends BuiltFile {
  kind: 'npm-tarball' | 'script';
}

/**
 * dfctl's built files (`npm run build:dfctl` → dist/dfctl), read once and kept in memory (a few
 * hundred kilobytes): the first request after they exist loads them, a request before that answers
 * 503 and tries again next time.
 */
export class DfctlFiles {
  private loaded: { version: string; files: DfctlFile[] } | undefined;

  constructor(
    readonly dir: string,
    readonly version: string,
  ) {}

  /** The files, or 503 `DFCTL_NOT_BUILT` naming what to run. */
  get(): { version: string; files: DfctlFile[] } {
    if (this.loaded) return this.loaded;
    const wanted: { kind: DfctlFile['kind']; name: string; contentType: string }[] = [
      { kind: 'npm-tarball', name: `dfctl-${this.version}.tgz`, contentType: 'application/gzip' },
      { kind: 'script', name: 'dfctl.cjs', contentType: 'application/javascript; charset=utf-8' },
    ];
    if (!wanted.every((w) => existsSync(join(this.dir, w.name)))) {
      throw new AppError('DFCTL_NOT_BUILT', `dfctl ${this.version} is not built on this server; run npm run build:dfctl there`);
    }
    const files = wanted.map((w) => ({ ...readBuiltFile(this.dir, w.name, w.contentType), kind: w.kind }));
    this.loaded = { version: this.version, files };
    return this.loaded;
  }
}

/** Where the repository's build puts dfctl, and the version it builds (the root package.json's). */
export function defaultDfctlFiles(): DfctlFiles {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return new DfctlFiles(join(ROOT, 'dist', 'dfctl'), version);
}

export interface ClientConfigOptions {
  sessionIdleTimeoutSeconds: number;
  /** `APP_URL`: the public address, when the operator set one. */
  appUrl?: string | undefined;
  dfctl?: DfctlFiles;
  packages?: ClientPackages;
}

/**
 * `GET /df/api/client-config`: where clients of the device module find its endpoints; and the manifests
 * (signed-in) of dfctl and of the client packages, with the files they name (public).
 */
export async function clientConfigRoutes(app: FastifyInstance, opts: ClientConfigOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const dfctl = opts.dfctl ?? defaultDfctlFiles();
  const packages = opts.packages ?? defaultClientPackages();
  r.get('/api/client-config', {
    schema: { tags: ['Device testing'], summary: 'Client configuration of the device module', response: { 200: ClientConfig } },
    handler: async (request) => ({ ...ENDPOINTS, workspaceId: request.workspace!.id, sessionIdleTimeoutSeconds: opts.sessionIdleTimeoutSeconds }),
  });

  // Served under `/df` the gateway is this process and Fastify honours X-Forwarded-* when TRUST_PROXY;
  // on the module's own server (split deployment) the gateway is the only caller, and its
  // X-Forwarded-Host / -Proto name the address the client used (as for /df/devtools).
  const behindGateway = app.prefix === '';
  /** The public base URL: `APP_URL` when set, else the address the client reached us at. */
  const baseOf = (request: FastifyRequest): string => {
    if (opts.appUrl) return opts.appUrl.replace(/\/+$/, '');
    const { proto, host } = clientAddress(request, behindGateway);
    return `${proto}://${host}`;
  };

  r.get('/api/client-config/dfctl-manifest', {
    schema: {
      tags: ['Device testing'],
      summary: 'Where to download dfctl, the command-line client, from this server: version, files with SHA-256, the install command',
      response: { 200: DfctlManifest },
    },
    handler: async (request) => {
      const built = dfctl.get();
      const base = `${baseOf(request)}/df${DOWNLOADS}`;
      const files = built.files.map((f) => ({ kind: f.kind, name: f.name, url: `${base}/${f.name}`, sha256: f.sha256, size: f.bytes.length }));
      return { name: 'dfctl' as const, version: built.version, node: '>=20', files, install: `npm install -g ${files[0]!.url}` };
    },
  });

  r.get(`${DOWNLOADS}/:file`, {
    schema: {
      tags: ['Device testing'],
      summary: "dfctl's files (public): the npm package tarball and the single-file script the manifest names",
      params: z.object({ file: z.string().min(1).max(200) }),
    },
    handler: async (request, reply) => {
      const built = dfctl.get();
      const file = built.files.find((f) => f.name === request.params.file);
      if (!file) throw new AppError('NOT_FOUND', `No dfctl file named ${request.params.file}; GET /df/api/client-config/dfctl-manifest lists them`);
      return sendBuiltFile(request, reply, file);
    },
  });

  r.get('/api/client-config/packages-manifest', {
    schema: {
      tags: ['Device testing'],
      summary: 'Where to download the client packages (typed API client, WebdriverIO service, Playwright fixture) from this server: versions, tarballs with SHA-256, the install commands',
      response: { 200: PackagesManifest },
    },
    handler: async (request) => packages.manifest(`${baseOf(request)}/df${PACKAGE_DOWNLOADS}`),
  });

  r.get(`${PACKAGE_DOWNLOADS}/:file`, {
    schema: {
      tags: ['Device testing'],
      summary: "The client packages' npm tarballs (public) that the packages manifest names",
      params: z.object({ file: z.string().min(1).max(200) }),
    },
    handler: async (request, reply) => {
      const file = packages.get().find((p) => p.file.name === request.params.file)?.file;
      if (!file) throw new AppError('NOT_FOUND', `No client package file named ${request.params.file}; GET /df/api/client-config/packages-manifest lists them`);
      return sendBuiltFile(request, reply, file);
    },
  });
}
