import type { Api } from './api.js';
import type { FlagSpec, ParsedArgs } from './args.js';

/** What a command's `run` gets: its parsed arguments and the API, created on first use. */
export interface Context {
  args: ParsedArgs;
  json: boolean;
  api(): Api;
}

export interface Command {
  name: string;
  /** One line for `dfctl help`. */
  summary: string;
  /** The synopsis and the options, for `dfctl help <command>`. */
  usage: string;
  flags: FlagSpec;
  /** Resolves with the exit code (0 when it returns nothing). */
  run(ctx: Context): Promise<number | void>;
}
