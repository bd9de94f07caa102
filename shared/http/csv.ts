import type { FastifyRequest } from 'fastify';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a text starting with a
 * formula character (`= + - @`, tab, CR) gets a leading `'` so a spreadsheet does not evaluate it.
 * Objects are written as JSON; absent values as an empty cell.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Whether a route that answers JSON or CSV answers CSV: `format=csv`, or `Accept: text/csv` without `application/json`. */
export const wantsCsv = (request: FastifyRequest, format: string | undefined): boolean =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(request.headers.accept ?? '') && !/application\/json/i.test(request.headers.accept ?? ''));
