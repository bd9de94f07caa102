import type { FastifyRequest } from 'fastify';

/** The first value of a forwarded header, when it looks like a host or a scheme. */
function forwarded(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  const first = (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
  return first && /^[A-Za-z0-9.:[\]-]{1,300}$/.test(first) ? first : undefined;
}

/**
 * The scheme and host the client reached us at. Served under the gateway's prefix, the gateway is this
 * process and Fastify honours X-Forwarded-* when TRUST_PROXY; on a module's own server (split
 * deployment, `behindGateway`: its routes have no prefix) the gateway is the only caller, and its
 * X-Forwarded-Host / -Proto name the address the client used.
 */
export function clientAddress(request: FastifyRequest, behindGateway: boolean): { proto: string; host: string } {
  return {
    proto: (behindGateway && forwarded(request, 'x-forwarded-proto')) || request.protocol,
    host: (behindGateway && forwarded(request, 'x-forwarded-host')) || request.host,
  };
}
