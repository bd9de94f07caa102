import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { currentRequest, withRequestContext } from '../request-context.js';
import { RequestStorageContextManager } from './context-manager.js';

/* The trace's context manager keeps its context in the request context's storage: each keeps the other. */

const KEY = createContextKey('test value');
const manager = new RequestStorageContextManager().enable();
const request = { requestId: 'req-1', clientAddress: '127.0.0.1' };

describe('the trace context over the request context storage', () => {
  it('answers the root context outside any', () => {
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps the request inside a trace context, and the trace context inside a request, across awaits', async () => {
    const traced = ROOT_CONTEXT.setValue(KEY, 'a');
    const seen = await withRequestContext(request, () =>
      manager.with(traced, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const inner = await withRequestContext({ requestId: 'req-2', clientAddress: '127.0.0.1' }, async () => {
          await Promise.resolve();
          return [manager.active().getValue(KEY), currentRequest()?.requestId];
        });
        return [...inner, manager.active().getValue(KEY), currentRequest()?.requestId];
      }),
    );
    expect(seen).toEqual(['a', 'req-2', 'a', 'req-1']);
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('passes this and the arguments, binds functions, and undoes an attach', () => {
    const traced = ROOT_CONTEXT.setValue(KEY, 'b');
    const target = { n: 2, f(this: { n: number }, x: number) { return this.n * x; } };
    expect(manager.with(traced, target.f, target, 21)).toBe(42);
    const bound = manager.bind(traced, () => manager.active().getValue(KEY));
    expect(bound()).toBe('b');
    withRequestContext(request, () => {
      const token = manager.attach(traced);
      expect(manager.active().getValue(KEY)).toBe('b');
      expect(currentRequest()?.requestId).toBe('req-1');
      token.dispose();
      expect(manager.active()).toBe(ROOT_CONTEXT);
      expect(currentRequest()?.requestId).toBe('req-1');
    });
  });
});
