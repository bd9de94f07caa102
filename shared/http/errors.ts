import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, errorBody, ErrorCodes, isUnavailable, type ErrorBody, type ErrorCode, type ErrorDetail } from '../errors.js';

/** Fastify's own error codes for what a client sent, mapped to ours. */
const FASTIFY_CLIENT_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
};

/** A zod issue as far as naming its field needs: a union's failure carries each branch's issues. */
interface UnionAwareIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  errors?: UnionAwareIssue[][];
  discriminator?: string;
}

/**
 * The issues that name fields: a union that matched no branch stands for the issues of the branch that
 * got furthest into the input (the deepest paths), and a discriminated union for its discriminator, so
 * a client is told `events.0.type` rather than nothing.
 */
export function namedIssues(issue: UnionAwareIssue): { path: PropertyKey[]; message: string }[] {
  if (issue.code === 'invalid_union') {
    if (issue.discriminator) {
      const path = issue.path.at(-1) === issue.discriminator ? [...issue.path] : [...issue.path, issue.discriminator];
      return [{ path, message: issue.message }];
    }
    const depth = (branch: UnionAwareIssue[]) => Math.max(...branch.map((i) => i.path.length));
    const branches = (issue.errors ?? []).filter((b) => b.length > 0);
    if (branches.length > 0) {
      const furthest = branches.reduce((best, b) => (depth(b) > depth(best) ? b : best));
      return furthest.flatMap((i) => namedIssues(i).map((n) => ({ path: [...issue.path, ...n.path], message: n.message })));
    }
  }
  return [{ path: [...issue.path], message: issue.message }];
}

function validationDetails(err: FastifyError): ErrorDetail[] {
  if (hasZodFastifySchemaValidationErrors(err)) {
    return err.validation.flatMap((v) => {
      const params = v.params as Partial<UnionAwareIssue>;
      const path = String(v.instancePath ?? '').split('/').filter(Boolean);
      return namedIssues({ ...params, code: v.keyword, path, message: v.message ?? 'Invalid value' }).map((n) => ({
        path: [err.validationContext, ...n.path.map(String)]
          .filter(Boolean)
          .join('.')
          .replace(/^body\.?/, ''),
        message: n.message,
      }));
    });
  }
  return (err.validation ?? []).map((v) => ({
    path: String(v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.'),
    message: v.message ?? 'Invalid value',
  }));
}

/** Turns any thrown value into the status and JSON body a client sees. */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody; headers?: Record<string, string>; internal: boolean } {
  if (err instanceof AppError) {
    return { status: err.statusCode, body: err.toJSON(), ...(err.headers ? { headers: err.headers } : {}), internal: err.statusCode >= 500 };
  }
  const fe = err as FastifyError;
  if (fe && typeof fe === 'object') {
    if (fe.validation) {
      const details = validationDetails(fe);
      return { status: 400, body: errorBody('VALIDATION_FAILED', 'Request validation failed', details), internal: false };
    }
    const mapped = fe.code ? FASTIFY_CLIENT_ERRORS[fe.code] : undefined;
    if (mapped) {
      const message =
        mapped === 'MALFORMED_JSON' ? 'Request body is not valid JSON' : mapped === 'PAYLOAD_TOO_LARGE' ? 'Request body is too large' : fe.message;
      return { status: errorBody(mapped, message).statusCode, body: errorBody(mapped, message), internal: false };
    }
    // Other 4xx raised by Fastify or a plugin keep their status, with a generic code.
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      const code: ErrorCode = fe.statusCode === 404 ? 'NOT_FOUND' : fe.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : fe.statusCode === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST';
      const body = { ...errorBody(code, fe.message), statusCode: fe.statusCode };
      return { status: fe.statusCode, body, internal: false };
    }
  }
  if (isUnavailable(err)) {
    return { status: 503, body: errorBody('SERVICE_UNAVAILABLE', 'A service the platform depends on is unavailable; try again shortly'), headers: { 'retry-after': '5' }, internal: true };
  }
  return { status: 500, body: errorBody('INTERNAL_ERROR', 'Internal server error'), internal: true };
}

/** The `/v1` set answers errors in its own envelope (docs/api-conventions.md, "Paging"). */
export function isV1Path(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
}

/** The `/v1` error envelope: `{success: false, error: {code, message}}`, with `details` for validation. */
export interface V1ErrorBody {
  success: false;
  error: { code: string; message: string; details?: ErrorDetail[] };
}

export function toV1ErrorBody(body: ErrorBody): V1ErrorBody {
  const message = body.details?.length ? `${body.message}: ${body.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ')}` : body.message;
  return { success: false, error: { code: body.code, message, ...(body.details?.length ? { details: body.details } : {}) } };
}

/** `/df/wd/**` is a W3C WebDriver endpoint: its clients only understand W3C error bodies. */
export function isWebDriverPath(url: string): boolean {
  return url === '/df/wd' || url.startsWith('/df/wd/') || url.startsWith('/df/wd?');
}

export interface W3cErrorBody {
  value: { error: string; message: string; stacktrace: string; data?: { code: string } };
}

/**
 * A platform error in the W3C shape (https://www.w3.org/TR/webdriver2/#errors), keeping its HTTP
 * status; `data.code` carries the platform's code.
 */
export function toW3cErrorBody(status: number, body: ErrorBody): W3cErrorBody {
  const error =
    status === 400 ? 'invalid argument' : status === 404 ? (body.code === 'ROUTE_NOT_FOUND' ? 'unknown command' : 'invalid session id') : status === 405 ? 'unknown method' : 'unknown error';
  const message = body.details?.length ? `${body.message}: ${body.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ')}` : body.message;
  return { value: { error, message, stacktrace: '', data: { code: body.code } } };
}

/** `/scim/v2/**` answers SCIM's own error shape (RFC 7644 §3.12) with `application/scim+json`. */
export function isScimPath(url: string): boolean {
  return url === '/scim/v2' || url.startsWith('/scim/v2/') || url.startsWith('/scim/v2?');
}

const SCIM_TYPES: Record<string, string> = {
  SCIM_INVALID_FILTER: 'invalidFilter',
  SCIM_INVALID_VALUE: 'invalidValue',
  SCIM_INVALID_SYNTAX: 'invalidSyntax',
  SCIM_INVALID_PATH: 'invalidPath',
  SCIM_MUTABILITY: 'mutability',
  SCIM_TOO_MANY: 'tooMany',
  SCIM_UNIQUENESS: 'uniqueness',
  VALIDATION_FAILED: 'invalidValue',
  MALFORMED_JSON: 'invalidSyntax',
};

export interface ScimErrorBody {
  schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'];
  status: string;
  scimType?: string;
  detail: string;
  /** The platform's stable error code, beside SCIM's own members (SCIM clients ignore members they do not know). */
  code: string;
}

/** A platform error in SCIM's shape, keeping its status and the platform's code; a 409 is always `uniqueness`. */
export function toScimErrorBody(status: number, body: ErrorBody): ScimErrorBody {
  const scimType = SCIM_TYPES[body.code] ?? (status === 409 ? 'uniqueness' : undefined);
  const detail = body.details?.length ? `${body.message}: ${body.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ')}` : body.message;
  return { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), ...(scimType ? { scimType } : {}), detail, code: body.code };
}

/** Sends an error the catalog way; 5xx are logged with the request id and hide their cause. */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const { status, body, headers, internal } = toErrorResponse(err);
  if (internal) request.log.error({ err }, 'request failed');
  else if (status >= 500) request.log.warn({ err }, 'request failed');
  if (headers) reply.headers(headers);
  if (isScimPath(request.url)) return reply.code(status).type('application/scim+json; charset=utf-8').send(toScimErrorBody(status, body));
  const shaped = isV1Path(request.url) ? toV1ErrorBody(body) : isWebDriverPath(request.url) ? toW3cErrorBody(status, body) : body;
  return reply.code(status).type('application/json; charset=utf-8').send(shaped);
}

/** The single error handler and the JSON 404 of every server. */
export function installErrorHandling(app: FastifyInstance, fallback?: NotFoundFallback): void {
  app.setErrorHandler((err, request, reply) => sendError(request, reply, err));
  app.setNotFoundHandler((request, reply) =>
    fallback?.(request, reply) ??
    sendError(request, reply, new AppError('ROUTE_NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`)),
  );
}

/** Answers a request no route matched (the gateway's web console), or undefined for the JSON 404. */
export type NotFoundFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

/** Node's HTTP parser errors (llhttp's `HPE_*`, Node's own `ERR_HTTP_*`), mapped to ours; any other is a malformed request. */
const PARSER_ERRORS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'PAYLOAD_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  HPE_HEADERS_TIMEOUT: 'REQUEST_TIMEOUT',
};
const PARSER_MESSAGES: Partial<Record<ErrorCode, string>> = {
  HEADERS_TOO_LARGE: 'The request line and headers together exceed the server’s limit (16 KiB): send a shorter token or fewer headers',
  PAYLOAD_TOO_LARGE: 'The chunk extensions of the request body exceed the server’s limit',
  REQUEST_TIMEOUT: 'The request did not arrive in time',
  MALFORMED_REQUEST: 'The request is not well-formed HTTP/1.1 (its request line, a header or the body framing)',
};

/**
 * Answers what Node's HTTP parser refused before any route saw it (Fastify's `clientErrorHandler`, on
 * Node's `clientError` event): headers too large, a malformed request line or header, broken body
 * framing, a timeout. The answer is the platform's JSON error with its code, and the connection is
 * closed (the parser cannot go on with it). A WebSocket upgrade that fails in the parser gets the same:
 * it never reaches the upgrade.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  // A reset connection, or one already gone or answered: nobody to answer (the failed parser reports
  // again for every further chunk the client sends).
  const answered = socket as { qaParserAnswered?: boolean };
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.qaParserAnswered) return;
  answered.qaParserAnswered = true;
  const code: ErrorCode = PARSER_ERRORS[err.code ?? ''] ?? 'MALFORMED_REQUEST';
  const body = JSON.stringify(errorBody(code, PARSER_MESSAGES[code] ?? code));
  this.log.debug({ err: { code: err.code, message: err.message }, answered: code }, 'HTTP parser refused a request');
  // Only when no answer of an earlier request on this connection is half-written (as Node itself does).
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, error } = ErrorCodes[code];
  socket.end(`HTTP/1.1 ${status} ${error}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
  // A clean close: what the client is still sending (the rest of a huge header) is read and dropped
  // rather than answered with a reset, which could discard the answer before the client reads it; a
  // client that never stops is cut off after a few seconds.
  socket.resume();
  setTimeout(() => socket.destroy(), 5_000).unref();
}
