import { handlers } from './types.js';

/** The screen: still pictures, and the live stream leased by its viewers. */
export const screenOps = handlers({
  screenshot: {
    run: async ({ driver }, command) => {
      const shot = await driver.screenshot(command.format, command.quality);
      return { contentType: shot.contentType, base64: shot.data.toString('base64'), width: shot.width, height: shot.height };
    },
  },
  screencast: { run: ({ screencast }, command) => screencast.lease(command) },
  stopScreencast: { run: ({ screencast }, command) => screencast.stop(command.consumerId) },
});
