import { fork, type ChildProcess } from 'node:child_process';
import type { ObserverAnswer, ObserverRequest } from './observer-worker.js';

/**
 * The parent's side of the observer child (bench/observer-worker.ts): the OTLP receiver and the scraper
 * of one measured server, in a process of their own as a collector and Prometheus would be.
 */
export class Observer {
  private constructor(
    private readonly child: ChildProcess,
    /** Where the server's tracing exports (OTLP/HTTP). */
    readonly endpoint: string,
  ) {}

  static async start(): Promise<Observer> {
    // tsx as a loader so the child runs the TypeScript worker as the parent runs itself.
    const child = fork(new URL('./observer-worker.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const first = await Observer.next(child);
    if (!('endpoint' in first)) throw new Error('the observer did not start its receiver');
    return new Observer(child, first.endpoint);
  }

  private static next(child: ChildProcess): Promise<ObserverAnswer> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the observer exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message: ObserverAnswer) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  }

  private ask(request: ObserverRequest): Promise<ObserverAnswer> {
    const answered = Observer.next(this.child);
    this.child.send(request);
    return answered;
  }

  /** Starts scraping `url` once a second. */
  async scrape(url: string): Promise<void> {
    await this.ask({ scrape: url });
  }

  /** Counts the OTLP bytes received from now on, without scraping. */
  async countFromNow(): Promise<void> {
    await this.ask({ count: true });
  }

  /** Stops scraping; answers the scrapes completed since `scrape` and the OTLP bytes received since then. */
  async stop(): Promise<{ scrapes: number; bytes: number }> {
    const answer = await this.ask({ stop: true });
    if (!('bytes' in answer)) throw new Error('the observer answered out of turn');
    return answer;
  }

  /** Ends the child process. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}
