import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './errors.js';

/** What dfctl remembers between runs (`~/.config/dfctl/config.json`, mode 0600: it holds tokens). */
export interface DfctlConfig {
  server?: string;
  accessToken?: string;
  refreshToken?: string;
  workspaceId?: number;
  /** Who signed in, for `whoami` and messages. */
  login?: string;
}

export function configPath(): string {
  if (process.env.DFCTL_CONFIG) return process.env.DFCTL_CONFIG;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'dfctl', 'config.json');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The saved config; an empty one when there is no file. A file that is not ours is an error, not ignored. */
export function loadConfig(path = configPath()): DfctlConfig {
  if (!existsSync(path)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CliError(`the config file ${path} is not valid JSON (${(err as Error).message}); fix or delete it`, 'CONFIG_INVALID');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new CliError(`the config file ${path} is not a JSON object`, 'CONFIG_INVALID');
  const r = raw as Record<string, unknown>;
  const config: DfctlConfig = {};
  const server = str(r.server);
  if (server) config.server = server;
  const accessToken = str(r.accessToken);
  if (accessToken) config.accessToken = accessToken;
  const refreshToken = str(r.refreshToken);
  if (refreshToken) config.refreshToken = refreshToken;
  if (typeof r.workspaceId === 'number' && Number.isInteger(r.workspaceId)) config.workspaceId = r.workspaceId;
  const login = str(r.login);
  if (login) config.login = login;
  return config;
}

/** Writes the config atomically (temp file + rename), readable by its owner only. */
export function saveConfig(config: DfctlConfig, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/**
 * Runs `fn` holding an exclusive lock next to the config file. Refresh tokens are single use and a
 * second use ends the whole sign-in, so two dfctl processes (a long `dfctl adb` and a `dfctl
 * devices` beside it) must never refresh with the same token: the one that waits re-reads the
 * config inside the lock and finds the pair the other saved.
 */
export async function withConfigLock<T>(fn: () => Promise<T>, path = configPath()): Promise<T> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const lock = `${path}.lock`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock left by a process that died mid-refresh would otherwise block every later run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10_000) unlinkSync(lock);
      } catch {
        // gone already
      }
      if (Date.now() > deadline) throw new CliError(`the config file is locked by another dfctl (${lock})`, 'CONFIG_LOCKED', EXIT.ERROR);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // removed as stale by another process
    }
  }
}
