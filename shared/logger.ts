import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { logTraceFields, tracingActive } from './tracing/index.js';

/**
 * Query parameters whose values are credentials in flight (an OpenID authorization code and state,
 * tokens in a fragment turned query, a SAML answer and its relay state): a log line that holds them
 * would let its reader finish someone else's sign-in.
 */
const SECRET_QUERY_PARAMS = new Set(['code', 'state', 'id_token', 'access_token', 'samlresponse', 'relaystate']);

/** `url` with the values of secret query parameters replaced by `[redacted]`; the rest as it was. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that is not valid percent-encoding is compared as it was sent.
      }
      return eq >= 0 && SECRET_QUERY_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * Creates the process logger: JSON lines, request ids, secrets redacted (headers, mail bodies, sign-in
 * values in URLs), and inside a traced request the trace's `trace_id` and `span_id` (shared/tracing).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      // Only in a process that traces (started before its logger): otherwise no function runs per line.
      ...(tracingActive() ? { mixin: logTraceFields } : {}),
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers["x-auth-token"]',
          'req.headers["x-engine-token"]',
          'req.headers.cookie',
          'mail.text',
        ],
        censor: '[redacted]',
      },
      serializers: {
        // Fastify's request line, with the URL's secret values taken out.
        req: (req: LoggedRequest) => ({ method: req.method, url: req.url === undefined ? undefined : redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
      },
    },
    destination,
  );
}
