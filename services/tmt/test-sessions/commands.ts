import { eventMetadata, type CommandContext } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { EventStore, NewEvent } from '#shared/es/types.js';
import { WrongExpectedRevisionError } from '#shared/es/types.js';
import { testSessionDecider, type TestSessionCommand, type TestSessionState } from './decide.js';
import { testSessionStream, type TestSessionEvent } from '#events/tmt/test-sessions.js';

const CACHED_SESSIONS = 1_000;
const MAX_ATTEMPTS = 4;

/**
 * `handleCommand` for sessions, with the folded state of recently used sessions kept in memory: a
 * session collects many `TestResultsRecorded` events (each up to 1,000 results), so a command reads
 * only the events after the cached revision instead of the whole stream. The append still carries the
 * expected revision, so a writer elsewhere is noticed as a conflict, read, and retried.
 */
export class TestSessionCommands {
  private readonly cache = new Map<string, { revision: number; state: TestSessionState }>();

  constructor(private readonly store: EventStore) {}

  async run(sessionId: string, command: TestSessionCommand, context: CommandContext): Promise<{ events: TestSessionEvent[]; state: TestSessionState; position: bigint | null }> {
    const streamId = testSessionStream(sessionId);
    for (let attempt = 1; ; attempt++) {
      const cached = this.cache.get(streamId);
      let state = cached?.state ?? testSessionDecider.initialState();
      let revision = cached?.revision ?? -1;
      for (const e of await this.store.readStream(streamId, { fromRevision: revision + 1 })) {
        state = testSessionDecider.evolve(state, { type: e.type, payload: e.payload } as TestSessionEvent);
        revision = e.revision;
      }
      if (revision >= 0) this.remember(streamId, revision, state);
      const events = testSessionDecider.decide(command, state);
      if (events.length === 0) return { events, state, position: null };
      const metadata = eventMetadata(context);
      const toAppend: NewEvent[] = events.map((e) => ({ type: e.type, version: 1, payload: e.payload, metadata }));
      try {
        const result = await this.store.append(streamId, toAppend, revision === -1 ? 'no_stream' : revision);
        for (const e of events) state = testSessionDecider.evolve(state, e);
        this.remember(streamId, result.nextExpectedRevision, state);
        return { events, state, position: result.position };
      } catch (err) {
        if (!(err instanceof WrongExpectedRevisionError)) throw err;
        if (attempt >= MAX_ATTEMPTS) {
          throw new AppError('CONCURRENCY_CONFLICT', 'The session was changed by another request; try again', { cause: err });
        }
      }
    }
  }

  private remember(streamId: string, revision: number, state: TestSessionState): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, { revision, state });
    if (this.cache.size > CACHED_SESSIONS) this.cache.delete(this.cache.keys().next().value!);
  }
}
