// `GET /df/api/sessions/{id}/webdriver-log`: the WebDriver commands of a session, from its timeline.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Platform } from '../../../platform.js';
import { idParam, queryBoolean } from '../../http.js';
import { sessionContent } from '../../core/session-access.js';
import { textLine, type CommandEntry } from '../command-log.js';
import { sessionCommandLog } from '../command-log-read.js';
import type { WebDriverHub } from '../hub.js';

const tags = ['Device testing: WebDriver'];
const LogEntry = z
  .object({
    n: z.number().int().describe('Position in the log, from 1'),
    activityId: z.string().describe('The timeline entry'),
    startedAt: z.string(),
    command: z.string().describe('W3C command name (findElement, elementClick, ...), else "METHOD /path"'),
    method: z.string(),
    path: z.string().describe('Path after /session/{id}, element ids as {elementId}'),
    element: z.string().nullable().describe('The element the command acted on'),
    args: z.record(z.string(), z.unknown()).nullable().describe('What it asked: selector, URL, ...; typed text only as its length'),
    durationMs: z.number(),
    outcome: z.enum(['success', 'error']),
    status: z.number(),
    result: z.unknown().optional().describe('Found element ids, title, URL, states; never page text or typed values'),
    error: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: 'WebDriverCommand' });

/**
 * `GET /df/api/sessions/{id}/webdriver-log`: the session's WebDriver command log, as JSON or as text
 * (one line per command), to read or to download (`download=true`).
 */
export function webdriverLogRoute(app: FastifyInstance, platform: Platform, hub: WebDriverHub): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/sessions/:sessionId/webdriver-log', {
    schema: {
      tags,
      summary: 'The WebDriver command log of a session: every command with its element, duration and outcome (JSON, or text with format=text)',
      params: z.object({ sessionId: idParam }),
      querystring: z.object({
        format: z.enum(['json', 'text']).default('json'),
        download: queryBoolean.default(false).describe('Answer as an attachment to save'),
      }),
      response: {
        200: z.union([
          z.object({ sessionId: z.string(), deviceId: z.string(), status: z.string(), total: z.number().int(), failed: z.number().int(), commands: z.array(LogEntry) }).meta({ id: 'WebDriverCommandLog' }),
          z.string(),
        ]),
      },
    },
    handler: async (request, reply) => {
      const { session } = await sessionContent(platform.db, request, request.params.sessionId);
      await hub.logWritten(session.id);
      // Commands written by this or another replica reach the read model shortly after.
      const head = await platform.store.headPosition();
      await platform.readModels.waitFor(head, { names: ['df-sessions'] });
      const commands = await sessionCommandLog(platform.db, session.id);
      const failed = commands.filter((e) => e.outcome === 'error').length;
      const { format, download } = request.query;
      reply.header('cache-control', 'no-store');
      if (download) reply.header('content-disposition', `attachment; filename="webdriver-log-${session.id}.${format === 'text' ? 'txt' : 'json'}"`);
      if (format === 'text') {
        const header = [
          `WebDriver command log of session ${session.id}${session.name ? ` (${session.name})` : ''}`,
          `Device ${session.deviceName} (${session.deviceId}); session ${session.status}${session.endReason ? ` (${session.endReason})` : ''}; started ${session.startedAt}`,
          `${commands.length} command(s), ${failed} failed. Typed text is shown as its length only.`,
          '',
        ];
        reply.type('text/plain; charset=utf-8');
        return [...header, ...commands.map((e) => textLine(e.n, e as Partial<CommandEntry>)), ''].join('\n');
      }
      return { sessionId: session.id, deviceId: session.deviceId, status: session.status, total: commands.length, failed, commands };
    },
  });
}
