import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '#shared/errors.js';

/** Loopback, private, link-local, carrier-grade NAT, unspecified and unique-local ranges: never a production endpoint unless allowed. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  return family === 4 ? PRIVATE.check(address, 'ipv4') : family === 6 ? PRIVATE.check(address, 'ipv6') : false;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * An endpoint's URL as given, checked: absolute http(s), no credentials in it, and (unless private
 * addresses are allowed) not a loopback, private or link-local address or `localhost`. 400
 * `INVALID_WEBHOOK_URL` otherwise.
 */
export function checkedEndpointUrl(value: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('INVALID_WEBHOOK_URL', 'The webhook URL must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('INVALID_WEBHOOK_URL', 'The webhook URL must be an http:// or https:// URL');
  if (url.username || url.password) throw new AppError('INVALID_WEBHOOK_URL', 'The webhook URL must not carry credentials');
  const host = hostOf(url).toLowerCase();
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || isPrivate(host))) {
    throw new AppError('INVALID_WEBHOOK_URL', 'The webhook URL points at a loopback or private address, which this installation does not allow');
  }
  return url.toString();
}

/**
 * Before each attempt, where the host name resolves now: a name that turned private since the
 * endpoint was saved is refused too. Returns an error for the attempt's log, or null.
 */
export async function refusedAddress(value: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = hostOf(new URL(value));
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) return `cannot resolve ${host}`;
  return addresses.some((a) => isPrivate(a.address)) ? `${host} resolves to a private address, which this installation does not allow` : null;
}
