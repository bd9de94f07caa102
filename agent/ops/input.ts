import { handlers } from './types.js';

/** Driving the device: taps, swipes, text, keys, rotation, opening a URL. */
export const inputOps = handlers({
  control: { run: ({ driver }, command) => driver.control(command.action) },
});
