import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { currentTraceContext, enterTraceContext, withTraceContext } from '../request-context.js';

/**
 * OpenTelemetry's context manager over the request context's asynchronous storage
 * (shared/request-context.ts) instead of one of its own. A process that traces then holds one
 * `AsyncLocalStorage`, not two: on Node 20 every promise created copies each storage's store, so a
 * second one is paid on every asynchronous step of every request, sampled or not. The base class gives
 * `bind` (functions and event emitters) over `with`; its own storage is never entered.
 */
export class RequestStorageContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    return (currentTraceContext() as Context | undefined) ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const cb = thisArg == null ? fn : (fn.bind(thisArg) as F);
    return withTraceContext(context, cb, ...args);
  }

  override enable(): this {
    return this;
  }

  /** Nothing to let go: the storage is the request context's (the API stops asking once disabled). */
  override disable(): this {
    return this;
  }

  override attach(context: Context): ReturnType<AsyncLocalStorageContextManager['attach']> {
    const previous = currentTraceContext();
    enterTraceContext(context);
    let disposed = false;
    return {
      dispose() {
        if (disposed) return;
        disposed = true;
        enterTraceContext(previous);
      },
    };
  }
}
