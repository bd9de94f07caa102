import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { createHttpServer } from './server.js';

// An error answer is never turned into a 500 by the response schema of its route: a route that
// documents an error format of its own keeps it, and an error body its schema does not describe is
// still sent with its status (docs/api-conventions.md, "Errors").
const logged: unknown[] = [];
const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
let app: Awaited<ReturnType<typeof createHttpServer>>;

const Special = z.object({ error: z.literal('special'), error_description: z.string() });

beforeAll(async () => {
  app = await createHttpServer({ logger, bodyLimit: 1024 });
  app.get('/mismatch', { schema: { response: { 200: z.object({ ok: z.boolean() }), 400: Special } } }, async () => {
    throw new AppError('INVALID_INPUT', 'bad text');
  });
  app.get('/own-format', { schema: { response: { 200: z.object({ ok: z.boolean() }), '4XX': Special } } }, async (_request, reply) =>
    reply.code(409).send({ error: 'special', error_description: 'kept', dropped: true }),
  );
  app.get('/ok', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: 'not a boolean' }) as never);
  await app.ready();
});
afterAll(() => app.close());

describe('error answers and response schemas', () => {
  it('sends an error body its route schema does not describe with its own status, and logs the mismatch', async () => {
    const res = await app.inject({ method: 'GET', url: '/mismatch' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, code: 'INVALID_INPUT', message: 'bad text' });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'error answer does not match its documented schema', url: '/mismatch', status: '400' }));
  });

  it("keeps a route's own 4XX schema instead of the platform's", async () => {
    const res = await app.inject({ method: 'GET', url: '/own-format' });
    expect(res.statusCode).toBe(409);
    // Serialised by the route's schema (unknown keys dropped), not the platform's ErrorResponse.
    expect(res.json()).toEqual({ error: 'special', error_description: 'kept' });
  });

  it('still refuses a success answer that breaks its schema (a bug of the platform, a 500)', async () => {
    expect((await app.inject({ method: 'GET', url: '/ok' })).statusCode).toBe(500);
  });
});
