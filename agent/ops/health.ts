import { handlers } from './types.js';

/**
 * Health: a reading now (the worker also reads on its own schedule and at each session's end); an
 * administrator's re-take of the device's settings baseline, outside any session; the recorded baseline
 * given back as the device joins, in any state (a session's end then restores it).
 */
export const healthOps = handlers({
  health: { needs: { any: ['readHealth'], what: 'health readings' }, run: ({ driver }) => driver.readHealth!() },
  retakeBaseline: { needs: { any: ['retakeBaseline'], what: 'a settings baseline' }, outsideSession: true, run: ({ driver }) => driver.retakeBaseline!() },
  setBaseline: { needs: { any: ['setBaseline'], what: 'a settings baseline' }, anyState: true, run: ({ driver }, command) => driver.setBaseline!(command.settings) },
});
