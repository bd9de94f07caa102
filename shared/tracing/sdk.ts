import { context, propagation, trace, type Attributes, type Context, type Link, type SpanKind } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler, type Sampler, type SamplingResult } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from './config.js';
import { RequestStorageContextManager } from './context-manager.js';
import { DECIDED_SAMPLED, setTracingActive, type RootDecision } from './spans.js';

function samplerOf(config: TracingConfig): Sampler {
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(config.ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * The decision a request without a received sampled flag gets before any span exists (spans.ts,
 * `requestTrace`), drawn at the configured ratio; the SDK's sampler then records what it sampled.
 */
function rootDecisionOf(config: TracingConfig): RootDecision {
  const respectsParent = config.sampler.startsWith('parentbased_');
  switch (config.sampler) {
    case 'always_on':
    case 'parentbased_always_on':
      return { sampleRoot: () => true, respectsParent };
    case 'always_off':
    case 'parentbased_always_off':
      return { sampleRoot: () => false, respectsParent };
    default:
      return { sampleRoot: () => Math.random() < config.ratio, respectsParent };
  }
}

/** `inner`, except that a span started from a context a request's decision marked sampled is recorded. */
class DecidedSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}
  shouldSample(ctx: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (ctx.getValue(DECIDED_SAMPLED) === true) return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    return this.inner.shouldSample(ctx, traceId, name, kind, attributes, links);
  }
  toString(): string {
    return `Decided{${this.inner.toString()}}`;
  }
}

/** The process's tracing, once started: `shutdown` sends what is still batched. */
export interface Tracing {
  config: TracingConfig;
  /** Sends the spans that are waiting for their batch now (a measurement that must pay for its own spans). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Registers the SDK globally: W3C trace context, spans batched to the OTLP endpoint over HTTP (protobuf or JSON). */
export function startSdk(config: TracingConfig, serviceName: string): Tracing {
  const exporter = config.protocol === 'http/json' ? new JsonExporter({ url: config.url }) : new ProtobufExporter({ url: config.url });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ ...config.resourceAttributes, [ATTR_SERVICE_NAME]: config.serviceName ?? serviceName }),
    sampler: new DecidedSampler(samplerOf(config)),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: config.scheduleDelayMs })],
  });
  provider.register({ contextManager: new RequestStorageContextManager() });
  setTracingActive(true, rootDecisionOf(config));
  return {
    config,
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      setTracingActive(false);
      await provider.shutdown().catch(() => undefined);
      // The API is the no-op one again (a process that measures tracing starts it again, differently).
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
