import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions } from 'fastify';

/** A feature's plugin and the options it is registered with. */
export type Feature<O extends FastifyPluginOptions> = readonly [plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>, options: O];

/** One entry of a module's feature list: its options are checked against its plugin's. */
export const feature = <O extends FastifyPluginOptions>(plugin: Feature<O>[0], options: O): Feature<O> => [plugin, options];

/** Registers a module's features in the order listed (each after the features it depends on). */
export async function registerFeatures(app: FastifyInstance, features: readonly Feature<any>[]): Promise<void> {
  for (const [plugin, options] of features) await app.register(plugin, options);
}
