import { handleCommand, type CommandContext } from '#shared/es/decider.js';
import type { EventStore } from '#shared/es/types.js';
import { testSessionDecider, type TestSessionCommand, type TestSessionState } from './decide.js';
import { testSessionStream, type TestSessionEvent } from '#events/tmt/test-sessions.js';

const CACHED_SESSIONS = 1_000;

/**
 * Sessions' commands through `handleCommand`, with the folded state of recently used sessions kept in memory: a
 * session collects many `TestResultsRecorded` events (each up to 1,000 results), so a command reads
 * only the events after the cached revision instead of the whole stream. The append still carries the
 * expected revision, so a writer elsewhere is noticed as a conflict, read, and retried.
 */
export class TestSessionCommands {
  private readonly cache = new Map<string, { revision: number; state: TestSessionState }>();

  constructor(private readonly store: EventStore) {}

  async run(sessionId: string, command: TestSessionCommand, context: CommandContext): Promise<{ events: TestSessionEvent[]; state: TestSessionState; position: bigint | null }> {
    const streamId = testSessionStream(sessionId);
    const { events, state, position } = await handleCommand({
      store: this.store,
      streamId,
      decider: testSessionDecider,
      command,
      context,
      load: async () => {
        const cached = this.cache.get(streamId);
        let state = cached?.state ?? testSessionDecider.initialState();
        let revision = cached?.revision ?? -1;
        for (const e of await this.store.readStream(streamId, { fromRevision: revision + 1 })) {
          state = testSessionDecider.evolve(state, { type: e.type, payload: e.payload } as TestSessionEvent);
          revision = e.revision;
        }
        if (revision >= 0) this.remember(streamId, revision, state);
        return { state, revision };
      },
      appended: (state, revision) => this.remember(streamId, revision, state),
    });
    return { events, state, position };
  }

  private remember(streamId: string, revision: number, state: TestSessionState): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, { revision, state });
    if (this.cache.size > CACHED_SESSIONS) this.cache.delete(this.cache.keys().next().value!);
  }
}
