import { assertToken } from './subjects.js';

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

/** The NATS user name, on the hub, of a site's leaf node. */
export const natsSiteUser = (site: string) => `site-${assertToken('site name', site)}`;

/**
 * The hub's `users` entry for the leaf node of a site (a remote office whose hosts connect to a
 * nats-server of their own, linked to the hub: docs/operations.md, "Sites behind a NATS leaf node").
 * On a leaf link nats-server reads the permissions from the leaf's side: `publish` is what the site may
 * send to the hub, `subscribe` what the hub sends to the site. The link carries no more than the
 * site's hosts may do each (`natsHostUserEntry`):
 *
 * - publish: each host's own subjects. The service subscribes to `df.agent.*.hello` (and heartbeat,
 *   devices, bye, health), and nats-server 2.9 passes such a wildcard interest over a leaf link only when a
 *   literal subject it matches is allowed, so those five are named too. And the answers to the
 *   service's requests, which go to the service's inbox (`_INBOX.>`): `allow_responses` does not
 *   open the inbox to a leaf link (the site only learns the inboxes of the requests it is sent);
 * - subscribe: each host's own subjects, the service's hello and each host's reply inbox.
 *
 * So the hub sends a site nothing of another host's, and the site's nats-server forwards nothing
 * of another host's (each host is also held to its own subjects by its user on the site's server).
 */
export function natsSiteUserEntry(site: string, password: string, hostIds: readonly string[]): string {
  if (hostIds.length === 0) throw new TypeError(`Site "${site}" has no hosts: name at least one`);
  const own = (hostId: string) => `df.agent.${assertToken('host id', hostId)}`;
  const publish = [...hostIds.flatMap((h) => [`${own(h)}.>`, ...['hello', 'heartbeat', 'devices', 'bye', 'health'].map((s) => `${own(h)}.${s}`)]), '_INBOX.>'];
  const subscribe = [...hostIds.map((h) => `${own(h)}.>`), 'df.service.hello', ...hostIds.map((h) => `${natsHostInbox(h)}.>`)];
  const list = (subjects: string[]) => subjects.map(quote).join(', ');
  return `{ user: ${quote(natsSiteUser(site))}, password: ${quote(password)}, permissions: { publish: { allow: [${list(publish)}] }, subscribe: { allow: [${list(subscribe)}] } } }`;
}

/** A site's leaf node: its name, the password of its link, and the hosts behind it. */
export interface NatsSite {
  site: string;
  password: string;
  hostIds: readonly string[];
}

/** A whole `authorization` block: the services' user, one user per host and one per site's leaf node. */
export function natsAuthorization(service: NatsUser, hosts: readonly { hostId: string; password: string }[], sites: readonly NatsSite[] = []): string {
  const users = [
    `{ user: ${quote(service.user)}, password: ${quote(service.password)} }`,
    ...hosts.map((h) => natsHostUserEntry(h.hostId, h.password)),
    ...sites.map((s) => natsSiteUserEntry(s.site, s.password, s.hostIds)),
  ];
  return `authorization {\n  users = [\n    ${users.join('\n    ')}\n  ]\n}\n`;
}
