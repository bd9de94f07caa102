import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findSession, type SessionRecord } from '#projections/df-sessions/index.js';
import { requirePrincipal } from '#shared/http/principal.js';
import { sendError } from '#shared/http/errors.js';
import type { Platform } from '../../../platform.js';
import type { DataPlane } from '../../core/data-plane.js';
import { caller } from '../../http.js';
import type { ReservationGate, SessionPort } from '../../core/session-port.js';
import { WebDriverHub } from '../hub.js';
import { webdriverLogRoute } from './command-log.js';
import { dataPlaneTransport, type WebDriverTransport, type WireAnswer } from '../transport.js';
import { invalidSession, toW3c, WebDriverError } from '../w3c.js';

const tags = ['Device testing: WebDriver'];
const SessionId = z.string().min(1).max(128);
const W3C_ID = /^[A-Za-z0-9_-]{1,128}$/;
const SESSION_CACHE_MS = 1_000;

export interface WebDriverRoutesOptions {
  platform: Platform;
  sessions: SessionPort;
  /** Device bookings, when the module has them (the gate sessions pass). */
  bookings: ReservationGate | null;
  dataPlane: DataPlane;
  /** Replaces the data-plane transport (tests, benchmarks). */
  transport?: WebDriverTransport;
}

function send(reply: FastifyReply, answer: WireAnswer): FastifyReply {
  return reply.code(answer.status).header('content-type', answer.contentType).header('cache-control', 'no-cache').send(answer.body);
}

/**
 * `/df/wd`: a W3C WebDriver endpoint (docs/api-conventions.md, "Device testing"). New sessions take a device
 * (see `hub.ts`); every other command is relayed to the Appium server of the device's agent over the
 * data plane. Every failure, authentication included, answers in the W3C shape.
 */
export async function webdriverRoutes(app: FastifyInstance, opts: WebDriverRoutesOptions): Promise<void> {
  const { platform, sessions } = opts;
  const hub = new WebDriverHub({
    db: platform.db,
    kv: platform.kv,
    sessions,
    bookings: opts.bookings,
    transport: opts.transport ?? dataPlaneTransport(opts.dataPlane),
    logger: platform.logger.child({ component: 'webdriver-hub' }),
    now: platform.now,
    queueTimeoutMs: platform.config.DF_WD_QUEUE_TIMEOUT,
    idleTimeoutMs: platform.config.DF_SESSION_IDLE_TIMEOUT,
  });
  app.addHook('onClose', async () => hub.stop());

  // The command log is platform API (`/df/api`), so it answers errors the platform's way, not W3C's.
  await app.register(async (api) => {
    api.setErrorHandler((err, request, reply) => sendError(request, reply, err));
    webdriverLogRoute(api, platform, hub);
  });

  // The hooks before a route (authentication, workspace, entitlement) fail through this handler too.
  app.setErrorHandler((err, request, reply) => {
    const { status, body, internal } = toW3c(err);
    if (internal) request.log.error({ err }, 'WebDriver request failed');
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
  // WebDriver clients send `{}` or nothing at all with commands that take no parameters.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const source = String(text).trim();
    if (source === '') return done(null, {});
    try {
      done(null, JSON.parse(source));
    } catch {
      done(new WebDriverError('invalid argument', 'The request body is not valid JSON'), undefined);
    }
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Active sessions read in the last second, per tenant: commands come in bursts, and a session ended
   * meanwhile is still refused, by the agent's data plane (the device left the session) and then here.
   */
  const recent = new Map<string, { session: SessionRecord; until: number }>();
  const lookup = async (c: { companyId: number; workspaceId: number }, id: string) => {
    const key = `${c.companyId}:${c.workspaceId}:${id}`;
    const kept = recent.get(key);
    if (kept && kept.until > Date.now()) return kept.session;
    const session = await findSession(platform.db, c, id);
    if (recent.size > 10_000) recent.clear();
    if (session?.status === 'active') recent.set(key, { session, until: Date.now() + SESSION_CACHE_MS });
    else recent.delete(key);
    return session;
  };
  const forget = (c: { companyId: number; workspaceId: number }, id: string) => recent.delete(`${c.companyId}:${c.workspaceId}:${id}`);

  /** The caller's open session, or `invalid session id` (another tenant's id included). */
  const sessionOf = async (request: FastifyRequest, id: string) => {
    const c = await caller(request, 'df:session:create');
    if (!W3C_ID.test(id)) throw invalidSession(id.slice(0, 128));
    const session = await lookup(c, id);
    if (!session) throw invalidSession(id);
    const principal = requirePrincipal(request);
    if (session.ownerId !== principal.userId && !(await request.permissions()).has('df:session:manage')) throw invalidSession(id);
    return { c, session };
  };

  r.get('/wd/status', {
    schema: { tags, summary: 'WebDriver status: whether new sessions are accepted' },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:read');
      const waiting = hub.waitingFor(c.companyId);
      return send(reply, { status: 200, contentType: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify({ value: { ready: true, waiting, message: `Device farm WebDriver hub; ${waiting} request(s) of your company waiting for a device` } })) });
    },
  });

  r.post('/wd/session', {
    schema: {
      tags,
      summary: 'New WebDriver session: takes a free matching device (waits in a queue when all are busy)',
      description:
        'W3C new session. Devices are matched by platformName, browserName ("chrome" with no platform: a browser device), appium:deviceName, appium:platformVersion, appium:udid and df:deviceId; df:build and df:name name the platform session; df:queueTimeoutSeconds shortens the wait. Answers without webSocketUrl (classic WebDriver).',
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:create');
      const left = new AbortController();
      const onClose = () => {
        if (!reply.sent) left.abort();
      };
      request.raw.once('close', onClose);
      reply.raw.once('close', onClose);
      try {
        return send(reply, await hub.newSession(c, request.body, left.signal));
      } finally {
        request.raw.off('close', onClose);
        reply.raw.off('close', onClose);
      }
    },
  });

  r.delete('/wd/session/:sessionId', {
    schema: { tags, summary: 'Delete a WebDriver session: ends the platform session and frees the device', params: z.object({ sessionId: SessionId }) },
    handler: async (request, reply) => {
      const { c, session } = await sessionOf(request, request.params.sessionId);
      forget(c, session.id);
      return send(reply, await hub.deleteSession(c, session));
    },
  });

  r.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/wd/session/:sessionId/*',
    schema: { tags, summary: 'A WebDriver command of a session, relayed to the device (see the hub policy)', params: z.object({ sessionId: SessionId, '*': z.string().max(2_000) }) },
    handler: async (request, reply) => {
      const { c, session } = await sessionOf(request, request.params.sessionId);
      const rest = `/${request.params['*']}`.replace(/\/+$/, '');
      const permissions = await request.permissions();
      try {
        return send(reply, await hub.command(c, session, request.method, rest, request.body, async (p) => permissions.has(p)));
      } catch (err) {
        if (err instanceof WebDriverError && err.error === 'invalid session id') forget(c, session.id);
        throw err;
      }
    },
  });

  r.route({
    method: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'],
    url: '/wd/*',
    schema: { tags, summary: 'Anything else under /df/wd: W3C "unknown command"', params: z.object({ '*': z.string().max(2_000) }) },
    handler: async (request) => {
      throw new WebDriverError('unknown command', `${request.method} /df/wd/${request.params['*']} is not a WebDriver command of this hub`);
    },
  });
}
