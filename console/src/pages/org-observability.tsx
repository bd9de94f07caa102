import { useQuery } from '@tanstack/preact-query';
import { api } from '../api';
import { ErrorNote, Loading } from '../ui';

/** `GET /api/v1/observability`: how the answering process serves metrics and exports traces, and that request's ids. */
interface Observability {
  metrics: { served: boolean; port: number | null; tokenProtected: boolean };
  tracing: { enabled: boolean; sampler: string | null; ratio: number | null; protocol: 'http/protobuf' | 'http/json' | null; serviceName: string | null };
  request: { requestId: string; traceId: string | null };
}

function metricsText(m: Observability['metrics']): string {
  if (!m.served) return 'Not served (neither METRICS_PORT nor METRICS_TOKEN is set)';
  const ways = [
    ...(m.port !== null ? [m.port === 0 ? 'on a port of their own picked at start, without a token' : `on port ${m.port}, without a token`] : []),
    ...(m.tokenProtected ? ['on the service’s own port, to its bearer token only'] : []),
  ];
  return `Served at /metrics ${ways.join('; and ')}`;
}

/**
 * This installation's observability, for administrators (USER_ADMIN_MANAGE): whether metrics are
 * served and how, whether traces are exported with which sampler and protocol — never a token, an
 * endpoint or a header — and the request id and trace id of this page's own request, to find it in
 * the logs and the tracing backend (docs/operations.md, "Metrics" and "Tracing").
 */
export function ObservabilitySection() {
  const state = useQuery({ queryKey: ['observability'], queryFn: () => api<Observability>('/api/v1/observability'), staleTime: 0 });
  if (state.isPending) return <Loading />;
  if (state.error) return <ErrorNote error={state.error} />;
  const { metrics, tracing, request } = state.data!;
  return (
    <div class="stack">
      <p class="muted">
        How the service answering this page reports on itself. In a split deployment each process is configured on its own: this is the
        organization service’s. Tokens, endpoints and their headers are never shown.
      </p>
      <dl class="facts" aria-label="Observability">
        <dt>Metrics</dt>
        <dd>{metricsText(metrics)}</dd>
        <dt>Tracing</dt>
        <dd>{tracing.enabled ? `On: spans exported over OTLP (${tracing.protocol})` : 'Off (no OTLP endpoint set, or disabled)'}</dd>
        {tracing.enabled ? (
          <>
            <dt>Sampler</dt>
            <dd>
              <code>{tracing.sampler}</code>
              {tracing.sampler?.endsWith('traceidratio') ? ` at ratio ${tracing.ratio}` : ''}
            </dd>
            <dt>Service name</dt>
            <dd>
              <code>{tracing.serviceName}</code>
            </dd>
          </>
        ) : null}
        <dt>This page’s request id</dt>
        <dd>
          <code>{request.requestId}</code>
        </dd>
        <dt>Its trace id</dt>
        <dd>{request.traceId ? <code>{request.traceId}</code> : <span class="muted">none (tracing is off, or the request was not sampled)</span>}</dd>
      </dl>
      <div class="row">
        <button type="button" disabled={state.isFetching} onClick={() => void state.refetch()}>
          Check again
        </button>
      </div>
    </div>
  );
}
