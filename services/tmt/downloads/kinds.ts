import type { Readable } from 'node:stream';
import type { PermissionKey } from '#shared/permissions.js';

/** The tenant a download belongs to: a link is valid only for objects of this company and workspace. */
export interface DownloadScope {
  companyId: number;
  workspaceId: number;
}

/** What a download answers with. */
export interface DownloadObject {
  filename: string;
  contentType: string;
  size?: number;
  stream: Readable;
}

/** One kind of downloadable object (`attachment`, later `test-session-report`, ...). */
export interface DownloadKind {
  /** The key a caller must hold in the workspace to create a link to an object of this kind. */
  permission: PermissionKey;
  /**
   * The object `id` of this scope, opened for reading; null when absent (or another tenant's). Called
   * when a link is used, so an object deleted after the link was made is no longer served.
   */
  resolve(scope: DownloadScope, id: string): Promise<DownloadObject | null>;
  /** Whether `id` exists in the scope, checked when a link is created; when absent, `resolve` is called and its stream closed. */
  exists?(scope: DownloadScope, id: string): Promise<boolean>;
}

const KIND = /^[a-z][a-z0-9-]{0,63}$/;

/** Kinds of pre-authorized downloads, registered by the features that own the objects. */
export class DownloadKinds {
  private readonly kinds = new Map<string, DownloadKind>();

  /** Adds a kind; its name is lower-case kebab-case and registered once. */
  register(name: string, kind: DownloadKind): void {
    if (!KIND.test(name)) throw new Error(`Bad download kind name "${name}"`);
    if (this.kinds.has(name)) throw new Error(`Download kind "${name}" is already registered`);
    this.kinds.set(name, kind);
  }

  get(name: string): DownloadKind | undefined {
    return this.kinds.get(name);
  }

  names(): string[] {
    return [...this.kinds.keys()].sort();
  }

  /** Whether the object exists in the scope, without reading it. */
  async exists(name: string, scope: DownloadScope, id: string): Promise<boolean> {
    const kind = this.kinds.get(name);
    if (!kind) return false;
    if (kind.exists) return kind.exists(scope, id);
    const found = await kind.resolve(scope, id);
    found?.stream.destroy();
    return found !== null;
  }
}
