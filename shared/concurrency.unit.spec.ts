import { describe, expect, it } from 'vitest';
import { KeyedQueue, Pauses, Slots } from './concurrency.js';

/** A promise and the function that settles it, to hold work until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('KeyedQueue', () => {
  it('runs one key’s work in order, other keys side by side, and a failure fails only its own promise', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const held = gate();
    const a1 = queue.run('a', async () => {
      await held.opened;
      log.push('a1');
    });
    const a2 = queue.run('a', async () => {
      log.push('a2');
      throw new Error('a2 failed');
    });
    const a3 = queue.run('a', async () => {
      log.push('a3');
      return 3;
    });
    // Key b does not wait for key a.
    await queue.run('b', async () => log.push('b1'));
    expect(log).toEqual(['b1']);
    held.open();
    await a1;
    await expect(a2).rejects.toThrow('a2 failed');
    expect(await a3).toBe(3);
    expect(log).toEqual(['b1', 'a1', 'a2', 'a3']);
  });

  it('is idle once everything queued has run', async () => {
    const queue = new KeyedQueue();
    const held = gate();
    let done = false;
    void queue.run('k', async () => {
      await held.opened;
      done = true;
    });
    const idle = queue.idle().then(() => done);
    held.open();
    expect(await idle).toBe(true);
  });
});

describe('Slots', () => {
  it('runs at most `limit` tasks at once, the others in arrival order', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const tasks = gates.map((g, i) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await g.opened;
        running--;
        return i;
      }),
    );
    // Let every task that can start do so, then release them one by one.
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    for (const g of gates) g.open();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('gives the slot back when a task fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});

describe('Pauses', () => {
  it('ends a pause at its time, or every pause under way at once when woken', async () => {
    const pauses = new Pauses();
    const began = Date.now();
    await pauses.pause(20);
    expect(Date.now() - began).toBeGreaterThanOrEqual(15);
    let ended = 0;
    const long = [pauses.pause(60_000).then(() => ended++), pauses.pause(60_000).then(() => ended++)];
    expect(ended).toBe(0);
    pauses.wakeAll();
    await Promise.all(long);
    expect(ended).toBe(2);
  });
});
