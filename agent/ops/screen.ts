import { handlers } from './types.js';

/** The screen: still pictures, the live stream leased by its viewers, and the session's video. */
export const screenOps = handlers({
  screenshot: {
    run: async ({ driver }, command) => {
      const shot = await driver.screenshot(command.format, command.quality);
      return { contentType: shot.contentType, base64: shot.data.toString('base64'), width: shot.width, height: shot.height };
    },
  },
  screencast: { run: ({ screencast }, command) => screencast.lease(command) },
  stopScreencast: { run: ({ screencast }, command) => screencast.stop(command.consumerId) },
  startVideo: { run: ({ video }, command) => video.start(command.recordingId, command.startedAt) },
  stopVideo: { run: ({ video }, command) => video.stop(command.recordingId) },
});
