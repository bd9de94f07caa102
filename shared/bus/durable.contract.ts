import { expect, it } from 'vitest';
import type { DurableMessage, MessageBus } from './index.js';
import type { BusTestOptions } from './bus.contract.js';
import { bytes, Received, suffix, text, waitPast } from './contract-helpers.js';

/** What the durable-stream clauses take from the contract's describe block. */
export interface DurableContractContext {
  open(options?: BusTestOptions): Promise<MessageBus>;
  restart(bus: MessageBus, options: BusTestOptions): Promise<MessageBus>;
  /** A fresh durable stream over `<prefix>.>` with a short ack wait. */
  durableSetup(ackWaitMs?: number): { stream: string; prefix: string; options: BusTestOptions };
}

/** The durable streams' clauses of the message bus contract (shared/bus/bus.contract.ts). */
// Long on purpose: one list of contract clauses sharing the describe block's setup, read top to bottom.
export function durableStreamsContract({ open, restart, durableSetup }: DurableContractContext): void {
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
}
