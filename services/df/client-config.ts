import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const ClientConfig = z
  .object({
    apiBasePath: z.string(),
    webDriverPath: z.string(),
    viewerSocketPath: z.string(),
    devtoolsPath: z.string(),
    debugTunnelPath: z.string(),
    workspaceId: z.number().int(),
    sessionIdleTimeoutSeconds: z.number().int(),
  })
  .meta({ id: 'DfClientConfig' });

/** `GET /df/api/client-config`: where clients of the device module find its endpoints. */
export async function clientConfigRoutes(app: FastifyInstance, opts: { sessionIdleTimeoutSeconds: number }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/client-config', {
    schema: { tags: ['Device testing'], summary: 'Client configuration of the device module', response: { 200: ClientConfig } },
    handler: async (request) => ({
      apiBasePath: '/df/api',
      webDriverPath: '/df/wd',
      viewerSocketPath: '/df/ws',
      devtoolsPath: '/df/devtools',
      debugTunnelPath: '/df/debug-tunnel',
      workspaceId: request.workspace!.id,
      sessionIdleTimeoutSeconds: opts.sessionIdleTimeoutSeconds,
    }),
  });
}
