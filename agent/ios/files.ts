import { createReadStream, createWriteStream } from 'node:fs';
import { stat as localStat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { AfcService } from 'appium-ios-device/build/lib/afc/index.js';
import { HouseArrestService } from 'appium-ios-device/build/lib/house-arrest/index.js';
import type { RpcResult } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import type { IosApps } from './apps.js';
import type { IosContext } from './context.js';

/** Folders of an app container a session may not delete or replace as a whole. */
const PROTECTED = new Set(['/', '/Documents', '/Library', '/tmp']);

/**
 * Files in the containers of apps (house_arrest vends a container, AFC moves the bytes). A device path
 * is `/<bundle id>/<path in the app's container>`; `/` lists the third-party apps. iOS vends only the
 * containers of apps installed for development. Release removes what the session created.
 */
export class IosFiles {
  /** Container paths (`/<bundle id>/<path>`) the session created. */
  private readonly pushed = new Set<string>();

  constructor(
    private readonly ctx: IosContext,
    private readonly apps: IosApps,
  ) {}

  prepare(): void {
    this.pushed.clear();
  }

  /** Removes what the session created; answers the problems met. */
  async release(): Promise<string[]> {
    const problems: string[] = [];
    for (const path of this.pushed) {
      const { bundleId, inner } = split(path);
      await this.withContainer(bundleId, (afc) => afc.deleteDirectory(inner)).catch((err: Error) => {
        // An app uninstalled at release took its container with it.
        if (!/not found|OBJECT_NOT_FOUND/i.test(err.message)) problems.push(`removing ${path}: ${err.message}`);
      });
    }
    this.pushed.clear();
    return problems;
  }

  async list(devicePath: string): Promise<RpcResult<'listFiles'>> {
    this.ctx.requirePrepared();
    if (devicePath.replace(/\/+$/, '') === '') {
      const apps = Object.keys(await this.apps.browse('User')).sort();
      return { path: devicePath, entries: apps.map((name) => ({ name, type: 'directory' as const, size: 0, mode: 0o755, modifiedAt: null })) };
    }
    const { bundleId, inner } = split(devicePath);
    return this.withContainer(bundleId, async (afc) => {
      const found = await statOrNull(afc, inner);
      if (!found) throw new DriverError('NOT_FOUND', `${devicePath} is not on the device`);
      if (!found.isDirectory()) throw new DriverError('BAD_REQUEST', `${devicePath} is not a folder`);
      const entries: RpcResult<'listFiles'>['entries'] = [];
      for (const name of await afc.listDirectory(inner)) {
        if (name === '.' || name === '..') continue;
        const info = await statOrNull(afc, `${inner.replace(/\/$/, '')}/${name}`);
        if (!info) continue;
        entries.push({
          name,
          type: info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other',
          size: info.size,
          mode: info.isDirectory() ? 0o755 : 0o644,
          modifiedAt: Number.isFinite(info.mtimeMs) && info.mtimeMs > 0 ? new Date(info.mtimeMs).toISOString() : null,
        });
      }
      return { path: devicePath, entries: entries.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1)) };
    });
  }

  async push(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>> {
    this.ctx.requirePrepared();
    const { bundleId, inner } = split(devicePath);
    refuseProtected(inner, devicePath);
    await this.withContainer(bundleId, async (afc) => {
      const parent = inner.slice(0, inner.lastIndexOf('/')) || '/';
      const parentInfo = await statOrNull(afc, parent);
      if (!parentInfo) throw new DriverError('NOT_FOUND', `The folder /${bundleId}${parent === '/' ? '' : parent} does not exist`);
      if (!parentInfo.isDirectory()) throw new DriverError('BAD_REQUEST', `/${bundleId}${parent} is not a folder`);
      const existing = await statOrNull(afc, inner);
      if (existing?.isDirectory()) throw new DriverError('BAD_REQUEST', `${devicePath} is a folder`);
      await pipeline(createReadStream(localPath), await afc.createWriteStream(inner, {}));
      if (!existing) this.pushed.add(devicePath);
    });
    return { path: devicePath, size: (await localStat(localPath)).size };
  }

  async pull(devicePath: string, localPath: string): Promise<{ size: number }> {
    this.ctx.requirePrepared();
    const { bundleId, inner } = split(devicePath);
    await this.withContainer(bundleId, async (afc) => {
      const found = await statOrNull(afc, inner);
      if (!found) throw new DriverError('NOT_FOUND', `${devicePath} is not on the device`);
      if (!found.isFile()) throw new DriverError('BAD_REQUEST', `${devicePath} is not a regular file`);
      await pipeline(await afc.createReadStream(inner, {}), createWriteStream(localPath));
    });
    return { size: (await localStat(localPath)).size };
  }

  async delete(devicePath: string): Promise<RpcResult<'deleteFile'>> {
    this.ctx.requirePrepared();
    const { bundleId, inner } = split(devicePath);
    refuseProtected(inner, devicePath);
    return this.withContainer(bundleId, async (afc) => {
      if (!(await statOrNull(afc, inner))) return { path: devicePath, deleted: false };
      await afc.deleteDirectory(inner);
      this.pushed.delete(devicePath);
      return { path: devicePath, deleted: true };
    });
  }

  async makeFolder(devicePath: string): Promise<RpcResult<'makeFolder'>> {
    this.ctx.requirePrepared();
    const { bundleId, inner } = split(devicePath);
    return this.withContainer(bundleId, async (afc) => {
      const existing = await statOrNull(afc, inner);
      if (existing) {
        if (existing.isDirectory()) return { path: devicePath };
        throw new DriverError('BAD_REQUEST', `${devicePath} exists and is not a folder`);
      }
      // The shallowest folder that does not exist yet is what AFC creates and release removes.
      const parts = inner.split('/').filter(Boolean);
      let created = inner;
      for (let i = 1; i <= parts.length; i++) {
        const candidate = `/${parts.slice(0, i).join('/')}`;
        if (!(await statOrNull(afc, candidate))) {
          created = candidate;
          break;
        }
      }
      refuseProtected(created, devicePath);
      await afc.createDirectory(inner);
      this.pushed.add(`/${bundleId}${created}`);
      return { path: devicePath };
    });
  }

  /** AFC in an app's container, vended by house_arrest; an app without one (not installed, not development-signed) is not found. */
  private async withContainer<T>(bundleId: string, work: (afc: AfcService) => Promise<T>): Promise<T> {
    const arrest = new HouseArrestService(await this.ctx.service('com.apple.mobile.house_arrest'));
    let afc: AfcService;
    try {
      afc = await arrest.vendContainer(bundleId);
    } catch (err) {
      arrest.close();
      throw new DriverError('NOT_FOUND', `No container of ${bundleId} (only apps installed for development share theirs): ${(err as Error).message.slice(0, 200)}`);
    }
    try {
      return await work(afc);
    } finally {
      afc.close();
    }
  }
}

/** `/<bundle id>/<path>` as the app and the path in its container. */
function split(devicePath: string): { bundleId: string; inner: string } {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9.-]{0,254})(\/.*)?$/.exec(devicePath);
  if (!m) throw new DriverError('BAD_REQUEST', 'An iOS device path is /<bundle id>/<path in the app container>, e.g. /com.example.app/Documents/a.txt');
  const inner = (m[2] ?? '/').replace(/\/+$/, '') || '/';
  return { bundleId: m[1]!, inner };
}

function refuseProtected(inner: string, devicePath: string): void {
  if (PROTECTED.has(inner)) throw new DriverError('BAD_REQUEST', `${devicePath} is protected`);
}

/** AFC file info, or null when the path does not exist. */
async function statOrNull(afc: AfcService, path: string) {
  try {
    return await afc.getFileInfo(path);
  } catch (err) {
    if (/OBJECT_NOT_FOUND/.test((err as Error).message)) return null;
    throw err;
  }
}
