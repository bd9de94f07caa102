import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { GoIos, GoIosProcess } from './go-ios.js';

const FIRST_RESTART_MS = 1_000;
const MAX_RESTART_MS = 30_000;
/** A tunnel process that ran this long is healthy again: the next restart waits the shortest time. */
const STABLE_MS = 60_000;
const READY_TIMEOUT_MS = 30_000;

/**
 * The host's tunnel to iOS 17+ devices (`ios tunnel start`, userspace by default: no root and no TUN
 * device needed). iOS 17 moved the developer services (instruments, testmanagerd) behind RemoteXPC over
 * this tunnel; go-ios's other commands find it through its info port. The agent starts one per host and
 * restarts it when it ends (1 s, doubling to 30 s between attempts), until `stop`.
 * Emits `ready` each time the tunnel server is up and `exit` (code, reason) each time it ends.
 */
export class TunnelSupervisor extends EventEmitter {
  private proc: GoIosProcess | null = null;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private delay = FIRST_RESTART_MS;
  /** How often the tunnel was started again after it ended. */
  restarts = 0;
  /** Whether the tunnel server answers right now. */
  ready = false;

  constructor(
    private readonly goIos: GoIos,
    private readonly logger: Logger,
    private readonly options: { userspace: boolean },
  ) {
    super();
  }

  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  /** Starts the tunnel (once; later calls do nothing while it is supervised). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.launch();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.ready = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const proc = this.proc;
    this.proc = null;
    await proc?.stop();
  }

  private launch(): void {
    if (this.stopped) return;
    let proc: GoIosProcess;
    try {
      proc = this.goIos.startTunnel({ userspace: this.options.userspace });
    } catch (err) {
      // No binary: nothing to supervise; devices say what they lack.
      this.logger.warn({ err: (err as Error).message }, 'the iOS 17+ tunnel cannot start');
      this.stopped = true;
      return;
    }
    this.proc = proc;
    const began = Date.now();
    proc.until((line) => /tunnel server started/i.test(line.msg ?? ''), READY_TIMEOUT_MS).then(
      () => {
        if (this.proc !== proc) return;
        this.ready = true;
        this.logger.info({ pid: proc.child.pid }, 'iOS 17+ tunnel is up');
        this.emit('ready');
      },
      () => undefined,
    );
    void proc.exited.then((code) => {
      if (this.proc !== proc) return;
      this.proc = null;
      this.ready = false;
      this.emit('exit', code, proc.lastError);
      if (this.stopped) return;
      if (Date.now() - began > STABLE_MS) this.delay = FIRST_RESTART_MS;
      this.logger.warn({ code, reason: proc.lastError, retryInMs: this.delay }, 'iOS 17+ tunnel ended; starting it again');
      this.timer = setTimeout(() => {
        this.timer = null;
        this.restarts += 1;
        this.launch();
      }, this.delay);
      this.timer.unref();
      this.delay = Math.min(this.delay * 2, MAX_RESTART_MS);
    });
  }
}
