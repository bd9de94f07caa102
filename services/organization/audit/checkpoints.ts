import { inTick, setIntervalOutsideTrace, UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { Database } from '#shared/db/index.js';
import { checkpointMessage } from '#shared/audit/verify-chain.js';
import type { AuditSigningKeys } from './signing-keys.js';

/*
 * Signed checkpoints: a pass looks at every chain's head and signs a checkpoint (the head's number,
 * position and hash, the time, the key id) for each chain that moved on by `everyEvents` events since its
 * last checkpoint, or moved at all and whose last checkpoint is older than `everyMs` (or that has none).
 * Passes run every `everyMs` or 5 s, whichever is shorter, in every process that serves the organization
 * module; two processes signing the same head write it once (the checkpoint's key is chain and number).
 */

export interface CheckpointOptions {
  /** AUDIT_CHECKPOINT_EVENTS */
  everyEvents: number;
  /** AUDIT_CHECKPOINT_INTERVAL, ms */
  everyMs: number;
  now: () => Date;
}

type HeadRow = {
  chain: string;
  seq: string;
  head: string;
  position: string;
  last_seq: string | null;
  last_at: string | null;
};

export class Checkpointer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Database,
    private readonly keys: AuditSigningKeys,
    private readonly options: CheckpointOptions,
  ) {}

  start(onError: (err: unknown) => void): void {
    if (this.timer) return;
    // A pass that signs checkpoints is a span (`audit.checkpoint`); one that finds none due makes none.
    this.timer = setIntervalOutsideTrace(() => void inTick('audit.checkpoint', (tick) => this.pass(false, tick)).catch(onError), Math.min(this.options.everyMs, 5_000));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One pass (one at a time in this process); answers how many checkpoints it signed. */
  pass(force = false, tick: Tick = UNTRACED): Promise<number> {
    this.running ??= this.signDue(force, tick).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async signDue(force: boolean, tick: Tick): Promise<number> {
    const { rows } = await this.db.query<HeadRow>(
      `SELECT h.chain, h.seq::text AS seq, encode(h.head, 'hex') AS head, e.position::text AS position,
              c.seq::text AS last_seq, c.at AS last_at
       FROM es_chains h JOIN es_events e ON e.chain = h.chain AND e.chain_seq = h.seq
       LEFT JOIN LATERAL (SELECT seq, at FROM es_checkpoints k WHERE k.chain = h.chain ORDER BY seq DESC LIMIT 1) c ON true`,
    );
    const now = this.options.now();
    const due = rows.filter((r) => force ? r.last_seq === null || Number(r.seq) > Number(r.last_seq) : this.isDue(r, now));
    if (due.length === 0) return 0;
    tick.count('audit.checkpoints', due.length);
    await tick.work(() => this.sign(due, now));
    return due.length;
  }

  private async sign(due: HeadRow[], now: Date): Promise<void> {
    const key = await this.keys.current();
    for (const r of due) {
      const checkpoint = { chain: r.chain, seq: Number(r.seq), position: r.position, head: r.head, at: now.toISOString(), keyId: key.keyId };
      await this.db.query(
        `INSERT INTO es_checkpoints (chain, seq, position, head, at, key_id, signature)
         VALUES ($1, $2, $3::bigint, decode($4, 'hex'), $5, $6, $7) ON CONFLICT (chain, seq) DO NOTHING`,
        [r.chain, checkpoint.seq, r.position, r.head, checkpoint.at, key.keyId, key.sign(checkpointMessage(checkpoint))],
      );
    }
  }

  private isDue(r: HeadRow, now: Date): boolean {
    if (r.last_seq === null || r.last_at === null) return true;
    const moved = Number(r.seq) - Number(r.last_seq);
    return moved >= this.options.everyEvents || (moved > 0 && now.getTime() - Date.parse(r.last_at) >= this.options.everyMs);
  }
}
