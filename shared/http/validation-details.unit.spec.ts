import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installErrorHandling } from './errors.js';

const Event = z.object({ type: z.enum(['started', 'passed']), name: z.string() });
const app = Fastify().withTypeProvider<ZodTypeProvider>();

beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  app.post('/one-or-many', { schema: { body: z.union([Event, z.array(Event).min(1)]) } }, async () => ({ ok: true }));
  app.post('/by-kind', {
    schema: { body: z.discriminatedUnion('kind', [z.object({ kind: z.literal('tap'), x: z.number() }), z.object({ kind: z.literal('text'), text: z.string() })]) },
  }, async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

const detailsOf = async (url: string, payload: unknown) => {
  const res = await app.inject({ method: 'POST', url, payload: payload as object });
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('VALIDATION_FAILED');
  return res.json().details as { path: string; message: string }[];
};

describe('validation errors name the field', () => {
  it('for a union of one item or a list, names the fields of the branch the input was meant for', async () => {
    expect((await detailsOf('/one-or-many', { type: 'x' })).map((d) => d.path)).toEqual(['type', 'name']);
    expect((await detailsOf('/one-or-many', [{ type: 'passed', name: 'ok' }, { type: 'passed' }])).map((d) => d.path)).toEqual(['1.name']);
  });

  it('for a discriminated union, names the discriminator when it matches no branch, and the branch’s field otherwise', async () => {
    expect((await detailsOf('/by-kind', { kind: 'swipe' })).map((d) => d.path)).toEqual(['kind']);
    expect((await detailsOf('/by-kind', { kind: 'tap', x: 'left' })).map((d) => d.path)).toEqual(['x']);
  });
});
