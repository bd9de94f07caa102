import type { ActiveWorkspace } from '#shared/http/principal.js';

type Resolve = (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>;

export interface WorkspaceCacheOptions {
  /**
   * Position of the read model the answers come from, when this process runs it: any change to it
   * empties the cache at once. Without it, answers are trusted for `ttlMs`.
   */
  version?: () => bigint | undefined;
  ttlMs: number;
  maxEntries?: number;
}

/**
 * Remembers who may enter which workspace, so the gateway does not ask the database on every request.
 * In one process the cache follows the directory projection exactly (it is dropped whenever the
 * projection moves); across processes an answer lives `ttlMs` at most.
 */
export function cachedWorkspaceResolver(resolve: Resolve, options: WorkspaceCacheOptions): Resolve {
  const maxEntries = options.maxEntries ?? 10_000;
  let entries = new Map<string, { value: ActiveWorkspace | null; at: number }>();
  let seenVersion: bigint | undefined;
  return async (user, workspaceId) => {
    const version = options.version?.();
    if (version !== seenVersion) {
      entries = new Map();
      seenVersion = version;
    }
    const key = `${user.companyId}:${user.userId}:${workspaceId}`;
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && (version !== undefined || now - hit.at < options.ttlMs)) return hit.value;
    const value = await resolve(user, workspaceId);
    // A read that started before a change must not be cached under the new version.
    if (options.version?.() === version) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, at: now });
    }
    return value;
  };
}
