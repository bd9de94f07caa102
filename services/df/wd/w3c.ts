import { AppError } from '#shared/errors.js';
import { toErrorResponse, toW3cErrorBody, type W3cErrorBody } from '#shared/http/errors.js';

/**
 * W3C WebDriver error codes and their HTTP status (https://www.w3.org/TR/webdriver2/#errors). Every
 * failure on `/df/wd/**` answers `{value: {error, message, stacktrace, data?}}`; `data.code` carries
 * the platform's own error code when the failure is the platform's (authentication, permissions).
 */
export const W3C_ERRORS = {
  'invalid argument': 400,
  'invalid session id': 404,
  'unknown command': 404,
  'unknown method': 405,
  'session not created': 500,
  'unsupported operation': 500,
  'unknown error': 500,
} as const;
export type W3cErrorCode = keyof typeof W3C_ERRORS;

export type { W3cErrorBody };

/** A failure to answer in the W3C shape; `status` overrides the code's own status (401, 403, 503). */
export class WebDriverError extends Error {
  constructor(
    readonly error: W3cErrorCode,
    message: string,
    readonly status: number = W3C_ERRORS[error],
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WebDriverError';
  }
}

/** The W3C status and body of any thrown value (platform errors keep their HTTP status). */
export function toW3c(err: unknown): { status: number; body: W3cErrorBody; internal: boolean } {
  if (err instanceof WebDriverError) {
    return { status: err.status, body: { value: { error: err.error, message: err.message, stacktrace: '', ...(err.code ? { data: { code: err.code } } : {}) } }, internal: false };
  }
  const { status, body, internal } = toErrorResponse(err);
  return { status, body: toW3cErrorBody(status, body), internal };
}

/** `invalid session id` (404) for a session the caller cannot use or that has ended. */
export const invalidSession = (id: string, why = 'does not exist or has ended') => new WebDriverError('invalid session id', `WebDriver session ${id} ${why}`);

/** Whether an error is an AppError with one of the codes. */
export const isAppError = (err: unknown, ...codes: string[]): err is AppError => err instanceof AppError && codes.includes(err.code);
