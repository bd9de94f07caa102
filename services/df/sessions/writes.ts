import { randomUUID } from 'node:crypto';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { commandContext, handleCommand, type CommandActor, type CommandContext } from '#shared/es/index.js';
import { sessionStream, type ActivityKind, type DebugProtocolName, type SessionOutcome } from '#events/df/sessions.js';
import type { Caller } from '../http.js';
import { sessionDecider, type SessionCommand } from './decide.js';
import type { SessionDeps } from './deps.js';

const READ_MODELS = ['df-sessions', 'df-devices'];

/** Who acts on a session: a caller, or a named actor (`system`, a user id) in the session's tenant. */
export type SessionActing = Partial<Caller> & { actor?: string | number };

/** The actor of a session's commands: the named actor, else the caller's user, in their tenant. */
export function sessionActor(caller: SessionActing): CommandActor {
  return { actorId: caller.actor ?? caller.userId ?? null, companyId: caller.companyId ?? null, workspaceId: caller.workspaceId ?? null };
}

/**
 * A session's stream: its commands, decided by the session's decider, the wait for the read models that
 * lets a caller read its own write, and the changes and timeline entries callers make.
 */
export class SessionWrites {
  constructor(private readonly deps: Pick<SessionDeps, 'store' | 'readModels' | 'now'>) {}

  /** Runs one command on the session's stream. */
  async run(command: SessionCommand & { sessionId: string }, context: CommandContext) {
    return handleCommand({ store: this.deps.store, streamId: sessionStream(command.sessionId), decider: sessionDecider, command, context, maxAttempts: 10 });
  }

  /** Waits until the read models hold the write at `position` (none: nothing was written). */
  async settle(position: bigint | null): Promise<void> {
    if (position !== null) await this.deps.readModels.waitFor(position, { names: READ_MODELS });
  }

  /** Runs one command as `caller` now and waits for the read models; answers its result. */
  async runAs(command: SessionCommand & { sessionId: string }, caller: SessionActing) {
    const result = await this.run(command, commandContext(this.deps, sessionActor(caller)));
    await this.settle(result.position);
    return result;
  }

  /** Renames, updates metadata or notes. */
  async update(
    session: SessionRecord,
    caller: SessionActing,
    change: { name?: string; metadata?: Record<string, unknown>; notes?: string; outcome?: { outcome: SessionOutcome; reason: string | null } },
  ): Promise<void> {
    const commands: (SessionCommand & { sessionId: string })[] = [
      ...(change.outcome !== undefined ? [{ type: 'SetSessionOutcome' as const, sessionId: session.id, ...change.outcome }] : []),
      ...(change.name !== undefined ? [{ type: 'RenameSession' as const, sessionId: session.id, name: change.name }] : []),
      ...(change.metadata !== undefined ? [{ type: 'UpdateSessionMetadata' as const, sessionId: session.id, metadata: change.metadata }] : []),
      ...(change.notes !== undefined ? [{ type: 'UpdateSessionNotes' as const, sessionId: session.id, notes: change.notes }] : []),
    ];
    let position: bigint | null = null;
    // One command after the other, each with its own time, as a caller changing them one by one would.
    for (const command of commands) position = (await this.run(command, commandContext(this.deps, sessionActor(caller)))).position ?? position;
    await this.settle(position);
  }

  /**
   * Gives a user debug access over `protocols` (an active session only), or withdraws it; answers
   * whether anything changed. The timeline and the audit history record either.
   */
  async changeDebugAccess(session: Pick<SessionRecord, 'id'>, caller: Caller, userId: number, protocols: DebugProtocolName[], grant: boolean): Promise<boolean> {
    const command: SessionCommand = grant
      ? { type: 'GrantDebugAccess', sessionId: session.id, userId, protocols }
      : { type: 'WithdrawDebugAccess', sessionId: session.id, userId, protocols };
    return (await this.runAs(command, caller)).events.length > 0;
  }

  /** Records one timeline entry (which also keeps the session from idling out). */
  async recordActivity(session: Pick<SessionRecord, 'id'>, caller: SessionActing, kind: ActivityKind, detail: Record<string, unknown>): Promise<{ activityId: string; kind: ActivityKind }> {
    const activityId = randomUUID();
    await this.runAs({ type: 'RecordActivity', sessionId: session.id, activityId, kind, detail }, caller);
    return { activityId, kind };
  }

  /**
   * Records several timeline entries with one append (a batch of automation test events): each is a
   * `RecordActivity` decided in turn by the session's decider, so the batch is refused as a whole when
   * the session is not active.
   */
  async recordActivities(session: Pick<SessionRecord, 'id'>, caller: SessionActing, entries: { kind: ActivityKind; detail: Record<string, unknown> }[]): Promise<string[]> {
    const ids = entries.map(() => randomUUID());
    const commands: SessionCommand[] = entries.map((e, i) => ({ type: 'RecordActivity', sessionId: session.id, activityId: ids[i]!, kind: e.kind, detail: e.detail }));
    const batch = {
      ...sessionDecider,
      decide: (all: SessionCommand[], state: ReturnType<typeof sessionDecider.initialState>) => {
        let current = state;
        return all.flatMap((command) => {
          const events = sessionDecider.decide(command, current);
          for (const e of events) current = sessionDecider.evolve(current, e);
          return events;
        });
      },
    };
    const result = await handleCommand({ store: this.deps.store, streamId: sessionStream(session.id), decider: batch, command: commands, context: commandContext(this.deps, sessionActor(caller)), maxAttempts: 10 });
    await this.settle(result.position);
    return ids;
  }
}
