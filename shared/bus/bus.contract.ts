import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BusTimeoutError,
  NoRespondersError,
  type BusMessage,
  type DurableMessage,
  type DurableStreams,
  type MessageBus,
} from './index.js';

export interface BusTestOptions {
  streams?: DurableStreams;
  ackWaitMs?: number;
  onError?: (err: unknown, subject: string) => void;
}

/** How the contract reaches one adapter. */
export interface BusContractTarget {
  /** Opens a bus; the contract closes it. */
  open(options?: BusTestOptions): Promise<MessageBus>;
  /**
   * The same service after a restart. A networked adapter closes `bus` and connects anew; the in-process
   * bus is its own server, so it stays as it is (its consumers are re-created by the test).
   */
  restart(bus: MessageBus, options: BusTestOptions): Promise<MessageBus>;
  /** Deletes what the server keeps for these durable streams. */
  dropStreams(names: string[]): Promise<void>;
}

/** Collects what handlers receive and lets a test wait for a condition on them, without sleeping. */
export class Received<T> {
  readonly items: T[] = [];
  private waiters: Array<{ done: (items: T[]) => boolean; resolve: () => void }> = [];

  push(item: T): void {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      if (!w.done(this.items)) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves with the items once `done` holds for them; rejects after `timeoutMs`. */
  async until(done: (items: T[]) => boolean, timeoutMs = 5_000): Promise<T[]> {
    if (done(this.items)) return this.items;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const waiter = { done, resolve };
        this.waiters.push(waiter);
        timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new Error(`Condition not met within ${timeoutMs} ms; received ${JSON.stringify(this.items)}`));
        }, timeoutMs);
      });
    } finally {
      clearTimeout(timer);
    }
    return this.items;
  }

  /** Resolves with the items once there are at least `count`. */
  atLeast(count: number, timeoutMs?: number): Promise<T[]> {
    return this.until((items) => items.length >= count, timeoutMs);
  }
}

const text = (data: Uint8Array): string => Buffer.from(data).toString('utf8');
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const suffix = (): string => randomBytes(5).toString('hex');

// Absence can only be shown by waiting: redelivery is scheduled by the ack wait, so a test that proves
// "never delivered again" has to let that time pass (once or twice over) before looking.
const waitPast = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The message bus contract: every adapter must pass it unchanged. */
// Long on purpose: a contract suite is one list of cases sharing the subject opened once in its describe block; read top to bottom, each `it` is one clause of the port's contract, and splitting it would only scatter that shared setup.
export function busContract(name: string, target: BusContractTarget): void {
  describe(`message bus contract: ${name}`, () => {
    const opened: MessageBus[] = [];
    const streams: string[] = [];

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
      await target.dropStreams(streams.splice(0));
    });

    async function open(options?: BusTestOptions): Promise<MessageBus> {
      const bus = await target.open(options);
      opened.push(bus);
      return bus;
    }

    async function restart(bus: MessageBus, options: BusTestOptions): Promise<MessageBus> {
      const next = await target.restart(bus, options);
      if (next !== bus) opened.push(next);
      return next;
    }

    /** A fresh durable stream over `<prefix>.>` with a short ack wait. */
    function durableSetup(ackWaitMs = 300): { stream: string; prefix: string; options: BusTestOptions } {
      const id = suffix();
      const stream = `T_${id}`;
      const prefix = `t.durable.${id}`;
      streams.push(stream);
      return { stream, prefix, options: { streams: { [stream]: [`${prefix}.>`] }, ackWaitMs } };
    }

    describe('publish / subscribe', () => {
      it('matches `*` to exactly one token and `>` to one or more trailing tokens', async () => {
        const bus = await open();
        const p = `t.wild.${suffix()}`;
        const patterns = [`${p}.a.*.c`, `${p}.a.>`, `${p}.*.b.c`, `${p}.a.b.c`];
        const received = new Map(patterns.map((pattern) => [pattern, new Received<string>()]));
        for (const [pattern, inbox] of received) {
          await bus.subscribe(pattern, (m) => inbox.push(m.subject));
        }
        for (const subject of [`${p}.a.x.c`, `${p}.a.b`, `${p}.a`, `${p}.z.b.c`, `${p}.a.x.c.d`, `${p}.b.b.b`]) {
          await bus.publish(subject, bytes('x'));
        }
        // Delivery keeps publish order per subscription, so once the sentinel (matched by every pattern)
        // has arrived, everything published before it has arrived too.
        const sentinel = `${p}.a.b.c`;
        await bus.publish(sentinel, bytes('end'));
        const seen = (pattern: string): Promise<string[]> =>
          received.get(pattern)!.until((items) => items.includes(sentinel));
        expect(await seen(`${p}.a.*.c`)).toEqual([`${p}.a.x.c`, sentinel]);
        expect(await seen(`${p}.a.>`)).toEqual([`${p}.a.x.c`, `${p}.a.b`, `${p}.a.x.c.d`, sentinel]);
        expect(await seen(`${p}.*.b.c`)).toEqual([`${p}.z.b.c`, sentinel]);
        expect(await seen(`${p}.a.b.c`)).toEqual([sentinel]);
      });

      it('gives each message to exactly one member of a queue group, and to every plain subscriber', async () => {
        const bus = await open();
        const subject = `t.queue.${suffix()}`;
        const group = new Received<{ member: number; n: number }>();
        const plain = new Received<number>();
        for (const member of [1, 2, 3]) {
          await bus.subscribe(subject, (m) => group.push({ member, n: Number(text(m.data)) }), { queue: 'workers' });
        }
        await bus.subscribe(subject, (m) => plain.push(Number(text(m.data))));
        const count = 30;
        for (let n = 0; n < count; n++) await bus.publish(subject, bytes(String(n)));

        await plain.atLeast(count);
        await group.atLeast(count);
        expect(plain.items).toHaveLength(count);
        expect(group.items).toHaveLength(count);
        expect(new Set(group.items.map((d) => d.n)).size).toBe(count);
        expect(new Set(group.items.map((d) => d.member)).size).toBeGreaterThan(1);
      });

      it('runs one handler call at a time per subscription, and a slow handler does not hold up the others', async () => {
        const bus = await open();
        const subject = `t.slow.${suffix()}`;
        let releaseSlow!: () => void;
        const gate = new Promise<void>((resolve) => {
          releaseSlow = resolve;
        });
        let running = 0;
        let mostAtOnce = 0;
        const slow = new Received<string>();
        const fast = new Received<string>();
        await bus.subscribe(subject, async (m) => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          slow.push(text(m.data));
          if (slow.items.length === 1) await gate;
          running -= 1;
        });
        await bus.subscribe(subject, (m) => fast.push(text(m.data)));
        for (const n of ['1', '2', '3']) await bus.publish(subject, bytes(n));

        expect(await fast.atLeast(3)).toEqual(['1', '2', '3']);
        expect(slow.items).toEqual(['1']);
        releaseSlow();
        expect(await slow.atLeast(3)).toEqual(['1', '2', '3']);
        expect(mostAtOnce).toBe(1);
      });

      it('carries data bytes and headers unchanged', async () => {
        const bus = await open();
        const subject = `t.headers.${suffix()}`;
        const inbox = new Received<BusMessage>();
        await bus.subscribe(subject, (m) => inbox.push(m));
        const data = new Uint8Array([0, 1, 2, 254, 255]);
        await bus.publish(subject, data, { 'x-correlation-id': 'c-42', 'content-type': 'application/json' });
        await bus.publish(subject, bytes('plain'));

        const [withHeaders, without] = await inbox.atLeast(2);
        expect(withHeaders?.subject).toBe(subject);
        expect([...(withHeaders?.data ?? [])]).toEqual([0, 1, 2, 254, 255]);
        expect(withHeaders?.headers).toEqual({ 'x-correlation-id': 'c-42', 'content-type': 'application/json' });
        expect(without?.headers).toBeUndefined();
      });

      it('delivers nothing to a subscription after it is unsubscribed', async () => {
        const bus = await open();
        const subject = `t.unsub.${suffix()}`;
        const gone = new Received<string>();
        const staying = new Received<string>();
        const sub = await bus.subscribe(subject, (m) => gone.push(text(m.data)));
        await bus.subscribe(subject, (m) => staying.push(text(m.data)));
        await bus.publish(subject, bytes('before'));
        await gone.atLeast(1);
        await sub.unsubscribe();
        await bus.publish(subject, bytes('after'));

        expect(await staying.atLeast(2)).toEqual(['before', 'after']);
        expect(gone.items).toEqual(['before']);
      });
    });

    describe('request / reply', () => {
      it('resolves with the reply of the responder, headers included both ways', async () => {
        const bus = await open();
        const subject = `t.rpc.${suffix()}`;
        await bus.subscribe(subject, async (m) => {
          await bus.respond(m, bytes(text(m.data).toUpperCase()), { 'x-echo': m.headers?.['x-request'] ?? 'missing' });
        });
        const reply = await bus.request(subject, bytes('ping'), { timeoutMs: 2_000, headers: { 'x-request': 'r-7' } });
        expect(text(reply.data)).toBe('PING');
        expect(reply.headers).toEqual({ 'x-echo': 'r-7' });
      });

      it('gets one reply when the responders form a queue group', async () => {
        const bus = await open();
        const subject = `t.rpc-group.${suffix()}`;
        const answered = new Received<number>();
        for (const member of [1, 2]) {
          await bus.subscribe(
            subject,
            async (m) => {
              answered.push(member);
              await bus.respond(m, bytes(String(member)));
            },
            { queue: 'responders' },
          );
        }
        const replies = await Promise.all([1, 2, 3, 4].map(() => bus.request(subject, bytes('?'), { timeoutMs: 2_000 })));
        expect(replies.map((r) => ['1', '2'].includes(text(r.data)))).toEqual([true, true, true, true]);
        expect(answered.items).toHaveLength(4);
      });

      it('rejects with BusTimeoutError when the responder stays silent past the time-out', async () => {
        const bus = await open();
        const subject = `t.silent.${suffix()}`;
        const asked = new Received<string>();
        await bus.subscribe(subject, (m) => asked.push(m.subject));
        const started = Date.now();
        const outcome = bus.request(subject, bytes('hello?'), { timeoutMs: 150 });
        await expect(outcome).rejects.toBeInstanceOf(BusTimeoutError);
        expect(Date.now() - started).toBeGreaterThanOrEqual(140);
        expect(asked.items).toEqual([subject]);
      });

      it('rejects with NoRespondersError at once when nobody subscribes, not after the time-out', async () => {
        const bus = await open();
        const subject = `t.nobody.${suffix()}`;
        const started = Date.now();
        await expect(bus.request(subject, bytes('anyone?'), { timeoutMs: 5_000 })).rejects.toBeInstanceOf(NoRespondersError);
        expect(Date.now() - started).toBeLessThan(2_000);
      });
    });

    describe('durable streams', () => {
      it('delivers messages published before the consumer existed, in order, with their sequence numbers', async () => {
        const { stream, prefix, options } = durableSetup();
        const bus = await open(options);
        const published: number[] = [];
        for (const n of ['a', 'b', 'c']) {
          published.push((await bus.publishDurable(stream, `${prefix}.${n}`, bytes(n))).seq);
        }
        expect(published[1]! - published[0]!).toBe(1);
        expect(published[2]! - published[1]!).toBe(1);

        const inbox = new Received<DurableMessage>();
        await bus.consumeDurable(stream, 'reader', async (m) => {
          await m.ack();
          inbox.push(m);
        });
        const got = await inbox.atLeast(3);
        expect(got.map((m) => [m.seq, m.subject, text(m.data)])).toEqual([
          [published[0], `${prefix}.a`, 'a'],
          [published[1], `${prefix}.b`, 'b'],
          [published[2], `${prefix}.c`, 'c'],
        ]);
      });

      it('stores a message’s headers with it and delivers them to a consumer that comes later', async () => {
        const { stream, prefix, options } = durableSetup();
        const bus = await open(options);
        await bus.publishDurable(stream, `${prefix}.h`, bytes('with'), { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-kind': 'note' });
        await bus.publishDurable(stream, `${prefix}.h`, bytes('without'));
        const inbox = new Received<DurableMessage>();
        await bus.consumeDurable(stream, 'header-reader', async (m) => {
          await m.ack();
          inbox.push(m);
        });
        const [withHeaders, without] = await inbox.atLeast(2);
        expect(withHeaders!.headers).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-kind': 'note' });
        expect(without!.headers ?? {}).toEqual({});
      });

      it('resumes after the last ack when the consumer is re-created after a restart, never repeating acked messages', async () => {
        const ackWaitMs = 250;
        const { stream, prefix, options } = durableSetup(ackWaitMs);
        const first = await open(options);
        await first.publishDurable(stream, `${prefix}.x`, bytes('one'));
        await first.publishDurable(stream, `${prefix}.x`, bytes('two'));
        const before = new Received<string>();
        const sub = await first.consumeDurable(stream, 'resumer', async (m) => {
          await m.ack();
          before.push(text(m.data));
        });
        expect(await before.atLeast(2)).toEqual(['one', 'two']);
        await sub.unsubscribe();

        const second = await restart(first, options);
        await second.publishDurable(stream, `${prefix}.x`, bytes('three'));
        const after = new Received<string>();
        await second.consumeDurable(stream, 'resumer', async (m) => {
          await m.ack();
          after.push(text(m.data));
        });
        expect(await after.atLeast(1)).toEqual(['three']);
        await waitPast(ackWaitMs * 3);
        expect(after.items).toEqual(['three']);
        expect(before.items).toEqual(['one', 'two']);
      });

      it('delivers an unacked message again after the ack wait, to the same consumer and to a re-created one', async () => {
        const ackWaitMs = 300;
        const { stream, prefix, options } = durableSetup(ackWaitMs);
        const first = await open(options);
        const { seq } = await first.publishDurable(stream, `${prefix}.job`, bytes('job'));
        const deliveries = new Received<{ seq: number; at: number }>();
        const sub = await first.consumeDurable(stream, 'forgetful', (m) => deliveries.push({ seq: m.seq, at: Date.now() }));
        const [firstTry, secondTry] = await deliveries.atLeast(2);
        expect(firstTry?.seq).toBe(seq);
        expect(secondTry?.seq).toBe(seq);
        // Redelivery is driven by the ack wait, not by anything sooner (timers may fire a little early).
        expect(secondTry!.at - firstTry!.at).toBeGreaterThanOrEqual(ackWaitMs * 0.8);
        await sub.unsubscribe();

        const second = await restart(first, options);
        const again = new Received<DurableMessage>();
        await second.consumeDurable(stream, 'forgetful', async (m) => {
          await m.ack();
          again.push(m);
        });
        const [redelivered] = await again.atLeast(1);
        expect(redelivered?.seq).toBe(seq);
        expect(text(redelivered!.data)).toBe('job');
      });

      it('reports what a durable handler throws and delivers that message again', async () => {
        const { stream, prefix, options } = durableSetup(200);
        const reported = new Received<{ message: string; subject: string }>();
        const bus = await open({
          ...options,
          onError: (err, subject) => reported.push({ message: err instanceof Error ? err.message : String(err), subject }),
        });
        await bus.publishDurable(stream, `${prefix}.flaky`, bytes('flaky'));
        const attempts = new Received<number>();
        await bus.consumeDurable(stream, 'retrier', async (m) => {
          attempts.push(m.seq);
          if (attempts.items.length === 1) throw new Error('transient failure');
          await m.ack();
        });
        const [one, two] = await attempts.atLeast(2);
        expect(two).toBe(one);
        expect(reported.items).toEqual([{ message: 'transient failure', subject: `${prefix}.flaky` }]);
      });

      it('delivers only the messages matching the filter subject', async () => {
        const { stream, prefix, options } = durableSetup();
        const bus = await open(options);
        for (const subject of [`${prefix}.a.1`, `${prefix}.b.1`, `${prefix}.a.2`]) {
          await bus.publishDurable(stream, subject, bytes(subject));
        }
        const inbox = new Received<string>();
        await bus.consumeDurable(
          stream,
          'only-a',
          async (m) => {
            await m.ack();
            inbox.push(m.subject);
          },
          { filterSubject: `${prefix}.a.*` },
        );
        // Delivery follows stream order, so receiving a.2 right after a.1 shows b.1 was skipped.
        expect(await inbox.atLeast(2)).toEqual([`${prefix}.a.1`, `${prefix}.a.2`]);
      });

      it('refuses subjects outside the declared stream and streams that were not declared', async () => {
        const { stream, options } = durableSetup();
        const bus = await open(options);
        await expect(bus.publishDurable(stream, `t.elsewhere.${suffix()}`, bytes('x'))).rejects.toThrow(/not part of/);
        await expect(bus.publishDurable(`UNDECLARED_${suffix()}`, 't.x', bytes('x'))).rejects.toThrow(/not declared/);
      });
    });
  });
}
