import { AsyncLocalStorage } from 'node:async_hooks';

/** What every event caused by one HTTP request records about it. */
export interface RequestContext {
  /** The request id (`X-Request-Id`), the correlation id of the events it causes. */
  requestId: string;
  /** The client's address (the proxy's view of it with TRUST_PROXY). */
  clientAddress: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (the rest of a request's handling) with the request's context. */
export function withRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being handled, if any (none in background work). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
