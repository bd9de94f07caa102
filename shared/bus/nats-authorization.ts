import { assertToken } from '../wire/subjects.js';

/**
 * NATS authorisation for the device farm's split deployment: the platform's services connect as one
 * user with every permission; each device host connects as its own user that may only
 *
 * - publish on its own subjects (`df.agent.<hostId>.>`: hello, heartbeat, devices, bye, frames,
 *   progress) and answer the requests it receives (`allow_responses`: the replies of its device RPCs);
 * - subscribe to its own subjects (its devices' RPCs), the service's hello, and its own reply inbox
 *   (`_INBOX_<hostId>.>`: the agent connects with that inbox prefix).
 *
 * So a host can neither pose as another host, nor read another host's commands, nor read the replies
 * the service receives. The users block is generated here (`npm run nats:host-user`), and tested
 * against a real nats-server (`nats-authorization.int.spec.ts`).
 */
export interface NatsUser {
  user: string;
  password: string;
}

/** The NATS user name of a host. */
export const natsHostUser = (hostId: string) => `host-${assertToken('host id', hostId)}`;

/** The inbox prefix a host's connection uses (its replies arrive under it). */
export const natsHostInbox = (hostId: string) => `_INBOX_${assertToken('host id', hostId)}`;

const quote = (value: string) => JSON.stringify(value);

/** One host's entry of the `users` list of a nats-server `authorization` block. */
export function natsHostUserEntry(hostId: string, password: string): string {
  const own = `df.agent.${assertToken('host id', hostId)}.>`;
  return `{ user: ${quote(natsHostUser(hostId))}, password: ${quote(password)}, permissions: { publish: { allow: [${quote(own)}] }, subscribe: { allow: [${quote(own)}, "df.service.hello", ${quote(`${natsHostInbox(hostId)}.>`)}] }, allow_responses: true } }`;
}

/** A whole `authorization` block: the services' user and one user per host. */
export function natsAuthorization(service: NatsUser, hosts: readonly { hostId: string; password: string }[]): string {
  const users = [`{ user: ${quote(service.user)}, password: ${quote(service.password)} }`, ...hosts.map((h) => natsHostUserEntry(h.hostId, h.password))];
  return `authorization {\n  users = [\n    ${users.join('\n    ')}\n  ]\n}\n`;
}
