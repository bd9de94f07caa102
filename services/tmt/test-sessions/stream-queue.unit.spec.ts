import { describe, expect, it } from 'vitest';
import { StreamQueue } from './stream-queue.js';

/** A task that runs only when `release` is called, recording when it starts and ends. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return {
    release: () => release(),
    task: async () => {
      log.push(`${name} start`);
      await opened;
      log.push(`${name} end`);
      return name;
    },
  };
}

describe('StreamQueue', () => {
  it('runs the tasks of one key one at a time in arrival order, and those of another key beside them', async () => {
    const log: string[] = [];
    const queue = new StreamQueue();
    const [a1, a2, b1] = [gate(log, 'a1'), gate(log, 'a2'), gate(log, 'b1')];
    const runs = [queue.run('a', a1.task), queue.run('a', a2.task), queue.run('b', b1.task)];
    await expect.poll(() => log).toEqual(['a1 start', 'b1 start']);
    a2.release();
    b1.release();
    await runs[2];
    expect(log).toEqual(['a1 start', 'b1 start', 'b1 end']);
    a1.release();
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'b1']);
    expect(log).toEqual(['a1 start', 'b1 start', 'b1 end', 'a1 end', 'a2 start', 'a2 end']);
  });

  it('a failed task passes its error to its caller only, the next task still runs, and drained keys are forgotten', async () => {
    const queue = new StreamQueue();
    const failed = queue.run('a', async () => {
      throw new Error('conflict');
    });
    const next = queue.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('conflict');
    expect(await next).toBe('ran');
    await expect.poll(() => queue.size).toBe(0);
  });
});
