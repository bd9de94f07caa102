/**
 * Requests the platform refuses for now — 429 (a rate budget spent) and 503 (a module starting or
 * draining) — are tried again after their `Retry-After`, a bounded number of times; a POST carries one
 * `Idempotency-Key` across its tries, so a platform that took the first try answers it again rather than
 * doing it twice. Everything else is answered as it came.
 */
export interface RetryPolicy {
  /** Tries after the first (default 5). */
  retries?: number;
  /** The longest `Retry-After` waited for, in seconds (default 120); a longer one is answered as it is. */
  longestWaitSeconds?: number;
  /** How to wait (tests pass their own); default a timer. */
  wait?: (ms: number) => Promise<void>;
  /** Told before each wait (a runner logs it). */
  onRetry?: (info: { method: string; url: string; status: number; waitSeconds: number; attempt: number }) => void;
}

/** Seconds to wait from a `Retry-After` header (seconds or an HTTP date); 1 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header === null) return 1;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : 1;
}

const RETRIED = new Set([429, 503]);

/** A random key; `randomUUID` is missing from browsers on a plain-http page, `getRandomValues` is not. */
export const newKey = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** A `fetch` that tries 429 and 503 answers again after their `Retry-After` (see {@link RetryPolicy}). */
export function retryingFetch(base: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request), policy: RetryPolicy = {}): typeof fetch {
  const retries = policy.retries ?? 5;
  const longest = policy.longestWaitSeconds ?? 120;
  const wait = policy.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newKey());
    for (let attempt = 1; ; attempt++) {
      const res = await base(request.clone());
      if (!RETRIED.has(res.status) || attempt > retries) return res;
      const waitSeconds = retryAfterSeconds(res.headers.get('retry-after'));
      if (waitSeconds > longest) return res;
      await res.body?.cancel();
      policy.onRetry?.({ method: request.method, url: request.url, status: res.status, waitSeconds, attempt });
      await wait(waitSeconds * 1000);
    }
  };
}
