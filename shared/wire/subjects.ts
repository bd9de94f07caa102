/**
 * Every NATS subject of the device farm's control plane. Subjects are built here and nowhere else, so
 * the agent and the df service can never disagree about a spelling.
 *
 * ```
 * df.agent.<hostId>.hello                    agent → service  announce host and every device (request)
 * df.agent.<hostId>.heartbeat                agent → service  liveness and device states (request)
 * df.agent.<hostId>.devices                  agent → service  the device set changed (publish)
 * df.agent.<hostId>.bye                      agent → service  orderly shutdown (publish)
 * df.agent.<hostId>.health                   agent → service  one device's health reading or mending step (publish)
 * df.agent.<hostId>.device.<deviceId>.rpc    service → agent  one device's commands (request)
 * df.agent.<hostId>.device.<deviceId>.frames agent → service  screencast JPEG frames (publish)
 * df.agent.<hostId>.device.<deviceId>.video  agent → service  a segment of a session's video (request)
 * df.agent.<hostId>.progress.<requestId>     agent → service  progress of a long request (publish)
 * df.service.hello                           service → agents a service (re)started: announce again
 * ```
 */

/** Version of the wire protocol; an agent and a service of different versions refuse each other. */
export const PROTOCOL_VERSION = 1 as const;

// A host or device id becomes one subject token: it must not contain dots, wildcards or spaces.
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** Throws unless `value` can be one subject token. */
export function assertToken(kind: string, value: string): string {
  if (!TOKEN.test(value)) throw new TypeError(`Invalid ${kind} "${value}": use letters, digits, "-" and "_"`);
  return value;
}

const agent = (hostId: string) => `df.agent.${assertToken('host id', hostId)}`;
const device = (hostId: string, deviceId: string) => `${agent(hostId)}.device.${assertToken('device id', deviceId)}`;

export const subjects = {
  hello: (hostId: string) => `${agent(hostId)}.hello`,
  heartbeat: (hostId: string) => `${agent(hostId)}.heartbeat`,
  devices: (hostId: string) => `${agent(hostId)}.devices`,
  bye: (hostId: string) => `${agent(hostId)}.bye`,
  health: (hostId: string) => `${agent(hostId)}.health`,
  rpc: (hostId: string, deviceId: string) => `${device(hostId, deviceId)}.rpc`,
  frames: (hostId: string, deviceId: string) => `${device(hostId, deviceId)}.frames`,
  video: (hostId: string, deviceId: string) => `${device(hostId, deviceId)}.video`,
  progress: (hostId: string, requestId: string) => `${agent(hostId)}.progress.${assertToken('request id', requestId)}`,
  serviceHello: () => 'df.service.hello',
  /** Subscription patterns of the service: every host at once. */
  anyHello: () => 'df.agent.*.hello',
  anyHeartbeat: () => 'df.agent.*.heartbeat',
  anyDevices: () => 'df.agent.*.devices',
  anyBye: () => 'df.agent.*.bye',
  anyHealth: () => 'df.agent.*.health',
  anyVideo: () => 'df.agent.*.device.*.video',
} as const;

/** The host id in a subject built by `subjects` (`df.agent.<hostId>....`). */
export function hostIdOf(subject: string): string | null {
  const parts = subject.split('.');
  return parts[0] === 'df' && parts[1] === 'agent' && parts[2] ? parts[2] : null;
}
