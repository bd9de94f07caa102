/**
 * Exit codes are part of dfctl's interface (docs/modules/dfctl.md, "Exit codes"): scripts branch on
 * them, so each failure maps to exactly one.
 */
export const EXIT = {
  OK: 0,
  /** An API error or any other failure. */
  ERROR: 1,
  /** The command line itself is wrong. */
  USAGE: 2,
  /** Not signed in, or the sign-in was refused or has ended. */
  AUTH: 3,
  /** The device, session, file or workspace does not exist (or is another company's). */
  NOT_FOUND: 4,
  /** The server could not be reached at all. */
  UNREACHABLE: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure shown as `dfctl: <message> (<code>)`, ending the process with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode = EXIT.ERROR,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usage = (message: string): CliError => new CliError(message, 'USAGE', EXIT.USAGE);

/** The exit code of an API answer's HTTP status. */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 401) return EXIT.AUTH;
  if (status === 404) return EXIT.NOT_FOUND;
  return EXIT.ERROR;
}

/** A network failure of fetch/http/ws, as the error it is to the user (exit 5). */
export function unreachable(server: string, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause ?? (err as { code?: string; message?: string });
  const detail = cause?.code ?? cause?.message ?? String(err);
  return new CliError(`cannot reach ${server}: ${detail}`, 'SERVER_UNREACHABLE', EXIT.UNREACHABLE);
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'EPIPE']);

/** Whether an error thrown by fetch, http or ws means the server was not reachable. */
export function isNetworkError(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return NETWORK_CODES.has(e?.code ?? '') || NETWORK_CODES.has(e?.cause?.code ?? '') || (err instanceof TypeError && err.message === 'fetch failed');
}

/** Codes that say a request never reached the server: nothing was done there. */
const UNREACHED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a failed fetch may have reached the server and lost its answer (the connection dropped mid-way). */
export function answerLost(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return isNetworkError(err) && !UNREACHED_CODES.has(e?.cause?.code ?? e?.code ?? '');
}
