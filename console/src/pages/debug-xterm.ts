// The terminal emulator and its stylesheet: loaded only when the debugging page opens a terminal,
// so xterm.js never weighs on the console's first load (the page imports this module dynamically).
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';

export interface TerminalView {
  readonly cols: number;
  readonly rows: number;
  write(data: string): void;
  reset(): void;
  focus(): void;
  /** Fits the grid to its box; xterm reports a changed size through `onResize`. */
  fit(): void;
  dispose(): void;
}

export interface TerminalEvents {
  /** What was typed or pasted, as the terminal encodes it (Enter is "\r"). */
  onData(data: string): void;
  onResize(cols: number, rows: number): void;
}

export function createTerminal(box: HTMLElement, events: TerminalEvents): TerminalView {
  const term = new Terminal({
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: 14,
    cursorBlink: true,
    scrollback: 5000,
    theme: { background: '#10151f', foreground: '#e6e9ef', cursor: '#f59e0b' },
  });
  const fitAddon = new FitAddon();
  term.loadAddon(fitAddon);
  // Tab belongs to the shell (completion); Shift+Tab is left to the browser, so the keyboard can
  // always leave the terminal (no keyboard trap).
  term.attachCustomKeyEventHandler((e) => !(e.key === 'Tab' && e.shiftKey));
  term.onData((data) => events.onData(data));
  term.onResize(({ cols, rows }) => events.onResize(cols, rows));
  term.open(box);
  fitAddon.fit();
  return {
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    write: (data) => term.write(data),
    reset: () => term.reset(),
    focus: () => term.focus(),
    fit: () => fitAddon.fit(),
    dispose: () => term.dispose(),
  };
}
