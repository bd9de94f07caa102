import type { Session } from '@qa-platform/client';
import type { Api } from './api.js';
import { CliError, EXIT } from './errors.js';

/** The session, or exit 4 with a clear message. */
export async function sessionOf(api: Api, id: string): Promise<Session> {
  try {
    return await api.get<Session>(`/df/api/sessions/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof CliError && err.exitCode === EXIT.NOT_FOUND) throw new CliError(`session ${id} not found`, err.code, EXIT.NOT_FOUND);
    throw err;
  }
}
