import { afterEach, describe, expect, it } from 'vitest';
import {
  BusTimeoutError,
  NoRespondersError,
  type BusMessage,
  type DurableStreams,
  type MessageBus,
} from './index.js';
import { bytes, Received, suffix, text } from './contract-helpers.js';
import { durableStreamsContract } from './durable.contract.js';

export { Received } from './contract-helpers.js';

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

    describe('durable streams', () => durableStreamsContract({ open, restart, durableSetup }));
  });
}
