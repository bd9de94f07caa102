/**
 * Runs the tasks of one key one after another, in the order they came, and tasks of different keys side
 * by side. Writers of one stream in this process then never race each other for the same revision; a key
 * is held only while it has tasks, so the memory is bounded by the writes in flight.
 */
export class StreamQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    // The next task waits for this one to settle, whatever its outcome.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
