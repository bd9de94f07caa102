import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { RESULT_STATUSES, SESSION_STATUSES } from '#events/tmt/test-sessions.js';
import { ok, tmtCaller, uuid, UuidParams, v1One } from '../http.js';
import type { JunitImportService } from './service.js';

const tags = ['Test management: test sessions'];
/** The largest report accepted, as the XML body or as the multipart file. */
export const MAX_JUNIT_BYTES = 10 * 1024 * 1024;
const FILE_FIELD = 'file';
const XML_TYPES = ['application/xml', 'text/xml'];

const JunitImport = z
  .object({
    testSessionId: z.string(),
    sessionStatus: z.enum(SESSION_STATUSES).describe('The status of the session after the import: completed with close=true'),
    matched: z.number().int().describe('Testcases recorded on a test case the project already had'),
    created: z.number().int().describe('Testcases recorded on a test case this import created'),
    skipped: z.number().int().describe('Testcases recorded as skipped'),
    results: z.array(
      z.object({
        classname: z.string(),
        name: z.string(),
        title: z.string().describe("The test's name: the title of the test case it was recorded on"),
        testCaseId: z.string(),
        testCase: z.enum(['matched', 'created']),
        status: z.enum(['passed', 'failed', 'error', 'skipped']).describe("The testcase's JUnit outcome"),
        recordedStatus: z.enum(RESULT_STATUSES).describe('The result recorded in the session (an error is recorded as failed)'),
        durationMs: z.number().int().nullable(),
        deviceSessionId: z.string().nullable().describe('The device session that ran the test, named by a df.session property or a replay link in system-out, when it is one of the company\'s (else null)'),
      }),
    ),
  })
  .meta({ id: 'V1JunitImport' });

const close = z
  .enum(['true', 'false'])
  .default('false')
  .describe('true: complete the session after the import, in the same append (the last shard of a CI run)');

const body = `The JUnit XML as the body (${XML_TYPES.join(' or ')}) or as the "${FILE_FIELD}" part of multipart/form-data, at most ${MAX_JUNIT_BYTES / 1024 / 1024} MiB`;

/** The report's text: the XML body, or the `file` part of a multipart body (other parts are read past). */
async function reportOf(request: FastifyRequest): Promise<string> {
  if (typeof request.body === 'string') return request.body;
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the report as ${XML_TYPES.join(' or ')}, or as multipart/form-data with a "${FILE_FIELD}" part`);
  let report: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === FILE_FIELD && report === null) report = (await part.toBuffer()).toString('utf8');
      else if (part.type === 'file') part.file.resume();
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', `The report is larger than ${MAX_JUNIT_BYTES} bytes`);
    throw err;
  }
  if (report === null) throw new AppError('VALIDATION_FAILED', `Send the report in a part named "${FILE_FIELD}"`, { details: [{ path: FILE_FIELD, message: 'Required' }] });
  return report;
}

/** `POST /v1/test-sessions/{id}/results/junit` and `POST /v1/projects/{id}/junit-imports`. */
export async function junitImportRoutes(app: FastifyInstance, opts: { imports: JunitImportService }): Promise<void> {
  const { imports } = opts;
  await app.register((await import('@fastify/multipart')).default, { limits: { fileSize: MAX_JUNIT_BYTES, files: 2, fields: 10, parts: 12 } });
  app.addContentTypeParser(XML_TYPES, { parseAs: 'string', bodyLimit: MAX_JUNIT_BYTES }, (_request, text, done) => done(null, text));
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/v1/test-sessions/:id/results/junit', {
    schema: {
      tags,
      summary: `Import a JUnit XML report into the session: each testcase is matched to the project's test case titled "<classname> › <name>" (created when missing), joins the session, and its result is recorded in one command, replacing what an earlier report recorded for the same test. ${body} (TMT_WRITE)`,
      consumes: [...XML_TYPES, 'multipart/form-data'],
      params: UuidParams,
      querystring: z.object({ close }),
      response: { 201: v1One(JunitImport) },
    },
    bodyLimit: MAX_JUNIT_BYTES,
    handler: async (request, reply) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const answer = await imports.intoSession(scope, request.params.id, await reportOf(request), { close: request.query.close === 'true' });
      request.log.info({ testSessionId: answer.testSessionId, sessionStatus: answer.sessionStatus, matched: answer.matched, created: answer.created, skipped: answer.skipped }, 'junit report imported');
      return reply.code(201).send(ok(answer));
    },
  });

  r.post('/v1/projects/:id/junit-imports', {
    schema: {
      tags,
      summary: `Import a JUnit XML report into the project: into a new session (named by ?name=, else "JUnit import <time>"), or with ?testSessionId= into that open session of the project (one shard of a CI run); matching and creating test cases as the session import does. ${body} (TMT_WRITE)`,
      consumes: [...XML_TYPES, 'multipart/form-data'],
      params: UuidParams,
      querystring: z.object({
        name: z.string().trim().min(1).max(200).optional().describe('The name of the new session (not used with testSessionId)'),
        testSessionId: uuid.optional().describe('An open session of the project to add the results to; a report imported again replaces its earlier results for the same tests'),
        close,
      }),
      response: { 201: v1One(JunitImport) },
    },
    bodyLimit: MAX_JUNIT_BYTES,
    handler: async (request, reply) => {
      const scope = await tmtCaller(request, 'TMT_WRITE');
      const { name, testSessionId } = request.query;
      const answer = await imports.intoProject(scope, request.params.id, await reportOf(request), { name, testSessionId }, { close: request.query.close === 'true' });
      request.log.info({ testSessionId: answer.testSessionId, sessionStatus: answer.sessionStatus, matched: answer.matched, created: answer.created, skipped: answer.skipped }, 'junit report imported');
      return reply.code(201).send(ok(answer));
    },
  });
}
