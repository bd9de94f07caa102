import type { KeyValueStore } from '#shared/kv/index.js';

/**
 * Who holds a session through something the service can see end: a console viewer, a WebDriver client,
 * or a test run's shard (the process that runs it).
 */
export type HolderKind = 'viewer' | 'webdriver' | 'run-shard';

/** What the watchdog knows of a session's holder: the kind that claimed it (null: none did) and whether one is present now. */
export interface HolderState {
  claimedBy: HolderKind | null;
  present: boolean;
}

const claimKey = (sessionId: string) => `df:holder:claim:${sessionId}`;
const presenceKey = (sessionId: string) => `df:holder:present:${sessionId}`;
/** A claim outlives any session (the longest a workspace may set is 7 days). */
const CLAIM_TTL_MS = 8 * 86_400_000;

/**
 * The holders of sessions, as every replica sees them (in the key-value store): a session is claimed
 * by the kind of holder that first took it (a viewer socket, a WebDriver client), and is present while
 * a replica has a holder of it open now. Each replica writes the presence of the sessions its sources
 * hold (its viewer sockets) at every watchdog tick, with a time-to-live of two periods, so a replica
 * that dies stops vouching for its sessions on its own. A session no connection ever claimed (one a
 * REST client opened) is left to the idle time-out.
 */
export class SessionHolders {
  private readonly sources: (() => Iterable<string>)[] = [];

  constructor(
    private readonly kv: KeyValueStore,
    /** How long a presence lasts unless written again (two watchdog periods). */
    private readonly presenceTtlMs: number,
  ) {}

  /** Adds a source of the sessions this replica holds now (the screen hub's watched sessions). */
  addSource(source: () => Iterable<string>): void {
    this.sources.push(source);
  }

  /** Records that a holder of `kind` took the session (kept once; the first kind stays) and that it is present now. */
  async claim(sessionId: string, kind: HolderKind): Promise<void> {
    await this.kv.setIfAbsent(claimKey(sessionId), kind, { ttlMs: CLAIM_TTL_MS });
    await this.kv.set(presenceKey(sessionId), '1', { ttlMs: this.presenceTtlMs });
  }

  /** Writes the presence of every session this replica's sources hold now. */
  async publish(): Promise<void> {
    const held = new Set<string>();
    for (const source of this.sources) for (const id of source()) held.add(id);
    for (const id of held) await this.kv.set(presenceKey(id), '1', { ttlMs: this.presenceTtlMs });
  }

  /** The holder state of each session, in the order asked (two reads of the store). */
  async of(sessionIds: readonly string[]): Promise<HolderState[]> {
    if (sessionIds.length === 0) return [];
    const [claims, presences] = await Promise.all([this.kv.getMany(sessionIds.map(claimKey)), this.kv.getMany(sessionIds.map(presenceKey))]);
    return sessionIds.map((_, i) => ({ claimedBy: (claims[i] as HolderKind | null) ?? null, present: presences[i] !== null }));
  }

  /** Forgets an ended session's claim and presence. */
  async forget(sessionId: string): Promise<void> {
    await Promise.all([this.kv.delete(claimKey(sessionId)), this.kv.delete(presenceKey(sessionId))]);
  }
}
