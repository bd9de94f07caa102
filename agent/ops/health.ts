import { handlers } from './types.js';

/** Health: a reading now (the worker also reads on its own schedule and at each session's end). */
export const healthOps = handlers({
  health: { needs: { any: ['readHealth'], what: 'health readings' }, run: ({ driver }) => driver.readHealth!() },
});
