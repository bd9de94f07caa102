import { usage } from './errors.js';

/** What a command accepts besides its positional arguments. */
export interface FlagSpec {
  /** Flags that take a value (`--port 5555`, `--port=5555`). */
  values?: readonly string[];
  /** Flags that are on or off (`--json`). */
  booleans?: readonly string[];
  /** One-letter spellings of flags above (`o` for `output`: `-o FILE` is `--output FILE`). */
  short?: Readonly<Record<string, string>>;
}

export interface ParsedArgs {
  positionals: string[];
  values: Map<string, string>;
  booleans: Set<string>;
}

/** Flags every command takes. */
export const GLOBAL_FLAGS: Required<Omit<FlagSpec, 'short'>> = { values: ['server'], booleans: ['json', 'help'] };

/**
 * Splits argv into positionals and flags, refusing unknown flags (a typo must not be silently
 * ignored: `--plaform android` would otherwise list every device). `--` ends the flags.
 */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const values = new Set([...(spec.values ?? []), ...GLOBAL_FLAGS.values]);
  const booleans = new Set([...(spec.booleans ?? []), ...GLOBAL_FLAGS.booleans]);
  const out: ParsedArgs = { positionals: [], values: new Map(), booleans: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const letter = /^-([A-Za-z])$/.exec(argv[i]!)?.[1];
    const long = letter === undefined ? undefined : spec.short?.[letter];
    const arg = long === undefined ? argv[i]! : `--${long}`;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      out.booleans.add('help');
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-' && !/^-\d/.test(arg)) throw usage(`unknown option ${arg}`);
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (values.has(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw usage(`--${name} needs a value`);
      out.values.set(name, value);
    } else if (booleans.has(name)) {
      if (eq !== -1) throw usage(`--${name} takes no value`);
      out.booleans.add(name);
    } else {
      throw usage(`unknown option --${name}`);
    }
  }
  return out;
}

/** A whole number in [min, max] from a flag, or the usage error naming it. */
export function intFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const raw = args.values.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw usage(`--${name} must be a whole number from ${min} to ${max}`);
  return Number(raw);
}

/** Exactly `count` positionals named `names`, or a usage error. */
export function positionals(args: ParsedArgs, names: readonly string[], optional = 0): string[] {
  const required = names.length - optional;
  if (args.positionals.length < required) throw usage(`missing <${names[args.positionals.length]}>`);
  if (args.positionals.length > names.length) throw usage(`unexpected argument ${args.positionals[names.length]}`);
  return args.positionals;
}
