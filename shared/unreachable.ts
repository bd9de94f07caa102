/**
 * The end of an exhaustive `switch` over a union (events, commands, messages): the compiler proves it
 * cannot be reached, so reaching it at run time is a bug worth stopping for.
 */
export function unreachable(value: never, what = 'case'): never {
  throw new Error(`Unhandled ${what} ${JSON.stringify(value)}`);
}
