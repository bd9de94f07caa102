import { currentAuth } from '../api';

/**
 * A viewer socket of a session (`/df/ws/sessions/{id}`), signed in with the console's own token and
 * workspace, or null when nobody is signed in. It carries the screen's frames (binary) and the JSON
 * messages of presence, inputs and the terminal.
 */
export function openViewerSocket(sessionId: string, binaryType: BinaryType): WebSocket | null {
  const auth = currentAuth();
  if (!auth) return null;
  const url = new URL(`/df/ws/sessions/${encodeURIComponent(sessionId)}`, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('access_token', auth.token);
  if (auth.workspaceId) url.searchParams.set('workspaceId', String(auth.workspaceId));
  const ws = new WebSocket(url);
  ws.binaryType = binaryType;
  return ws;
}
