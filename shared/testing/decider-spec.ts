import { expect } from 'vitest';
import { batchDecider, type CommandOf, type Decider, type DomainEvent } from '../es/index.js';
import { AppError, type ErrorCode } from '../errors.js';

/**
 * Given / when / then for a decider, without I/O: `given` past events, `when` a command, `then` the
 * new events or the error code the command must be refused with; `whenBatch` a list of commands.
 */
export function deciderSpec<C, E extends DomainEvent, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: C) {
          return outcome(() => decider.decide(command, state));
        },
        /** A batch, as an aggregate runs it in one append: each command decided on the state the ones before it left. */
        whenBatch(commands: readonly CommandOf<C, S>[]) {
          return outcome(() => batchDecider(decider).decide(commands, state));
        },
      };
    },
  };
}

/** Then: the events a decision returns, or the error code it is refused with. */
function outcome<E>(run: () => E[]) {
  return {
    then(expected: E[]) {
      expect(run()).toEqual(expected);
    },
    thenRefused(code: ErrorCode) {
      let error: unknown;
      try {
        run();
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(code);
    },
  };
}
