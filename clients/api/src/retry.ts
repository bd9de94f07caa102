/**
 * Requests the platform refuses for now — 429 (a rate budget spent) and 503 (a module starting or
 * draining) — are tried again after their `Retry-After`, a bounded number of times; a POST carries one
 * `Idempotency-Key` across its tries, so a platform that took the first try answers it again rather than
 * doing it twice; a POST is also tried again when its answer never came (the connection dropped) or its
 * first try is still running there (409 `IDEMPOTENCY_KEY_IN_USE`). Everything else is answered as it came.
 */
export interface RetryPolicy {
  /** Tries after the first (default 5). */
  retries?: number;
  /** The longest `Retry-After` waited for, in seconds (default 120); a longer one is answered as it is. */
  longestWaitSeconds?: number;
  /** How to wait (tests pass their own); default a timer. */
  wait?: (ms: number) => Promise<void>;
  /** Told before each wait (a runner logs it); `status` 0: no answer came (the connection dropped). */
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

/** Errors that say the request never reached a server (nothing to answer again): answered at once. */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a failed `fetch` may have reached the server and lost its answer (the connection dropped). */
const answerLost = (err: unknown): boolean => {
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  return e?.name !== 'AbortError' && !UNREACHED.has(e?.cause?.code ?? e?.code ?? '');
};

/** Whether an answer is 409 `IDEMPOTENCY_KEY_IN_USE`: the first try of this POST is still running there. */
async function keyInUse(res: Response): Promise<boolean> {
  if (res.status !== 409) return false;
  return (await res.clone().text()).includes('"IDEMPOTENCY_KEY_IN_USE"');
}

/**
 * A `fetch` that tries 429 and 503 answers again after their `Retry-After` (see {@link RetryPolicy}). A
 * POST, which carries its `Idempotency-Key` on every try, is also tried again when no answer came (the
 * connection dropped) and while the platform says its first try is still running (409
 * `IDEMPOTENCY_KEY_IN_USE`): the platform does it once and answers every try the same.
 */
export function retryingFetch(base: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request), policy: RetryPolicy = {}): typeof fetch {
  const retries = policy.retries ?? 5;
  const longest = policy.longestWaitSeconds ?? 120;
  const wait = policy.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newKey());
    const keyed = request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await base(request.clone());
      } catch (err) {
        // An aborted call was meant to stop, an unreachable server is said at once; a request without a key might be done twice.
        if (!keyed || attempt > retries || request.signal.aborted || !answerLost(err)) throw err;
        policy.onRetry?.({ method: request.method, url: request.url, status: 0, waitSeconds: 1, attempt });
        await wait(1000);
        continue;
      }
      const inUse = keyed && (await keyInUse(res));
      if ((!RETRIED.has(res.status) && !inUse) || attempt > retries) return res;
      const waitSeconds = retryAfterSeconds(res.headers.get('retry-after'));
      if (waitSeconds > longest) return res;
      await res.body?.cancel();
      policy.onRetry?.({ method: request.method, url: request.url, status: res.status, waitSeconds, attempt });
      await wait(waitSeconds * 1000);
    }
  };
}
