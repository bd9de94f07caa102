import type { FastifyInstance, RouteOptions, preValidationHookHandler } from 'fastify';
import { AppError } from '../errors.js';

/** What a route does with a request that carries no body (docs/api-conventions.md, "Request bodies"). */
export type AbsentBody = 'empty-object' | 'as-is' | 'refused';

interface Parses {
  safeParse(value: unknown): { success: boolean };
}

function accepts(schema: Parses, value: unknown): boolean {
  try {
    return schema.safeParse(value).success;
  } catch {
    // An asynchronous refinement cannot be tried synchronously: such a schema decides at validation.
    return false;
  }
}

/**
 * How a body schema treats an absent body: a body whose fields are all optional is an empty action, so
 * no body stands for `{}`; a schema that takes no body itself (`.optional()`, `.nullable()` alone) keeps
 * it; any other body is required.
 */
export function absentBodyOf(schema: unknown): AbsentBody | null {
  if (!schema || typeof (schema as Partial<Parses>).safeParse !== 'function') return null;
  const parses = schema as Parses;
  if (accepts(parses, {})) return 'empty-object';
  if (accepts(parses, undefined) || accepts(parses, null)) return 'as-is';
  return 'refused';
}

/** The answer to a request without the body its route requires: a validation error naming the body. */
export function bodyRequired(): AppError {
  return new AppError('VALIDATION_FAILED', 'Request body is required', {
    details: [{ path: 'body', message: 'A JSON body is required for this operation' }],
  });
}

/**
 * No body at all, and an empty one sent as `application/json`, are the same absent body: an operation
 * whose body fields are all optional takes it as `{}` (`POST .../rejoin` with nothing to say), an
 * operation that needs a body refuses it with 400 `VALIDATION_FAILED` naming `body`. One JSON parser and
 * one hook per route with a body schema, so no route has to remember it.
 */
export function installAbsentBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) done(null, undefined);
    else parseJson(request, body as string, done);
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const mode = absentBodyOf((route.schema as { body?: unknown } | undefined)?.body);
    if (mode === null || mode === 'as-is') return;
    const hook: preValidationHookHandler = (request, _reply, done) => {
      if (request.body !== undefined && request.body !== null) return done();
      if (mode === 'refused') return done(bodyRequired());
      request.body = {};
      done();
    };
    const own = route.preValidation;
    route.preValidation = own === undefined ? [hook] : [hook, ...[own].flat()];
  });
}
