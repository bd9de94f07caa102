import fp from 'fastify-plugin';
import { webdriverRoutes, type WebDriverRoutesOptions } from './routes/index.js';

/** `/df/wd`: the W3C WebDriver hub, and the command log of its sessions. */
export const wdFeature = fp(
  async (app, opts: WebDriverRoutesOptions) => {
    await app.register(webdriverRoutes, opts);
  },
  { name: 'df-wd', dependencies: [], fastify: '5.x' },
);

export type { WebDriverRoutesOptions as WdFeatureOptions } from './routes/index.js';
export { sessionCommandLog, type CommandLogEntry } from './command-log-read.js';
