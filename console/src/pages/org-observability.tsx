import { useQuery } from '@tanstack/preact-query';
import { api } from '../api';
import { ErrorNote, formatTime, Loading } from '../ui';

/** `GET /api/v1/observability`: how the answering process serves metrics and exports traces, and that request's ids. */
interface ProcessSetup {
  metrics: { served: boolean; port: number | null; tokenProtected: boolean };
  tracing: { enabled: boolean; sampler: string | null; ratio: number | null; protocol: 'http/protobuf' | 'http/json' | null; serviceName: string | null };
}

interface ProcessEntry extends ProcessSetup {
  instanceId: string;
  services: string[];
  thisProcess: boolean;
  startedAt: string;
  seenAt: string;
}

interface Observability extends ProcessSetup {
  processes: ProcessEntry[];
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
  const { metrics, tracing, request, processes } = state.data!;
  return (
    <div class="stack">
      <p class="muted">
        How the service answering this page reports on itself, then every process of the installation: in a split deployment each one is
        configured on its own. Tokens, endpoints, host names and headers are never shown.
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
      <Processes processes={processes} />
      <div class="row">
        <button type="button" disabled={state.isFetching} onClick={() => void state.refetch()}>
          Check again
        </button>
      </div>
    </div>
  );
}

/** The tracing of one process in a few words. */
function tracingText(t: ProcessSetup['tracing']): string {
  if (!t.enabled) return 'Off';
  const ratio = t.sampler?.endsWith('traceidratio') ? ` at ${t.ratio}` : '';
  return `${t.sampler ?? 'on'}${ratio}, ${t.protocol}, as ${t.serviceName}`;
}

/** The services a process runs, as a person reads them. */
const servicesText = (services: string[]) => services.join(', ');

/**
 * Every process of the installation heard of within the last 45 s (a split deployment has one per
 * module, the gateway and the projections runner), each with how it serves metrics and exports traces.
 */
function Processes({ processes }: { processes: ProcessEntry[] }) {
  if (processes.length === 0) return null;
  return (
    <table class="table">
      <caption>Processes of this installation ({processes.length})</caption>
      <thead>
        <tr>
          <th scope="col">Services</th>
          <th scope="col">Metrics</th>
          <th scope="col">Tracing</th>
          <th scope="col">Started</th>
          <th scope="col">Last heard of</th>
        </tr>
      </thead>
      <tbody>
        {processes.map((p) => (
          <tr key={p.instanceId}>
            <td>
              {servicesText(p.services)}
              {p.thisProcess ? <span class="muted"> (answered this page)</span> : null}
            </td>
            <td>{metricsText(p.metrics)}</td>
            <td>{tracingText(p.tracing)}</td>
            <td>{formatTime(p.startedAt)}</td>
            <td>{formatTime(p.seenAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
