/**
 * The one catalog of error codes. Every failure a client can see carries a stable `code` from here,
 * an HTTP status, and a message for people.
 */
export const ErrorCodes = {
  VALIDATION_FAILED: { status: 400, error: 'Bad Request' },
  /** A change of where an identity provider's stored secret goes (its URL, issuer, entry point, certificate or client id) without the secret itself. */
  SECRET_REQUIRED: { status: 400, error: 'Bad Request' },
  MALFORMED_JSON: { status: 400, error: 'Bad Request' },
  INVALID_INPUT: { status: 400, error: 'Bad Request' },
  BAD_REQUEST: { status: 400, error: 'Bad Request' },
  WORKSPACE_REQUIRED: { status: 400, error: 'Bad Request' },
  INVALID_RESET_TOKEN: { status: 400, error: 'Bad Request' },
  INVALID_INVITATION_TOKEN: { status: 400, error: 'Bad Request' },
  INVALID_CURRENT_PASSWORD: { status: 400, error: 'Bad Request' },
  UNKNOWN_ROLE: { status: 400, error: 'Bad Request' },
  UNKNOWN_TEST_CASE: { status: 400, error: 'Bad Request' },
  TEST_CASE_NOT_IN_SESSION: { status: 400, error: 'Bad Request' },
  /** An XML body that is not well-formed; the message and `details` name the line and column. */
  INVALID_XML: { status: 400, error: 'Bad Request' },
  /** Well-formed XML that is not a JUnit report (another root element, a testcase without a name). */
  NOT_JUNIT: { status: 400, error: 'Bad Request' },
  /** A JUnit report without a single testcase: nothing to import. */
  JUNIT_EMPTY: { status: 400, error: 'Bad Request' },
  /** An upload ended with fewer (or more) bytes than it was signed for. */
  SIZE_MISMATCH: { status: 400, error: 'Bad Request' },
  /** Node's HTTP parser refused the request: a malformed request line or header, or broken body framing. */
  MALFORMED_REQUEST: { status: 400, error: 'Bad Request' },
  /** Completing a multipart upload named a part that was not uploaded, or with another ETag. */
  INVALID_PART: { status: 400, error: 'Bad Request' },
  // SCIM 2.0 (/scim/v2): each answers its RFC 7644 `scimType` (shared/http/errors.ts, toScimErrorBody).
  SCIM_INVALID_FILTER: { status: 400, error: 'Bad Request' },
  SCIM_INVALID_VALUE: { status: 400, error: 'Bad Request' },
  SCIM_INVALID_SYNTAX: { status: 400, error: 'Bad Request' },
  SCIM_INVALID_PATH: { status: 400, error: 'Bad Request' },
  SCIM_MUTABILITY: { status: 400, error: 'Bad Request' },
  SCIM_TOO_MANY: { status: 400, error: 'Bad Request' },
  SCIM_UNIQUENESS: { status: 409, error: 'Conflict' },
  /** A webhook endpoint that is not an absolute http(s) URL, or a private address where they are refused. */
  /** An `Idempotency-Key` header that is not 1–255 visible ASCII characters (docs/api-conventions.md, "Idempotency"). */
  IDEMPOTENCY_KEY_INVALID: { status: 400, error: 'Bad Request' },
  INVALID_WEBHOOK_URL: { status: 400, error: 'Bad Request' },
  /** A webhook subscribed to an event name the platform does not send. */
  UNKNOWN_WEBHOOK_EVENT: { status: 400, error: 'Bad Request' },
  UNAUTHORIZED: { status: 401, error: 'Unauthorized' },
  // OAuth 2.0 token endpoint (RFC 6749 section 5.2): the body also carries the RFC's `error` value.
  INVALID_CLIENT: { status: 401, error: 'Unauthorized' },
  INVALID_REQUEST: { status: 400, error: 'Bad Request' },
  UNAUTHORIZED_CLIENT: { status: 400, error: 'Bad Request' },
  UNSUPPORTED_GRANT_TYPE: { status: 400, error: 'Bad Request' },
  INVALID_SCOPE: { status: 400, error: 'Bad Request' },
  INVALID_CREDENTIALS: { status: 401, error: 'Unauthorized' },
  TOKEN_EXPIRED: { status: 401, error: 'Unauthorized' },
  TOKEN_INVALID: { status: 401, error: 'Unauthorized' },
  TOKEN_REVOKED: { status: 401, error: 'Unauthorized' },
  REFRESH_TOKEN_INVALID: { status: 401, error: 'Unauthorized' },
  REFRESH_TOKEN_REUSED: { status: 401, error: 'Unauthorized' },
  ACCOUNT_DISABLED: { status: 401, error: 'Unauthorized' },
  FORBIDDEN: { status: 403, error: 'Forbidden' },
  /** A signed URL whose signature does not match its object, method or limits (or none at all). */
  SIGNATURE_INVALID: { status: 403, error: 'Forbidden' },
  /** A signed URL used after its expiry. */
  SIGNATURE_EXPIRED: { status: 403, error: 'Forbidden' },
  /** The session's owner disconnected this viewer: their access to that session is withdrawn. */
  SESSION_ACCESS_WITHDRAWN: { status: 403, error: 'Forbidden' },
  /** A reader of the session's workspace who is neither its owner, nor invited, nor a session manager or reviewer: they see its record, not its screen or data. */
  SESSION_CONTENT_FORBIDDEN: { status: 403, error: 'Forbidden' },
  DEBUG_NOT_GRANTED: { status: 403, error: 'Forbidden' },
  INVALID_WORKSPACE: { status: 403, error: 'Forbidden' },
  MODULE_NOT_ENABLED: { status: 403, error: 'Forbidden' },
  CORS_ORIGIN_REFUSED: { status: 403, error: 'Forbidden' },
  INSUFFICIENT_SCOPE: { status: 403, error: 'Forbidden' },
  /** The operator has switched public sign-up off (PUBLIC_SIGNUP=false). */
  SIGNUP_DISABLED: { status: 403, error: 'Forbidden' },
  /** Password sign-in for an address whose domain signs in only through its identity provider; `details.provider` names it. */
  SSO_REQUIRED: { status: 403, error: 'Forbidden' },
  /**
   * A credential (API key, OAuth client, device key) made from a password sign-in, whose owner's company
   * now requires single sign-on: it works again once an administrator approves it.
   */
  CREDENTIAL_NEEDS_APPROVAL: { status: 403, error: 'Forbidden' },
  /** An identity provider vouched for someone who has no account, and its just-in-time provisioning is off. */
  SSO_NOT_PROVISIONED: { status: 403, error: 'Forbidden' },
  /** A sign-in through an identity provider failed: a refused, tampered or expired answer, an unknown or used state. */
  SSO_FAILED: { status: 401, error: 'Unauthorized' },
  /**
   * An account created by an identity provider (just-in-time) or by SCIM at an address whose domain is not
   * a verified domain of that company: the same answer whoever owns the domain and whether the address has an account.
   */
  DOMAIN_NOT_OWNED: { status: 403, error: 'Forbidden' },
  /** A plan limit of the company is reached (docs/modules/device-testing.md, "Quotas"); `details` name the limit and its value. */
  QUOTA_EXCEEDED: { status: 403, error: 'Forbidden' },
  NOT_FOUND: { status: 404, error: 'Not Found' },
  ROUTE_NOT_FOUND: { status: 404, error: 'Not Found' },
  /** The session has no stored video (none was recorded, or it was removed). */
  VIDEO_NOT_FOUND: { status: 404, error: 'Not Found' },
  VIDEO_EXPIRED: { status: 410, error: 'Gone' },
  MOCK_ROUTE_NOT_MATCHED: { status: 404, error: 'Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, error: 'Method Not Allowed' },
  CONFLICT: { status: 409, error: 'Conflict' },
  WORKSPACE_ARCHIVED: { status: 409, error: 'Conflict' },
  CONCURRENCY_CONFLICT: { status: 409, error: 'Conflict' },
  ALREADY_EXISTS: { status: 409, error: 'Conflict' },
  EMAIL_TAKEN: { status: 409, error: 'Conflict' },
  DEVICE_BUSY: { status: 409, error: 'Conflict' },
  DEVICE_OFFLINE: { status: 409, error: 'Conflict' },
  DEVICE_UNAVAILABLE: { status: 409, error: 'Conflict' },
  /** The device cannot do this at all (apps or files on a browser device). */
  DEVICE_UNSUPPORTED: { status: 409, error: 'Conflict' },
  DEBUG_PROTOCOL_UNAVAILABLE: { status: 409, error: 'Conflict' },
  SESSION_NOT_ACTIVE: { status: 409, error: 'Conflict' },
  /** Removing (purging) a session that has not ended. */
  SESSION_OPEN: { status: 409, error: 'Conflict' },
  /** The installation's event store (KurrentDB) keeps no chain of the history: verification, export and evidence cannot be given. */
  AUDIT_CHAIN_UNAVAILABLE: { status: 501, error: 'Not Implemented' },
  /** Erasing a person while events recorded before personal data was sealed may still hold it in clear (`npm run pii:migrate`). */
  PII_MIGRATION_PENDING: { status: 409, error: 'Conflict' },
  /** A device booking overlaps another open booking of the device; `details` name it (range and holder). */
  RESERVATION_OVERLAP: { status: 409, error: 'Conflict' },
  /** The device is booked by someone else right now; `details` name the booking. */
  DEVICE_RESERVED: { status: 409, error: 'Conflict' },
  /** The device is held by its health (cooling, charging, quarantined, maintenance); the message names why. */
  DEVICE_UNHEALTHY: { status: 409, error: 'Conflict' },
  /** The device is being mended (its helpers restarted, its storage freed, a reboot); `details` name the step under way and until when at most. */
  DEVICE_MENDING: { status: 409, error: 'Conflict' },
  DEVICE_NOT_IN_MAINTENANCE: { status: 409, error: 'Conflict' },
  DEVICE_NOT_QUARANTINED: { status: 409, error: 'Conflict' },
  MAINTENANCE_END_IN_PAST: { status: 400, error: 'Bad Request' },
  /** A moment asked about (an access review's `at`) that has not come yet. */
  AT_IN_FUTURE: { status: 400, error: 'Bad Request' },
  RESERVATION_NOT_ACTIVE: { status: 409, error: 'Conflict' },
  /** An automation session is watched, never driven, by the people it is shared with. */
  SESSION_VIEW_ONLY: { status: 409, error: 'Conflict' },
  /** A request with this `Idempotency-Key` is still running: try again shortly (`Retry-After`). */
  IDEMPOTENCY_KEY_IN_USE: { status: 409, error: 'Conflict' },
  /** The request with this `Idempotency-Key` was done, but its answer was too large to keep: it is not answered again. */
  IDEMPOTENCY_ANSWER_NOT_KEPT: { status: 409, error: 'Conflict' },
  NAME_TAKEN: { status: 409, error: 'Conflict' },
  /** An e-mail domain another company has verified: it cannot be claimed, verified, listed by a provider or invited into. */
  DOMAIN_TAKEN: { status: 409, error: 'Conflict' },
  /** The domain's TXT record does not hold the verification value; the message says what the resolver saw. */
  DOMAIN_NOT_VERIFIED: { status: 409, error: 'Conflict' },
  BUILT_IN_ROLE: { status: 409, error: 'Conflict' },
  PROJECT_KEY_TAKEN: { status: 409, error: 'Conflict' },
  INVALID_TRANSITION: { status: 409, error: 'Conflict' },
  SESSION_COMPLETED: { status: 409, error: 'Conflict' },
  AUDIT_COMPLETED: { status: 409, error: 'Conflict' },
  /** An access review that is completed takes no further decision and is not completed again. */
  ACCESS_REVIEW_COMPLETED: { status: 409, error: 'Conflict' },
  /** Completing an access review while a grant of it has no keep or revoke decision; `details` name each. */
  ACCESS_REVIEW_UNDECIDED: { status: 409, error: 'Conflict' },
  /** A decision of the review changed while it was being completed: what was revoked stays so; complete it again. */
  ACCESS_REVIEW_CHANGED: { status: 409, error: 'Conflict' },
  RUN_NOT_RUNNING: { status: 409, error: 'Conflict' },
  /** A revoked device host cannot be changed or used. */
  HOST_REVOKED: { status: 409, error: 'Conflict' },
  /** Confirming an upload whose bytes have not all arrived. */
  UPLOAD_INCOMPLETE: { status: 409, error: 'Conflict' },
  /** A signed upload URL (or part URL) used after its file was confirmed: a confirmed file never changes. */
  UPLOAD_COMPLETED: { status: 409, error: 'Conflict' },
  /** A signed upload URL used after its upload failed (wrong size, checksum or content): start a new upload. */
  UPLOAD_CLOSED: { status: 409, error: 'Conflict' },
  /** The stored bytes of a file are not the ones recorded at its confirmation (changed outside the platform): not served. */
  FILE_INTEGRITY_FAILED: { status: 409, error: 'Conflict' },
  /** The file is not `ready` (still uploading, or failed). */
  FILE_NOT_READY: { status: 409, error: 'Conflict' },
  /** An app version cannot be deleted while an install of it runs. */
  APP_VERSION_IN_USE: { status: 409, error: 'Conflict' },
  /** Tests were asked of an app version that is not an Android test APK (no instrumentation, no tests, or an IPA). */
  NOT_A_TEST_APK: { status: 409, error: 'Conflict' },
  /** A test run's device filter matches no available device the caller may use (Android only for now). */
  NO_MATCHING_DEVICES: { status: 409, error: 'Conflict' },
  /** A test APK's instrumentation runner could not be started on the device (the reason a run ends in error). */
  RUNNER_NOT_FOUND: { status: 409, error: 'Conflict' },
  // A session invitation that can no longer be accepted.
  INVITATION_EXPIRED: { status: 410, error: 'Gone' },
  INVITATION_EXHAUSTED: { status: 410, error: 'Gone' },
  INVITATION_REVOKED: { status: 410, error: 'Gone' },
  /** The request did not arrive (headers, or the whole request) within the server's time limit. */
  REQUEST_TIMEOUT: { status: 408, error: 'Request Timeout' },
  PAYLOAD_TOO_LARGE: { status: 413, error: 'Payload Too Large' },
  /** A `Range` that the file cannot hold (it starts past its end); the answer's `Content-Range` names the size. */
  RANGE_NOT_SATISFIABLE: { status: 416, error: 'Range Not Satisfiable' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, error: 'Unsupported Media Type' },
  /** The uploaded bytes do not have the SHA-256 the client declared. */
  /** An `Idempotency-Key` used before (within its time to live) for another request: another body, method or path. */
  IDEMPOTENCY_KEY_REUSED: { status: 422, error: 'Unprocessable Entity' },
  CHECKSUM_MISMATCH: { status: 422, error: 'Unprocessable Entity' },
  /** A DEX file of an APK cannot be read (truncated, garbled, not DEX); the message says which and where. */
  DEX_UNREADABLE: { status: 422, error: 'Unprocessable Entity' },
  /** A test run's filter leaves no test of the APK to run. */
  NO_TESTS_SELECTED: { status: 422, error: 'Unprocessable Entity' },
  TOO_MANY_REQUESTS: { status: 429, error: 'Too Many Requests' },
  /** The request line and headers exceed the server's limit (Node's 16 KiB): a huge token, say. */
  HEADERS_TOO_LARGE: { status: 431, error: 'Request Header Fields Too Large' },
  INTERNAL_ERROR: { status: 500, error: 'Internal Server Error' },
  BAD_GATEWAY: { status: 502, error: 'Bad Gateway' },
  DEVICE_PREPARE_FAILED: { status: 502, error: 'Bad Gateway' },
  DEVICE_COMMAND_FAILED: { status: 502, error: 'Bad Gateway' },
  DEVICE_UNREACHABLE: { status: 503, error: 'Service Unavailable' },
  /** The service's connection to the message bus (NATS) is down: no device can be reached until it is back. */
  MESSAGE_BUS_UNAVAILABLE: { status: 503, error: 'Service Unavailable' },
  DEVICE_TIMEOUT: { status: 504, error: 'Gateway Timeout' },
  SERVICE_UNAVAILABLE: { status: 503, error: 'Service Unavailable' },
  /** dfctl's download files are not built on this server (`npm run build:dfctl`). */
  DFCTL_NOT_BUILT: { status: 503, error: 'Service Unavailable' },
  /** The client packages' tarballs are not built on this server (`npm run build:clients`). */
  CLIENTS_NOT_BUILT: { status: 503, error: 'Service Unavailable' },
  GATEWAY_TIMEOUT: { status: 504, error: 'Gateway Timeout' },
} as const satisfies Record<string, { status: number; error: string }>;

export type ErrorCode = keyof typeof ErrorCodes;

export interface ErrorDetail {
  path: string;
  message: string;
  /** Facts a client can act on (the booking a reservation overlaps: its id, range and holder). */
  [fact: string]: unknown;
}

/** An error meant for the client: its code, status and message are shown as they are. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ErrorCodes[code].status;
    this.details = options.details;
    this.headers = options.headers;
  }

  /** The JSON body clients receive (docs/api-conventions.md, "Errors"). */
  toJSON(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
  details?: ErrorDetail[];
}

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBody {
  const { status, error } = ErrorCodes[code];
  const body: ErrorBody = { statusCode: status, code, error, message };
  if (details && details.length > 0) body.details = details;
  return body;
}

export const notFound = (what = 'Resource'): AppError => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'Missing permission'): AppError => new AppError('FORBIDDEN', message);
export const unauthorized = (message = 'Authentication required'): AppError =>
  new AppError('UNAUTHORIZED', message);

/** The value, or 404 `NOT_FOUND` with `message` when there is none (also for another tenant's ids). */
export function found<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw new AppError('NOT_FOUND', message);
  return value;
}

// Errors that mean a store (PostgreSQL, Redis, NATS) cannot be reached right now, not that the request
// or the platform is wrong: network errors by code, and the clients' own "not connected" errors.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);
const UNAVAILABLE_MESSAGES = /Connection terminated|Connection is closed|connect ECONNREFUSED|Client has encountered a connection error|timeout exceeded when trying to connect|Reached the max retries per request limit|Stream isn't writeable and enableOfflineQueue options is false|CONNECTION_CLOSED|Command timed out/i;

/** Whether `err` (or what it wraps) says a backing store is unreachable: answered 503, not 500. */
export function isUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isUnavailable(x, depth + 1))) return true;
  return isUnavailable(e.cause, depth + 1);
}
