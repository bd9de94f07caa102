export { loadTracingConfig, type TracingConfig } from './config.js';
export { startTracing, tracingState } from './start.js';
export type { Tracing } from './sdk.js';
export { boundToTrace, carriesTrace, contextFrom, failSpan, inChildSpan, inLinkedSpan, inSpan, inTraceOf, logTraceFields, MAX_SPAN_LINKS, markActiveSpan, outsideTrace, setIntervalOutsideTrace, SpanKind, startSpan, traceHeaders, tracingActive, type Attributes } from './spans.js';
export { inTick, UNTRACED, type Tick } from './ticks.js';
export { installHttpTracing, requestTraceContext } from './http.js';
export { tracedBus } from './bus.js';
export { tracedEventStore } from './event-store.js';
export { tracedBlobStore } from './blob.js';
