import { isSpecialPurposeAddress } from '#shared/net/index.js';
import { AppError } from '#shared/errors.js';

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * An endpoint's URL as given, checked: absolute http(s), no credentials in it, and (unless private
 * addresses are allowed) neither `localhost` nor a special-purpose address (loopback, private,
 * link-local, documentation, …; `#shared/net`). 400 `INVALID_WEBHOOK_URL` otherwise. A name is judged
 * again by what it resolves to at each delivery (`send.ts`).
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
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || isSpecialPurposeAddress(host))) {
    throw new AppError('INVALID_WEBHOOK_URL', 'The webhook URL points at a loopback or private address, which this installation does not allow');
  }
  return url.toString();
}
