import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OPERATION_STATES } from '#events/df/operations.js';
import { operationView } from '#projections/df-operations/index.js';
import { caller, idParam } from '../http.js';
import type { OperationService } from './service.js';

const Operation = z
  .object({
    id: z.string(),
    type: z.string(),
    state: z.enum(OPERATION_STATES).describe('pending → running → succeeded | failed | cancelled; the last three are final'),
    progress: z.number().int().min(0).max(100),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DfOperation' });

/** `GET /df/api/operations/{operationId}`: poll a long-running operation of the workspace (`df:session:read`). */
export async function operationRoutes(app: FastifyInstance, opts: { operations: OperationService }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/operations/:operationId', {
    schema: { tags: ['Device testing: operations'], summary: 'Poll a long-running operation until its state is final', params: z.object({ operationId: idParam }), response: { 200: Operation } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:read');
      const op = await opts.operations.get(c, request.params.operationId);
      reply.header('cache-control', 'no-store');
      return operationView(op);
    },
  });
}
