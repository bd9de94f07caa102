import type { Api } from './api.js';
import { CliError, EXIT } from './errors.js';

/** A device session as `/df/api/sessions` answers it: the session commands print it, the tunnels follow it. */
export interface Session {
  id: string;
  name: string;
  deviceId: string;
  deviceName: string;
  type: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
}

/** The session, or exit 4 with a clear message. */
export async function sessionOf(api: Api, id: string): Promise<Session> {
  try {
    return await api.get<Session>(`/df/api/sessions/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof CliError && err.exitCode === EXIT.NOT_FOUND) throw new CliError(`session ${id} not found`, err.code, EXIT.NOT_FOUND);
    throw err;
  }
}
