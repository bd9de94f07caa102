import { formatBytes } from './output.js';

/**
 * A progress bar on stderr, redrawn at most ten times a second, only when stderr is a terminal
 * (a script's captured stderr gets no carriage-return noise). `DFCTL_PROGRESS=1` forces it on.
 */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private readonly started = Date.now();
  private readonly enabled: boolean;

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {
    this.enabled = process.env.DFCTL_PROGRESS === '1' || (process.stderr.isTTY === true && process.env.DFCTL_PROGRESS !== '0');
  }

  add(bytes: number): void {
    this.done += bytes;
    const now = Date.now();
    if (now - this.lastDraw >= 100 || this.done >= this.total) {
      this.lastDraw = now;
      this.draw();
    }
  }

  /** Takes back bytes counted for a part that is sent again. */
  rewind(bytes: number): void {
    this.done = Math.max(0, this.done - bytes);
  }

  finish(): void {
    if (!this.enabled) return;
    // The last add() drew the full bar already unless it was skipped by the rate limit.
    if (this.done < this.total) {
      this.done = this.total;
      this.draw();
    }
    process.stderr.write('\n');
  }

  private draw(): void {
    if (!this.enabled) return;
    const ratio = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const width = 30;
    const filled = Math.round(ratio * width);
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    const rate = `${formatBytes(Math.round(this.done / seconds))}/s`;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    process.stderr.write(`\r${this.label} [${bar}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${formatBytes(this.done)} / ${formatBytes(this.total)} ${rate}   `);
  }
}
