import { propagation, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { inSpan, loadTracingConfig, logTraceFields, startTracing, traceHeaders, tracingActive } from './index.js';

const issuesOf = (env: Record<string, string>) => {
  try {
    loadTracingConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).issues.map((i) => i.variable);
  }
  throw new Error('no ConfigError');
};

describe('tracing configuration (OTEL_* variables)', () => {
  it('starts nothing with no OTEL_* variable: no SDK, the API stays the no-op one, helpers add nothing', async () => {
    expect(loadTracingConfig({})).toBeNull();
    expect(await startTracing({ OTEL_SERVICE_NAME: 'named but nowhere to send' }, 'qa-test')).toBeNull();
    expect(tracingActive()).toBe(false);
    // No tracer provider, propagator or context manager was registered globally.
    expect((trace.getTracerProvider() as unknown as { getDelegate(): object }).getDelegate().constructor.name).toBe('NoopTracerProvider');
    expect(propagation.fields()).toEqual([]);
    const ran = await inSpan('nothing', {}, async () => trace.getActiveSpan());
    expect(ran).toBeUndefined();
    expect(traceHeaders()).toEqual({});
    expect(logTraceFields()).toEqual({});
  });

  it('stays off when disabled or the exporter is none, whatever the endpoint', () => {
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  });

  it('reads the standard variables: the traces path under the base endpoint, or the traces endpoint as given', () => {
    const base = loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test,service.name=from%20attributes' });
    expect(base).toMatchObject({ url: 'http://127.0.0.1:4318/v1/traces', protocol: 'http/protobuf', serviceName: 'from attributes', sampler: 'parentbased_always_on', ratio: 1 });
    expect(base!.resourceAttributes).toEqual({ 'deployment.environment': 'test', 'service.name': 'from attributes' });
    const own = loadTracingConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9999/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'qa-gateway',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    expect(own).toMatchObject({ url: 'http://127.0.0.1:9999/traces', protocol: 'http/json', serviceName: 'qa-gateway', sampler: 'parentbased_traceidratio', ratio: 0.1 });
  });

  it('refuses a variable set wrong, naming it', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(issuesOf({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL']);
    expect(issuesOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://127.0.0.1/' })).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
    expect(issuesOf({ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes' })).toEqual(['OTEL_TRACES_SAMPLER']);
    expect(issuesOf({ ...endpoint, OTEL_TRACES_SAMPLER_ARG: '1.5' })).toEqual(['OTEL_TRACES_SAMPLER_ARG']);
    expect(issuesOf({ ...endpoint, OTEL_RESOURCE_ATTRIBUTES: 'team=qa,=nameless' })).toEqual(['OTEL_RESOURCE_ATTRIBUTES']);
    expect(issuesOf({ ...endpoint, OTEL_SDK_DISABLED: 'maybe' })).toEqual(['OTEL_SDK_DISABLED']);
  });
});
