import { fork, type ChildProcess } from 'node:child_process';
import type { LoadRequest, LoadResult } from './load-worker.js';

/** The autocannon child process: one at a time, runs are queued by the caller awaiting each. */
export class LoadGenerator {
  private readonly child: ChildProcess;

  constructor() {
    // tsx as a loader so the child runs the TypeScript worker as the parent runs itself.
    this.child = fork(new URL('./load-worker.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  }

  /** The child's process id, so its CPU time can be told apart. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Runs autocannon once in the child and resolves with what it measured. */
  run(request: LoadRequest): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited (${code}) during a run`));
      this.child.once('exit', onExit);
      this.child.once('message', (message: { result?: LoadResult; error?: string }) => {
        this.child.off('exit', onExit);
        if (message.result) resolve(message.result);
        else reject(new Error(`load generator failed: ${message.error}`));
      });
      this.child.send(request);
    });
  }

  /** Ends the child process. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}
