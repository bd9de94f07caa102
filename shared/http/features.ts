import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/** One feature of a module and the options it is registered with. */
export type FeatureEntry = readonly [FastifyPluginAsync<any>, FastifyPluginOptions];

/** A feature's plugin with its options, checked against each other. */
export const feature = <O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O>, options: O): FeatureEntry => [plugin, options];

/** Registers a module's features in order: a feature's `dependencies` name features listed before it. */
export async function registerFeatures(app: FastifyInstance, features: readonly FeatureEntry[]): Promise<void> {
  for (const [plugin, options] of features) await app.register(plugin, options);
}
