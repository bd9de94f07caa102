import { aggregate } from '#shared/es/index.js';
import type { CommandContext, CommandResult, Decider, DomainEvent } from '#shared/es/index.js';
import type { Platform } from '../platform.js';

// The organization's write helpers: its aggregates keyed by integer ids, and settling several writes at
// once. Name claims are `OrgNames` (claims/), a request's actor is `requestActor` (http.ts).
export { requestActor } from './http.js';

/** The read models the organization's own answers are read from after a write. */
export const ORG_READ_MODELS = ['org-directory'] as const;

/** `Aggregate` (shared/es/aggregate.ts) of an aggregate whose id is an integer. */
export interface OrgAggregate<Command, Event extends DomainEvent, State> {
  run(id: number, command: Command | ((state: State) => Command), context: CommandContext, options?: { created?: boolean; settle?: boolean }): Promise<CommandResult<Event, State>>;
  settle(result: { position: bigint | null }): Promise<void>;
}

/**
 * An aggregate of the organization whose streams are named by an integer id (users, roles, teams,
 * workspaces, identity providers): `aggregate(...)` answering once `readModels` (the directory unless
 * told) hold the write.
 */
export function orgAggregate<Command, Event extends DomainEvent, State>(
  platform: Pick<Platform, 'store' | 'readModels'>,
  decider: Decider<Command, Event, State>,
  stream: (id: number) => string,
  readModels: readonly string[] = ORG_READ_MODELS,
): OrgAggregate<Command, Event, State> {
  const inner = aggregate(platform, { decider, stream: (id) => stream(Number(id)), readModels });
  return { run: (id, command, context, options) => inner.run(String(id), command, context, options), settle: inner.settle };
}

/** Of several writes, the last (the greatest position): settling it settles them all. */
export function lastWrite(...results: ({ position: bigint | null } | null | undefined)[]): { position: bigint | null } {
  let position: bigint | null = null;
  for (const r of results) if (r?.position != null && (position === null || r.position > position)) position = r.position;
  return { position };
}
