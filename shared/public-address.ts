import { networkInterfaces } from 'node:os';

/** Hosts that mean "every interface": not an address anyone can open. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

/** Whether a listen host is reachable from this machine only. */
export const isLoopbackHost = (host: string): boolean => LOOPBACK.test(host.trim());

/**
 * An address a person can open for a server listening on `host`:`port`. A loopback host stays as it
 * is (the person is on this machine); a wildcard host (`0.0.0.0`, `::`) becomes this machine's first
 * external IPv4 address, or 127.0.0.1 when it has none.
 */
export function usableUrl(host: string, port: number, interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces()): string {
  let h = host.trim();
  if (WILDCARD.has(h)) {
    const external = Object.values(interfaces)
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    h = external?.address ?? '127.0.0.1';
  }
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  return `http://${h}:${port}`;
}

/**
 * Where links in mails and answers point: `APP_URL` when the operator set it, else the address this
 * process listens on (known once it listens; until then the configured HOST and PORT).
 */
export class PublicAddress {
  private listening: string;

  constructor(
    private readonly appUrl: string | undefined,
    host: string,
    port: number,
  ) {
    this.listening = usableUrl(host, port);
  }

  /** Told the address the server listens on (the real port when PORT is 0). */
  listeningOn(host: string, port: number): void {
    this.listening = usableUrl(host, port);
  }

  /** Whether `APP_URL` names the address (else it is derived from the listen address). */
  get configured(): boolean {
    return this.appUrl !== undefined;
  }

  /** The base URL, without a trailing slash. */
  get base(): string {
    return (this.appUrl ?? this.listening).replace(/\/+$/, '');
  }

  /** An absolute link to `path` (which starts with `/`). */
  link(path: string): string {
    return new URL(path, this.base).toString();
  }
}
