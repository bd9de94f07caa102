import type { BlobStore } from '../blob/index.js';
import { inChildSpan, SpanKind, tracingActive } from './spans.js';

/** The blob store's calls that move or read stored bytes: each a span when made inside a trace. */
const TRACED = new Set<string>(['put', 'get', 'digest', 'promote', 'verify', 'delete', 'completeMultipart']);

/**
 * `blobs` with each call that moves or reads stored bytes (`put`, `get`, `digest`, `promote`, `verify`,
 * `delete`, `completeMultipart`) a span of the trace it is made in, named `blob <call>`, with the store's
 * kind and the key. Calls outside any trace start none. Off, `blobs` itself is returned.
 */
export function tracedBlobStore(blobs: BlobStore): BlobStore {
  if (!tracingActive()) return blobs;
  return new Proxy(blobs, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      if (typeof property !== 'string' || !TRACED.has(property)) return method;
      return (...args: unknown[]) => inChildSpan(`blob ${property}`, { 'blob.store': target.kind, 'blob.key': String(args[0]) }, async () => method(...args), SpanKind.CLIENT);
    },
  });
}
