import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { WebSocket, createWebSocketStream } from 'ws';
import type { DebugCapabilities as Capabilities } from '@qa-platform/client';
import { errorOf, userAgent, type Api } from './api.js';
import { CliError, EXIT, isNetworkError, unreachable } from './errors.js';
import { sessionOf } from './sessions.js';

/** One debug protocol of a session, as `/df/debug-tunnel/{sessionId}/{protocol}[/{target}]` names it. */
export interface TunnelTarget {
  sessionId: string;
  /** What `debug-capabilities` grants: `adb`, `jdwp`, `tcp_forward`, `cdp`. */
  protocol: string;
  /** The path after the session id: `adb`, `jdwp/<pid>`, `tcp_forward/<port>`, `cdp`. */
  path: string;
}

/** Close codes with which the server says the session is over (docs/modules/dfctl.md, "Tunnels"). */
const SESSION_ENDED_CODES = new Set([1001, 4409]);
/** How long a stream's abnormal close waits for the session to read as ended before it counts as a failure. */
const ENDING_GRACE_MS = 5000;
/** Close codes of an ordinary end of one stream: either side closed its connection. */
const NORMAL_CODES = new Set([1000, 1005]);

/**
 * Asks for the protocol once (`POST .../debug-capabilities`), unless it is granted already; a
 * device that does not offer it is refused here, before anything listens.
 */
export async function requestAccess(api: Api, target: TunnelTarget): Promise<void> {
  const path = `/df/api/sessions/${encodeURIComponent(target.sessionId)}/debug-capabilities`;
  let caps: Capabilities;
  try {
    caps = await api.get<Capabilities>(path);
  } catch (err) {
    if (err instanceof CliError && err.code === 'ROUTE_NOT_FOUND') {
      throw new CliError(`the server at ${api.server} has no debug tunnels (it is older than this dfctl)`, 'DEBUG_TUNNELS_UNSUPPORTED', EXIT.ERROR);
    }
    throw err;
  }
  const offered = caps.protocols.find((p) => p.name === target.protocol);
  if (!offered || !offered.available) {
    const names = caps.protocols.filter((p) => p.available).map((p) => p.name);
    throw new CliError(
      `the ${caps.platform} device of session ${target.sessionId} offers no ${target.protocol}${names.length ? ` (it offers ${names.join(', ')})` : ''}`,
      'DEBUG_PROTOCOL_UNAVAILABLE',
      EXIT.ERROR,
    );
  }
  if (!offered.granted) await api.post(path, { protocols: [target.protocol] });
}

export interface TunnelOptions {
  /** Local port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Called once listening, with the port. */
  listening(port: number): Promise<void> | void;
  /** Called once before the listener closes (e.g. `adb disconnect`). */
  closing?(port: number): Promise<void> | void;
  /** How often the session's state is checked while the tunnel is open (ms). */
  pollMs?: number;
}

/**
 * A local TCP listener whose every connection becomes one WebSocket to the server's debug tunnel,
 * bytes piped both ways with back-pressure (`createWebSocketStream` + `pipeline`: a slow reader on
 * either side pauses the other, nothing is buffered without bound). Resolves with the exit code:
 * 0 when the session ended or dfctl was stopped; a refusal or failure rejects with its CliError.
 */
export async function runTunnel(api: Api, target: TunnelTarget, options: TunnelOptions): Promise<number> {
  const session = await sessionOf(api, target.sessionId);
  if (session.status !== 'active') throw new CliError(`session ${session.id} is ${session.status}`, 'SESSION_NOT_ACTIVE', EXIT.ERROR);
  await requestAccess(api, target);

  const server = api.server;
  const wsUrl = new URL(`/df/debug-tunnel/${encodeURIComponent(target.sessionId)}/${target.path}`, `${server}/`);
  wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';

  const listener: Server = createServer({ pauseOnConnect: true });
  const open = new Set<{ socket: Socket; ws: WebSocket | undefined }>();
  let settle: (result: { code: number } | { error: CliError }) => void = () => undefined;
  const done = new Promise<{ code: number } | { error: CliError }>((resolve) => (settle = resolve));
  let finished = false;
  let port = 0;

  const finish = (result: { code: number; message?: string } | { error: CliError }) => {
    if (finished) return;
    finished = true;
    if ('message' in result && result.message) process.stderr.write(`dfctl: ${result.message}\n`);
    settle('error' in result ? result : { code: result.code });
  };

  /**
   * Finishes with 0 when the session is no longer active, else with `failure` (if any). The device
   * end can close its streams (releasing the device) a moment before the session reads as ended, so
   * a failure is only declared once the session has stayed active for a few seconds after it.
   */
  const endedOrFailed = async (failure: CliError | undefined) => {
    const deadline = Date.now() + (failure ? ENDING_GRACE_MS : 0);
    for (;;) {
      try {
        const s = await sessionOf(api, target.sessionId);
        if (s.status !== 'active') return finish({ code: EXIT.OK, message: `session ${s.id} has ended${s.endReason ? `: ${s.endReason}` : ''}` });
      } catch (err) {
        if (err instanceof CliError && (err.exitCode === EXIT.AUTH || err.exitCode === EXIT.NOT_FOUND)) return finish({ error: err });
      }
      if (finished || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (failure) finish({ error: failure });
  };

  listener.on('connection', (socket: Socket) => {
    const entry: { socket: Socket; ws: WebSocket | undefined } = { socket, ws: undefined };
    open.add(entry);
    let localEnded = false;
    socket.once('end', () => (localEnded = true));
    socket.once('close', () => {
      localEnded = true;
      open.delete(entry);
      entry.ws?.terminate();
    });
    socket.on('error', () => socket.destroy());
    void (async () => {
      let headers: Record<string, string>;
      try {
        headers = await api.authHeaders();
      } catch (err) {
        socket.destroy();
        finish({ error: err instanceof CliError ? err : new CliError(String(err), 'TUNNEL_FAILED') });
        return;
      }
      if (finished || socket.destroyed) return socket.destroy();
      const ws = new WebSocket(wsUrl, { headers: { ...headers, 'user-agent': userAgent() }, perMessageDeflate: false, handshakeTimeout: 30_000 });
      entry.ws = ws;
      let opened = false;
      ws.once('unexpected-response', (req, res) => {
        // A refusal is an HTTP answer to the upgrade with `{code, message}`.
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () => {
          void errorOf(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), `the tunnel was refused with ${res.statusCode}`).then((error) => finish({ error }));
          req.destroy();
        });
        res.once('error', () => finish({ error: new CliError(`the tunnel was refused with ${res.statusCode}`, `HTTP_${res.statusCode}`, EXIT.ERROR) }));
        socket.destroy();
      });
      ws.once('error', (err) => {
        if (opened) return; // the close event that follows says what happened
        socket.destroy();
        finish({ error: isNetworkError(err) ? unreachable(server, err) : new CliError(`the tunnel failed: ${err.message}`, 'TUNNEL_FAILED') });
      });
      ws.once('open', () => {
        opened = true;
        const stream = createWebSocketStream(ws);
        socket.resume();
        pipeline(socket, stream, socket).catch(() => {
          socket.destroy();
          ws.terminate();
        });
      });
      ws.once('close', (code: number, reason: Buffer) => {
        if (!opened) return;
        const why = reason.toString('utf8');
        if (SESSION_ENDED_CODES.has(code)) {
          finish({ code: EXIT.OK, message: `session ${target.sessionId} has ended${why ? `: ${why}` : ''}` });
        } else if (!localEnded) {
          // The device end may close first when the session ends (its agent releases the device), with
          // its own code: the session's state tells an ended session from a failure.
          void endedOrFailed(NORMAL_CODES.has(code) ? undefined : new CliError(`the server closed the tunnel${why ? `: ${why}` : ''} (close code ${code})`, 'TUNNEL_CLOSED', EXIT.ERROR));
        }
      });
    })();
  });

  await new Promise<void>((resolve, reject) => {
    listener.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new CliError(`127.0.0.1:${options.port} is already in use; pick another --port`, 'PORT_IN_USE', EXIT.ERROR) : err),
    );
    listener.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = listener.address();
  port = typeof address === 'object' && address ? address.port : options.port;

  const onSignal = () => finish({ code: EXIT.OK });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // The session can end while no connection is open (no stream to be closed): its state is checked
  // at an interval, since nothing pushes it to an HTTP client.
  const poll = setInterval(() => {
    void sessionOf(api, target.sessionId).then(
      (s) => {
        if (s.status !== 'active') finish({ code: EXIT.OK, message: `session ${s.id} has ended${s.endReason ? `: ${s.endReason}` : ''}` });
      },
      (err: unknown) => {
        if (err instanceof CliError && (err.exitCode === EXIT.AUTH || err.exitCode === EXIT.NOT_FOUND)) finish({ error: err });
      },
    );
  }, options.pollMs ?? 5000);

  try {
    await options.listening(port);
  } catch (err) {
    finish({ error: err instanceof CliError ? err : new CliError(String(err), 'TUNNEL_FAILED') });
  }
  const result = await done;
  clearInterval(poll);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await Promise.resolve(options.closing?.(port)).catch(() => undefined);
  for (const { socket, ws } of open) {
    ws?.terminate();
    socket.destroy();
  }
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  if ('error' in result) throw result.error;
  return result.code;
}

/**
 * `adb connect` to the tunnel, then waits until the device is listed as `device`. An adb server that
 * has not seen this adbd before says "failed to authenticate" while the handshake completes (the
 * device end accepts any key that signs the challenge: access was decided by the platform), so the
 * listing, not that line, says whether it worked.
 */
export async function adbConnect(serverArgs: readonly string[], serial: string): Promise<string> {
  const out = await runAdb([...serverArgs, 'connect', serial]);
  if (/connected to/i.test(out) && !/failed|cannot|unable/i.test(out)) return out;
  if (!/failed to authenticate/i.test(out)) throw new CliError(`adb connect ${serial}: ${out}`, 'ADB_CONNECT_FAILED', EXIT.ERROR);
  const deadline = Date.now() + 15_000;
  const listed = new RegExp(`^${serial.replace(/\./g, '\\.')}\\s+(\\S+)`, 'm');
  for (;;) {
    const state = listed.exec(await runAdb([...serverArgs, 'devices']))?.[1];
    if (state === 'device') return `connected to ${serial}`;
    if (Date.now() > deadline) throw new CliError(`adb connect ${serial}: the device stayed ${state ?? 'unlisted'} (${out})`, 'ADB_CONNECT_FAILED', EXIT.ERROR);
    // adb tells nobody when a device turns authorized; its listing is asked again shortly.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs `adb` (the user's own) and answers its output, or a CliError saying what went wrong. */
export function runAdb(args: readonly string[]): Promise<string> {
  const adb = process.env.DFCTL_ADB || 'adb';
  return new Promise((resolve, reject) => {
    execFile(adb, args, { timeout: 30_000 }, (err, stdout, stderr) => {
      const out = `${stdout}${stderr}`.trim();
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new CliError(`${adb} was not found; install the Android platform tools or leave out --connect`, 'ADB_NOT_FOUND', EXIT.ERROR));
      } else if (err) reject(new CliError(`adb ${args.join(' ')} failed: ${out || err.message}`, 'ADB_FAILED', EXIT.ERROR));
      else resolve(out);
    });
  });
}
