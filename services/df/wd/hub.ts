import type { Logger } from 'pino';
import { findDevice, listDevices, type DeviceView } from '#projections/df-devices/index.js';
import type { SessionRecord, SessionView } from '#projections/df-sessions/index.js';
import type { Database } from '#shared/db/index.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import type { Caller } from '../http.js';
import type { ReservationGate, SessionPort } from '../core/session-port.js';
import { heldReason, usableDevices } from '../core/device-health.js';
import { matchesAny, parseNewSession, type NewSessionRequest } from './capabilities.js';
import { decide, REWRITERS } from './policy.js';
import { DeviceQueue } from './queue.js';
import { CommandsInFlight } from './in-flight.js';
import type { WebDriverTransport, WireAnswer } from './transport.js';
import { invalidSession, isAppError, WebDriverError } from './w3c.js';
import { argumentsOf, commandOf, metricNameOf, outcomeOf, type CommandEntry, type Outcome } from './command-log.js';
import { qaMetrics } from '#shared/metrics/index.js';
import { unreachable } from '#shared/unreachable.js';
import type { ActivityKind, SessionEndReason } from '#events/df/sessions.js';

/** Where a hub session's Appium session id is kept, so every replica can relay its commands. */
const mappingKey = (sessionId: string) => `df:wd:${sessionId}`;
const MAPPING_TTL_MS = 7 * 86_400_000;
const CANDIDATE_LIMIT = 200;
/** Command log entries wait at most this long to be written (one append for a burst of commands); a burst this long is written at once. */
const LOG_FLUSH_MS = 200;
const LOG_BATCH = 100;
/** Device failures that mean "try the next device" while taking one. */
const TAKEN = ['DEVICE_BUSY', 'DEVICE_UNAVAILABLE', 'DEVICE_OFFLINE', 'NOT_FOUND', 'DEVICE_RESERVED', 'DEVICE_UNHEALTHY', 'DEVICE_MENDING'];

export interface WebDriverHubDeps {
  db: Database;
  kv: KeyValueStore;
  sessions: SessionPort;
  /** Device bookings, when the module has them: a request for booked devices only is refused at once. */
  bookings: ReservationGate | null;
  transport: WebDriverTransport;
  logger: Logger;
  now: () => Date;
  queueTimeoutMs: number;
  idleTimeoutMs: number;
}

interface Acquired {
  session: SessionView;
  caller: Caller;
  /** The taken device's platform, which names the platform when its WebDriver server does not. */
  platform: DeviceView['platform'];
}

/** `platformName` of a device whose WebDriver server answers none (an attached chromedriver's `""`): browsers run on Linux hosts. */
const PLATFORM_NAMES: Record<string, string> = { web: 'linux', android: 'android', ios: 'ios' };

/** Command log entries of a session not yet on its timeline, and the write under way. */
interface PendingLog {
  session: Pick<SessionRecord, 'id'>;
  caller: Caller;
  entries: { kind: ActivityKind; detail: Record<string, unknown> }[];
  timer: NodeJS.Timeout | null;
  writing: Promise<void>;
}

const json = (value: unknown): WireAnswer => ({ status: 200, contentType: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(value)) });

/**
 * The WebDriver hub behind `/df/wd`: a new session takes a free matching device of the caller's
 * company (waiting in a FIFO queue when none is free), opens a platform session of type
 * `automation`, and creates the WebDriver session on the Appium server of the device's agent. The hub
 * session id is the platform session id; the Appium id never leaves the hub. Every command is
 * checked against the policy and relayed with the ids swapped.
 */
export class WebDriverHub {
  private readonly queue = new DeviceQueue<Acquired>();
  /** Hub (platform) session id → Appium session id. */
  private readonly appiumIds = new Map<string, string>();
  /** Command log entries waiting to be written, per session. */
  private readonly logs = new Map<string, PendingLog>();
  private readonly inFlight = new CommandsInFlight();
  private readonly touchEveryMs: number;

  constructor(private readonly deps: WebDriverHubDeps) {
    this.touchEveryMs = Math.max(1_000, Math.min(60_000, Math.floor(deps.idleTimeoutMs / 10)));
    this.queue.onAbandoned = (acquired) => void this.endPlatformSession(acquired.session.id, acquired.caller, 'webdriver-request-abandoned');
    deps.sessions.holders?.addSource(() => this.inFlight.live());
  }

  /** Requests of a company waiting for a device. */
  waitingFor(companyId: number): number {
    return this.queue.size(companyId);
  }

  async stop(): Promise<void> {
    await this.queue.stop();
    await Promise.all([...this.logs.keys()].map((id) => this.flushLog(id)));
  }

  /** `POST /session`: takes a device (waiting if needed), opens the sessions, answers W3C. */
  async newSession(caller: Caller, body: unknown, signal?: AbortSignal): Promise<WireAnswer> {
    const request = parseNewSession(body);
    const candidates = await this.candidates(caller, request);
    if (candidates.length === 0) {
      throw new WebDriverError('session not created', 'No device of this workspace matches the requested capabilities');
    }
    await this.refuseReserved(caller, request, candidates);
    this.refuseHeld(candidates);
    const timeoutMs = request.queueTimeoutMs ?? this.deps.queueTimeoutMs;
    const acquired = await this.queue.wait(caller.companyId, () => this.take(caller, request), {
      timeoutMs,
      signal,
      onTimeout: () =>
        new WebDriverError(
          'session not created',
          `No matching device became free within ${Math.round(timeoutMs / 1000)} s (${candidates.length} device(s) match; all busy). Retry later or raise df:queueTimeoutSeconds.`,
        ),
    }).catch((err: unknown) => {
      if (err instanceof WebDriverError) throw err;
      if (isAppError(err)) throw new WebDriverError('session not created', `The device could not be prepared: ${err.message}`, 500, err.code);
      throw err;
    });
    const { session } = acquired;
    let answer: WireAnswer;
    // Starting Appium and its driver can take a while; that is activity, not idleness.
    const keepAlive = setInterval(
      () => void this.deps.sessions.recordActivity(session, caller, 'lifecycle', { event: 'webdriver-session-starting' }).catch(() => undefined),
      this.touchEveryMs,
    );
    try {
      answer = await this.deps.transport.send(session.id, 'POST', '/session', JSON.stringify(request.forwarded));
    } catch (err) {
      await this.endPlatformSession(session.id, caller, 'webdriver-session-failed');
      throw new WebDriverError('session not created', `The device's WebDriver server is not reachable: ${(err as Error).message}`);
    } finally {
      clearInterval(keepAlive);
    }
    const parsed = this.parse(answer);
    const appiumId = (parsed as { value?: { sessionId?: unknown } } | null)?.value?.sessionId;
    if (answer.status !== 200 || typeof appiumId !== 'string') {
      await this.endPlatformSession(session.id, caller, 'webdriver-session-failed');
      const message = (parsed as { value?: { message?: unknown } } | null)?.value?.message;
      throw new WebDriverError('session not created', `The device's WebDriver server refused the session: ${typeof message === 'string' ? message.slice(0, 2_000) : `HTTP ${answer.status}`}`);
    }
    this.appiumIds.set(session.id, appiumId);
    await Promise.all([this.deps.kv.set(mappingKey(session.id), appiumId, { ttlMs: MAPPING_TTL_MS }), this.deps.sessions.holders?.claim(session.id, 'webdriver')]);
    const value = (parsed as { value: { capabilities?: Record<string, unknown> } }).value;
    const capabilities = { ...(value.capabilities ?? {}) };
    // BiDi is not relayed: without webSocketUrl the client stays on classic WebDriver.
    delete capabilities.webSocketUrl;
    if (typeof capabilities.platformName !== 'string' || capabilities.platformName === '') capabilities.platformName = PLATFORM_NAMES[acquired.platform] ?? acquired.platform;
    void this.deps.sessions
      .recordActivity(session, caller, 'lifecycle', {
        event: 'webdriver-session-created',
        browserName: capabilities.browserName ?? null,
        platformName: capabilities.platformName ?? null,
        automationName: capabilities['appium:automationName'] ?? capabilities.automationName ?? null,
      })
      .catch((err: unknown) => this.deps.logger.debug({ err, sessionId: session.id }, 'recording the WebDriver start failed'));
    return json({ value: { ...value, capabilities, sessionId: session.id } });
  }

  /** Free devices first; every visible device that matches, whatever its state, decides "could ever match". */
  private async candidates(caller: Caller, request: NewSessionRequest): Promise<DeviceView[]> {
    const ids = [...new Set(request.requirements.map((r) => r.deviceId).filter((id): id is string => id !== null))];
    let devices: DeviceView[];
    if (ids.length > 0 && request.requirements.every((r) => r.deviceId)) {
      devices = (await Promise.all(ids.map((id) => findDevice(this.deps.db, this.deps.sessions.deviceScope(caller), id)))).filter((d): d is DeviceView => d !== null);
    } else {
      const platforms = request.requirements.every((r) => r.platform) ? [...new Set(request.requirements.map((r) => r.platform!))] : undefined;
      const page = await listDevices(this.deps.db, this.deps.sessions.deviceScope(caller), platforms ? { platform: platforms } : {}, { page: 0, size: CANDIDATE_LIMIT, sortBy: 'name', sortDir: 'asc' });
      devices = page.content;
    }
    return devices.filter((d) => matchesAny(d, request));
  }

  /**
   * A request naming its devices (`df:deviceId`) that are all booked by someone else now is answered at
   * once, naming the booking, instead of waiting in the queue for the booking to end.
   */
  private async refuseReserved(caller: Caller, request: NewSessionRequest, candidates: DeviceView[]): Promise<void> {
    const gate = this.deps.bookings;
    if (!gate || !request.requirements.every((r) => r.deviceId)) return;
    const blocked = await Promise.all(candidates.map(async (d) => ({ device: d, booking: await gate.blocking(caller, d.id) })));
    if (!blocked.every((b) => b.booking)) return;
    const first = blocked[0]!;
    throw new WebDriverError(
      'session not created',
      `Device ${first.device.id} is reserved by another user from ${first.booking!.startAt} to ${first.booking!.endAt} (reservation ${first.booking!.reservationId}); pick another device or wait for the reservation to end`,
      undefined,
      'DEVICE_RESERVED',
    );
  }

  /**
   * Every matching device held by its health (the shared rule, `usableDevices`): answered at once with
   * the reason, not queued for a device that may not recover in time.
   */
  private refuseHeld(candidates: DeviceView[]): void {
    try {
      usableDevices(candidates);
    } catch (err) {
      if (isAppError(err, 'DEVICE_UNHEALTHY')) throw new WebDriverError('session not created', err.message, undefined, 'DEVICE_UNHEALTHY');
      throw err;
    }
  }

  /** One attempt to take a free matching device (never one booked by someone else): a started platform session, or null. */
  private async take(caller: Caller, request: NewSessionRequest): Promise<Acquired | null> {
    const free = (await this.candidates(caller, request)).filter((d) => d.status === 'available' && heldReason(d) === null);
    for (const device of free) {
      try {
        const session = await this.deps.sessions.create(caller, {
          deviceId: device.id,
          type: 'automation',
          name: request.name ?? undefined,
          buildName: request.build ?? undefined,
          record: request.record ?? undefined,
        });
        return { session, caller, platform: device.platform };
      } catch (err) {
        if (isAppError(err, ...TAKEN)) continue;
        throw err;
      }
    }
    return null;
  }

  /** The Appium id of an open hub session of the caller, or `invalid session id`. */
  private async appiumIdOf(session: SessionRecord): Promise<string> {
    if (session.status !== 'active') throw invalidSession(session.id, `has ended (${session.endReason ?? session.status})`);
    const known = this.appiumIds.get(session.id) ?? (await this.deps.kv.get(mappingKey(session.id)));
    if (!known) throw invalidSession(session.id, 'is not a WebDriver session');
    this.appiumIds.set(session.id, known);
    return known;
  }

  /**
   * One command of a session (`rest` is the path after `/session/{id}`), checked against the policy and
   * relayed; `may(permission)` tells whether the caller holds a permission. Every command, refused or
   * relayed, goes into the session's command log (its timeline), with its duration and outcome.
   */
  async command(caller: Caller, session: SessionRecord, method: string, rest: string, body: unknown, may: (permission: string) => Promise<boolean>): Promise<WireAnswer> {
    const appiumId = await this.appiumIdOf(session).catch((err: unknown) => {
      this.dropLog(session.id);
      throw err;
    });
    const startedAt = this.deps.now();
    const started = performance.now();
    const named = commandOf(method, rest);
    const log = (outcome: Outcome) => {
      qaMetrics.webdriverCommandDuration.observe({ command: metricNameOf(named.command), outcome: outcome.outcome }, (performance.now() - started) / 1000);
      this.log(session, caller, {
        source: 'webdriver',
        command: named.command,
        method,
        path: named.path,
        element: named.element,
        args: argumentsOf(named.command, body),
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - started),
        ...outcome,
      });
    };
    const refuse = (err: WebDriverError): never => {
      log({ outcome: 'error', status: err.status, error: err.error, message: err.message });
      throw err;
    };
    const rule = decide(method, rest);
    let payload = body;
    switch (rule.then.action) {
      case 'allow':
        break;
      case 'block':
        return refuse(new WebDriverError('unknown command', `${method} /session/{id}${rest} is not available through the hub: it ${rule.then.reason}`));
      case 'require':
        if (!(await may(rule.then.permission))) {
          return refuse(new WebDriverError('unsupported operation', `${method} /session/{id}${rest} ${rule.then.reason} and needs the ${rule.then.permission} permission`, 403, 'FORBIDDEN'));
        }
        break;
      case 'rewrite': {
        const rewritten = REWRITERS[rule.then.rewriter]((typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>);
        if ('refuse' in rewritten && typeof rewritten.refuse === 'string') return refuse(new WebDriverError('unsupported operation', rewritten.refuse, 403, 'FORBIDDEN'));
        payload = rewritten;
        break;
      }
      default:
        return unreachable(rule.then, 'policy action');
    }
    const text = payload === undefined || method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(payload).replaceAll(session.id, appiumId);
    let answer: WireAnswer;
    try {
      answer = await this.inFlight.around(session.id, () => this.deps.transport.send(session.id, method, `/session/${encodeURIComponent(appiumId)}${rest}`, text));
    } catch (err) {
      if (isAppError(err, 'SESSION_NOT_ACTIVE', 'NOT_FOUND')) {
        this.dropLog(session.id);
        throw invalidSession(session.id, 'has ended');
      }
      log({ outcome: 'error', status: 502, error: 'unknown error', message: `The device could not be reached: ${(err as Error).message}`.slice(0, 500) });
      throw err;
    }
    if (answer.status === 403 && !(await this.deps.sessions.isOpen(session.id))) {
      this.dropLog(session.id);
      throw invalidSession(session.id, 'has ended');
    }
    log(outcomeOf(named.command, answer));
    return { ...answer, body: answer.body.includes(appiumId) ? Buffer.from(answer.body.toString('utf8').replaceAll(appiumId, session.id)) : answer.body };
  }

  /** `DELETE /session/{id}`: the Appium session, then the platform session; the device is free again. */
  async deleteSession(caller: Caller, session: SessionRecord): Promise<WireAnswer> {
    const appiumId = await this.appiumIdOf(session);
    // The command log reaches the timeline before the session ends (an ended session records nothing).
    await this.flushLog(session.id);
    await this.deps.transport.send(session.id, 'DELETE', `/session/${encodeURIComponent(appiumId)}`).catch((err: unknown) =>
      this.deps.logger.info({ err: (err as Error).message, sessionId: session.id }, 'the Appium session could not be deleted; the device release ends it'),
    );
    await this.endPlatformSession(session.id, caller, 'webdriver-session-deleted');
    return json({ value: null });
  }

  private async endPlatformSession(sessionId: string, caller: Partial<Caller>, reason: SessionEndReason): Promise<void> {
    await this.flushLog(sessionId);
    this.dropLog(sessionId);
    this.appiumIds.delete(sessionId);
    this.deps.transport.forget(sessionId);
    await this.deps.kv.delete(mappingKey(sessionId)).catch(() => false);
    try {
      const session = await this.deps.sessions.get({ companyId: caller.companyId!, workspaceId: caller.workspaceId! }, sessionId);
      await this.deps.sessions.end(session, reason, caller.userId ?? 'system');
    } catch (err) {
      this.deps.logger.warn({ err, sessionId }, 'ending the platform session of a WebDriver session failed');
    } finally {
      this.queue.notify(caller.companyId);
    }
  }

  /**
   * Puts one command on the session's timeline: navigations as `navigation` entries (`via: webdriver`),
   * every other command as a `custom` entry (`source: webdriver`). Entries are written in bursts, one
   * append at most every `LOG_FLUSH_MS` (or every `LOG_BATCH` commands), in the background and in
   * order; each is activity, so a driven session never idles out.
   */
  private log(session: Pick<SessionRecord, 'id'>, caller: Caller, entry: CommandEntry): void {
    let pending = this.logs.get(session.id);
    if (!pending) {
      pending = { session: { id: session.id }, caller, entries: [], timer: null, writing: Promise.resolve() };
      this.logs.set(session.id, pending);
    }
    pending.caller = caller;
    const navigation = entry.command === 'navigateTo';
    const detail: Record<string, unknown> = navigation ? { via: 'webdriver', url: entry.args?.url ?? null, ...entry } : { ...entry };
    pending.entries.push({ kind: navigation ? 'navigation' : 'custom', detail });
    if (pending.entries.length >= LOG_BATCH) void this.flushLog(session.id);
    else if (!pending.timer) {
      pending.timer = setTimeout(() => void this.flushLog(session.id), LOG_FLUSH_MS);
      pending.timer.unref();
    }
  }

  /** Writes a session's waiting log entries (after any write under way); resolves when they are written or failed. */
  private flushLog(sessionId: string): Promise<void> {
    const pending = this.logs.get(sessionId);
    if (!pending) return Promise.resolve();
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = null;
    const batch = pending.entries.splice(0);
    if (batch.length === 0) return pending.writing;
    const writing: Promise<void> = pending.writing
      .then(() => this.deps.sessions.recordActivities(pending.session, pending.caller, batch))
      .then(
        () => undefined,
        (err: unknown) => this.deps.logger.debug({ err: (err as Error).message, sessionId, entries: batch.length }, 'recording WebDriver commands failed'),
      )
      .finally(() => {
        // Nothing more to write: forget the session until its next command.
        if (pending.writing === writing && pending.entries.length === 0 && !pending.timer && this.logs.get(sessionId) === pending) this.logs.delete(sessionId);
      });
    pending.writing = writing;
    return writing;
  }

  /** Resolves once every command this replica relayed for the session is on its timeline. */
  logWritten(sessionId: string): Promise<void> {
    return this.flushLog(sessionId);
  }

  /** Forgets what a session had waiting and its commands (it has ended: nothing more can be recorded, no client vouched for). */
  private dropLog(sessionId: string): void {
    this.inFlight.forget(sessionId);
    const pending = this.logs.get(sessionId);
    if (pending?.timer) clearTimeout(pending.timer);
    this.logs.delete(sessionId);
  }

  private parse(answer: WireAnswer): unknown {
    try {
      return JSON.parse(answer.body.toString('utf8'));
    } catch {
      return null;
    }
  }
}
