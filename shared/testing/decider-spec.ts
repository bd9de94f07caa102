import { expect } from 'vitest';
import type { Decider, DomainEvent } from '../es/index.js';
import { AppError, type ErrorCode } from '../errors.js';

/**
 * Given / when / then for a decider, without I/O: `given` past events, `when` a command, `then` the
 * new events or the error code the command must be refused with.
 */
export function deciderSpec<C, E extends DomainEvent, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
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
        },
      };
    },
  };
}
