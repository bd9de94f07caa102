import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * The body of a feature's plugin when all it does is register the feature's route plugins: each in
 * the order given, with the feature's options, encapsulated in its own child plugin (no hook leaks
 * out). The feature's `index.ts` wraps it with `fastify-plugin`, which names the plugin and its
 * dependencies: `fp(routePlugins(projectRoutes), { name: 'tmt-projects', fastify: '5.x', dependencies: [] })`.
 */
export function routePlugins<O extends FastifyPluginOptions>(...routes: FastifyPluginAsync<O>[]): FastifyPluginAsync<O> {
  return async (app, opts) => {
    for (const plugin of routes) await app.register(plugin, opts);
  };
}
