import { commandFor, type DebugTarget } from '../debug-commands.js';
import { intFlag, positionals } from '../args.js';
import type { Command, Context } from '../command.js';
import { usage } from '../errors.js';
import { printJson, printLine, printTable } from '../output.js';
import { adbConnect, runAdb, runTunnel, type TunnelTarget } from '../tunnel.js';

/** Tunnels announce themselves on one line, JSON or text, so a script can wait for it. */
function announce(ctx: Context, target: TunnelTarget, port: number, lines: string[], extra: Record<string, unknown> = {}): void {
  if (ctx.json) printLine(JSON.stringify({ sessionId: target.sessionId, protocol: target.path, host: '127.0.0.1', port, address: `127.0.0.1:${port}`, ...extra }));
  else for (const line of lines) printLine(line);
}

/** DFCTL_POLL_MS, when set: how often a tunnel asks whether its session still runs (at least 100 ms). */
const pollOption = (): { pollMs?: number } => {
  const raw = process.env.DFCTL_POLL_MS;
  return raw && /^\d+$/.test(raw) ? { pollMs: Math.max(100, Number(raw)) } : {};
};

/**
 * The tunnel of a command that takes only `<sessionId> [--port <n>]`: to `protocol` of that session,
 * on the port asked (default: a free one); `listening` announces it.
 */
function sessionTunnel(ctx: Context, protocol: string, listening: (target: TunnelTarget, port: number) => void): Promise<number> {
  const [sessionId] = positionals(ctx.args, ['sessionId']);
  const port = intFlag(ctx.args, 'port', 0, 65535) ?? 0;
  const target: TunnelTarget = { sessionId: sessionId!, protocol, path: protocol };
  return runTunnel(ctx.api(), target, { port, ...pollOption(), listening: (p) => listening(target, p) });
}

export const adb: Command = {
  name: 'adb',
  summary: "the session's Android device for your own adb (adb devices, logcat, install, debuggers)",
  usage: `dfctl adb <sessionId> [--port <n>] [--connect [--adb-port <p>]]

Listens on 127.0.0.1:<n> (default: a free port) and prints the "adb connect 127.0.0.1:<n>" line;
every connection to it reaches the device's adbd through the platform. --connect runs that adb
connect itself (and adb disconnect when dfctl stops); --adb-port is your adb server's port (adb -P).
Runs until the session ends (exit 0), dfctl is interrupted (exit 0), or the tunnel fails.`,
  flags: { values: ['port', 'adb-port'], booleans: ['connect'] },
  async run(ctx) {
    const [sessionId] = positionals(ctx.args, ['sessionId']);
    const port = intFlag(ctx.args, 'port', 0, 65535) ?? 0;
    const adbPort = intFlag(ctx.args, 'adb-port', 1, 65535);
    const connect = ctx.args.booleans.has('connect');
    if (adbPort !== undefined && !connect) throw usage('--adb-port goes with --connect');
    const serverArgs = adbPort === undefined ? [] : ['-P', String(adbPort)];
    const target: TunnelTarget = { sessionId: sessionId!, protocol: 'adb', path: 'adb' };
    let connected = false;
    return runTunnel(ctx.api(), target, {
      port,
      ...pollOption(),
      listening: async (p) => {
        const line = `adb connect 127.0.0.1:${p}`;
        announce(ctx, target, p, [`Tunnel to the adb of session ${target.sessionId} on 127.0.0.1:${p}`, line], { adbConnect: line });
        if (connect) {
          connected = true;
          const out = await adbConnect(serverArgs, `127.0.0.1:${p}`);
          process.stderr.write(`${out}\n`);
        }
      },
      closing: async (p) => {
        if (connected) await runAdb([...serverArgs, 'disconnect', `127.0.0.1:${p}`]);
      },
    });
  },
};

/** `<local>:<remote>` or `<local>:jdwp:<pid>`. */
export function parseForward(sessionId: string, spec: string): { local: number; target: TunnelTarget } {
  const port = (raw: string, what: string, min: number) => {
    if (!/^\d{1,5}$/.test(raw) || Number(raw) < min || Number(raw) > 65535) throw usage(`${what} must be a port number (${min}-65535), got ${raw}`);
    return Number(raw);
  };
  const jdwp = /^(\d+):jdwp:(\d+)$/.exec(spec);
  if (jdwp) {
    const pid = Number(jdwp[2]);
    if (pid < 1 || pid > 4_194_304) throw usage(`jdwp:<pid> needs a process id, got ${jdwp[2]}`);
    return { local: port(jdwp[1]!, 'the local port', 0), target: { sessionId, protocol: 'jdwp', path: `jdwp/${pid}` } };
  }
  const tcp = /^(\d+):(\d+)$/.exec(spec);
  if (!tcp) throw usage(`the forward is <localPort>:<remotePort> or <localPort>:jdwp:<pid>, got ${spec}`);
  return { local: port(tcp[1]!, 'the local port', 0), target: { sessionId, protocol: 'tcp_forward', path: `tcp_forward/${port(tcp[2]!, 'the remote port', 1)}` } };
}

export const forward: Command = {
  name: 'forward',
  summary: 'forward a local port to a port (or a debuggable process) on the device',
  usage: `dfctl forward <sessionId> <localPort>:<remotePort>
dfctl forward <sessionId> <localPort>:jdwp:<pid>

Listens on 127.0.0.1:<localPort> (0: a free port, printed) and carries every connection to the
device's TCP port <remotePort>, or to the JDWP debugger of process <pid> (attach a Java debugger
to the local port). Runs until the session ends, dfctl is interrupted, or the tunnel fails.`,
  flags: {},
  async run(ctx) {
    const [sessionId, spec] = positionals(ctx.args, ['sessionId', 'localPort:remotePort']);
    const { local, target } = parseForward(sessionId!, spec!);
    return runTunnel(ctx.api(), target, {
      port: local,
      ...pollOption(),
      listening: (p) => announce(ctx, target, p, [`Forwarding 127.0.0.1:${p} to ${target.path.replace('/', ' ')} of session ${target.sessionId}`]),
    });
  },
};

export const devtools: Command = {
  name: 'devtools',
  summary: "the device's browser DevTools (CDP) on a local port",
  usage: `dfctl devtools <sessionId> [--port <n>]

Listens on 127.0.0.1:<n> and carries every connection to the DevTools protocol of the device's
browser: open http://127.0.0.1:<n>/json, or add 127.0.0.1:<n> under chrome://inspect, "Configure".`,
  flags: { values: ['port'] },
  async run(ctx) {
    return sessionTunnel(ctx, 'cdp', (target, p) =>
      announce(ctx, target, p, [`DevTools of session ${target.sessionId} on http://127.0.0.1:${p} (chrome://inspect, Configure: 127.0.0.1:${p})`], { url: `http://127.0.0.1:${p}` }),
    );
  },
};

export const usbmux: Command = {
  name: 'usbmux',
  summary: "the session's iOS device for your own libimobiledevice tools (idevice_id, ideviceinfo, idevicesyslog)",
  usage: `dfctl usbmux <sessionId> [--port <n>]

Listens on 127.0.0.1:<n> (default: a free port) as a usbmuxd and prints the
"export USBMUXD_SOCKET_ADDRESS=127.0.0.1:<n>" line: tools that read that variable (libimobiledevice's
idevice_id, ideviceinfo, idevicesyslog, ideviceinstaller; go-ios) see the session's device, and only
it. Needs the usbmux grant. Runs until the session ends (exit 0), dfctl is interrupted (exit 0), or
the tunnel fails.`,
  flags: { values: ['port'] },
  async run(ctx) {
    return sessionTunnel(ctx, 'usbmux', (target, p) => {
      const line = `export USBMUXD_SOCKET_ADDRESS=127.0.0.1:${p}`;
      announce(ctx, target, p, [`usbmuxd of session ${target.sessionId} on 127.0.0.1:${p}`, line], { usbmuxdSocketAddress: `127.0.0.1:${p}` });
    });
  },
};

export const targets: Command = {
  name: 'targets',
  summary: "what a debugger can attach to in a session (the device, processes, pages) and the dfctl command for each",
  usage: `dfctl targets <sessionId>

Lists the session's debug targets (GET /df/api/sessions/{id}/debug-targets): the device, debuggable
processes with their package and pid, browser pages and WebViews, each with its protocol and the
dfctl command that reaches it ("dfctl forward <id> 8700:jdwp:<pid>" for a process). --json prints
the targets with a "command" field each.`,
  flags: {},
  async run(ctx) {
    const [sessionId] = positionals(ctx.args, ['sessionId']);
    const { targets: list } = await ctx.api().get<{ targets: DebugTarget[] }>(`/df/api/sessions/${encodeURIComponent(sessionId!)}/debug-targets`);
    const rows = list.map((t) => ({ ...t, command: commandFor(sessionId!, t) }));
    if (ctx.json) return printJson(rows);
    printTable(
      ['KIND', 'TITLE', 'PACKAGE', 'PID', 'PROTOCOL', 'COMMAND'],
      rows.map((t) => [t.kind, t.title, t.package ?? '-', t.pid === undefined ? '-' : String(t.pid), t.protocol, t.command ?? '-']),
      'Nothing to attach to right now: start the app you want to debug, then ask again.',
    );
  },
};
