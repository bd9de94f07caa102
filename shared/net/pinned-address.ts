import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { isSpecialPurposeAddress } from './special-addresses.js';

/** Resolves a host name to its addresses (`dns.lookup` with `all`; a test may answer its own). */
export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true });

/** The one address a connection to a host goes to, checked. */
export interface CheckedAddress {
  /** The name as configured (for the Host header, TLS SNI and certificate checks). */
  host: string;
  address: string;
  family: 4 | 6;
}

/** A host that may not be connected to, or resolves to nothing; `message` is for operators and the attempt's log. */
export class AddressRefused extends Error {
  override readonly name = 'AddressRefused';
}

/**
 * Resolves `host` (a name or an address literal, IPv6 with or without brackets) once and answers the
 * address to connect to. Unless `allowPrivate`, a name any of whose addresses is special-purpose
 * (loopback, private, link-local, documentation, …: `isSpecialPurposeAddress`) is refused. The caller
 * connects to `address` and to nothing resolved later, so a name that answers differently on a second
 * lookup (DNS rebinding) cannot move the connection after the check.
 */
export async function resolveChecked(host: string, options: { allowPrivate: boolean; resolve?: Resolve }): Promise<CheckedAddress> {
  const name = host.replace(/^\[|\]$/g, '');
  const literal = isIP(name.replace(/%.*$/, ''));
  const answers = literal ? [{ address: name, family: literal }] : await (options.resolve ?? systemResolve)(name).catch(() => []);
  const first = answers[0];
  if (!first) throw new AddressRefused(`cannot resolve ${name}`);
  if (!options.allowPrivate && answers.some((a) => isSpecialPurposeAddress(a.address))) {
    throw new AddressRefused(`${name} resolves to a loopback, private or reserved address, which this installation does not allow`);
  }
  return { host: name, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A `lookup` for `net`/`http`/`tls` connections that answers the checked address whatever name it is
 * asked for: the connection keeps the configured name (Host header, SNI) and goes where it was checked.
 */
export function pinnedLookup(target: CheckedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
