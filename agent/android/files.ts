import { stat as localStat } from 'node:fs/promises';
import type { RpcResult } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import { pullFile, pushFile, shellQuote } from './adb.js';
import type { AndroidContext } from './context.js';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
/** Folders a session may not delete or replace as a whole. */
const PROTECTED = new Set(['/', '/sdcard', '/storage', '/storage/emulated', '/storage/emulated/0', '/data', '/data/local', '/data/local/tmp', '/system', '/vendor', '/proc', '/dev', '/sys']);

/**
 * The files of an Android device through adb's sync service: pushed, pulled, listed, deleted, folders
 * made. Release removes what the session created.
 */
export class AndroidFiles {
  /** Paths the session created: removed at release. */
  private readonly pushed = new Set<string>();

  constructor(private readonly ctx: AndroidContext) {}

  prepare(): void {
    this.pushed.clear();
  }

  async release(attempt: (what: string, work: () => Promise<unknown>) => Promise<void>): Promise<void> {
    const pushed = [...this.pushed];
    this.pushed.clear();
    await Promise.all(pushed.map((path) => attempt(`removing ${path}`, () => this.ctx.sh(`rm -rf ${shellQuote(path)}`))));
  }

  async push(localPath: string, devicePath: string): Promise<RpcResult<'pushFile'>> {
    this.ctx.requirePrepared();
    this.refuseProtected(devicePath);
    const parent = devicePath.slice(0, devicePath.lastIndexOf('/')) || '/';
    const parentStat = await this.statOrNull(parent);
    if (!parentStat) throw new DriverError('NOT_FOUND', `The folder ${parent} does not exist`);
    if ((parentStat.mode & S_IFMT) !== S_IFDIR) throw new DriverError('BAD_REQUEST', `${parent} is not a folder`);
    const existing = await this.statOrNull(devicePath);
    if (existing && (existing.mode & S_IFMT) === S_IFDIR) throw new DriverError('BAD_REQUEST', `${devicePath} is a folder`);
    await pushFile(this.ctx.device, localPath, devicePath);
    if (!existing) this.pushed.add(devicePath);
    return { path: devicePath, size: (await localStat(localPath)).size };
  }

  async pull(devicePath: string, localPath: string): Promise<{ size: number }> {
    this.ctx.requirePrepared();
    const found = await this.statOrNull(devicePath);
    if (!found) throw new DriverError('NOT_FOUND', `${devicePath} is not on the device`);
    if ((found.mode & S_IFMT) !== S_IFREG) throw new DriverError('BAD_REQUEST', `${devicePath} is not a regular file`);
    await pullFile(this.ctx.device, devicePath, localPath);
    return { size: (await localStat(localPath)).size };
  }

  async list(devicePath: string): Promise<RpcResult<'listFiles'>> {
    this.ctx.requirePrepared();
    const found = await this.statOrNull(devicePath);
    if (!found) throw new DriverError('NOT_FOUND', `${devicePath} is not on the device`);
    if ((found.mode & S_IFMT) !== S_IFDIR) throw new DriverError('BAD_REQUEST', `${devicePath} is not a folder`);
    const entries: { name: string; mode: number; size: number }[] = await this.ctx.device.readdir(devicePath);
    return {
      path: devicePath,
      entries: entries
        .filter((e) => e.name !== '.' && e.name !== '..')
        .map((e) => {
          const kind = e.mode & S_IFMT;
          const mtime = (e as unknown as { mtimeMs?: number }).mtimeMs;
          return {
            name: e.name,
            type: kind === S_IFDIR ? ('directory' as const) : kind === S_IFREG ? ('file' as const) : ('other' as const),
            size: e.size,
            mode: e.mode & 0o7777,
            modifiedAt: typeof mtime === 'number' && Number.isFinite(mtime) ? new Date(mtime).toISOString() : null,
          };
        })
        .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1)),
    };
  }

  async delete(devicePath: string): Promise<RpcResult<'deleteFile'>> {
    this.ctx.requirePrepared();
    this.refuseProtected(devicePath);
    if (!(await this.statOrNull(devicePath))) return { path: devicePath, deleted: false };
    const out = await this.ctx.sh(`rm -rf ${shellQuote(devicePath)}`);
    if (await this.statOrNull(devicePath)) throw new DriverError('BAD_REQUEST', `${devicePath} could not be deleted: ${out.trim().slice(0, 300)}`);
    this.pushed.delete(devicePath);
    return { path: devicePath, deleted: true };
  }

  async makeFolder(devicePath: string): Promise<RpcResult<'makeFolder'>> {
    this.ctx.requirePrepared();
    const existing = await this.statOrNull(devicePath);
    if (existing) {
      if ((existing.mode & S_IFMT) === S_IFDIR) return { path: devicePath };
      throw new DriverError('BAD_REQUEST', `${devicePath} exists and is not a folder`);
    }
    // The shallowest folder that does not exist yet is what `mkdir -p` creates and release removes.
    const parts = devicePath.split('/').filter(Boolean);
    let created = devicePath;
    for (let i = 1; i <= parts.length; i++) {
      const candidate = `/${parts.slice(0, i).join('/')}`;
      if (!(await this.statOrNull(candidate))) {
        created = candidate;
        break;
      }
    }
    this.refuseProtected(created);
    const out = await this.ctx.sh(`mkdir -p ${shellQuote(devicePath)}`);
    if (!(await this.statOrNull(devicePath))) throw new DriverError('BAD_REQUEST', `${devicePath} could not be created: ${out.trim().slice(0, 300)}`);
    this.pushed.add(created);
    return { path: devicePath };
  }

  private async statOrNull(devicePath: string): Promise<{ mode: number; size: number } | null> {
    try {
      const s = await this.ctx.device.stat(devicePath);
      return { mode: s.mode, size: s.size };
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return null;
      throw err;
    }
  }

  private refuseProtected(devicePath: string): void {
    const normal = devicePath.replace(/\/+$/, '') || '/';
    if (PROTECTED.has(normal)) throw new DriverError('BAD_REQUEST', `${normal} is protected`);
  }
}
