/*
 * What the run prints while it works and at the end: a heading per step, a dot per second while a
 * timed phase runs (a percentage when the amount of work is known), and aligned tables.
 */

const out = (text: string): void => {
  process.stdout.write(text);
};

/** Prints a step heading. */
export function heading(text: string): void {
  out(`\n== ${text}\n`);
}

/** Prints one line of a step. */
export function note(text: string): void {
  out(`   ${text}\n`);
}

export interface Ticker {
  /** Ends the line with a short result. */
  done(result: string): void;
}

/**
 * Starts a phase line that gains a dot every second, or the percentage `fraction()` reports, so a
 * long phase visibly moves.
 */
export function phase(label: string, fraction?: () => number): Ticker {
  out(`   ${label} `);
  const timer = setInterval(() => {
    if (!fraction) return out('.');
    out(`${Math.min(100, Math.floor(fraction() * 100))}% `);
  }, 1000);
  return {
    done(result) {
      clearInterval(timer);
      out(` ${result}\n`);
    },
  };
}

/** Formats a number with thousands separators and `digits` decimals. */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Prints rows under a header with every column padded to its widest cell; numbers right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+\d.,%× n/a]*$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const text = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
  return `${text}\n`;
}
