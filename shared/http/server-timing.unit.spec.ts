import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { timed } from '../request-context.js';
import { createHttpServer } from './server.js';

// A route's timed steps come back as its answer's Server-Timing header (docs/api-conventions.md).
let app: Awaited<ReturnType<typeof createHttpServer>>;
let release: () => void = () => undefined;
let reached: () => void = () => undefined;

beforeAll(async () => {
  app = await createHttpServer({ logger: pino({ level: 'silent' }), bodyLimit: 1024 });
  app.get('/steps', async () => {
    await timed('first', async () => undefined);
    // A step that waits until the test lets it go: its duration is at least what the test waited.
    const began = Date.now();
    await timed('second', () =>
      new Promise<void>((resolve) => {
        release = resolve;
        reached();
      }),
    );
    return { waited: Date.now() - began };
  });
  app.get('/failing', async () => {
    await timed('refused', async () => {
      throw new AppError('CONFLICT', 'no');
    });
  });
  app.get('/plain', async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

const parse = (header: unknown) =>
  String(header)
    .split(', ')
    .map((part) => {
      const [name, dur] = part.split(';dur=');
      return { name, dur: Number(dur) };
    });

describe('Server-Timing', () => {
  it('names each timed step of the request with its duration in milliseconds, in order', async () => {
    const inSecond = new Promise<void>((resolve) => (reached = resolve));
    const answer = app.inject({ method: 'GET', url: '/steps' });
    await inSecond;
    // The step lasts at least this long: what its duration must show.
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const res = await answer;
    const steps = parse(res.headers['server-timing']);
    expect(steps.map((s) => s.name)).toEqual(['first', 'second']);
    expect(steps[1]!.dur).toBeGreaterThanOrEqual(19);
    expect(steps[1]!.dur).toBeLessThanOrEqual(res.json<{ waited: number }>().waited + 1);
    expect(steps.every((s) => Number.isFinite(s.dur) && s.dur >= 0)).toBe(true);
  });

  it('records a step that failed, on the error answer too', async () => {
    const res = await app.inject({ method: 'GET', url: '/failing' });
    expect(res.statusCode).toBe(409);
    expect(parse(res.headers['server-timing']).map((s) => s.name)).toEqual(['refused']);
  });

  it('sends no header where nothing was timed, and keeps one request’s steps out of another’s', async () => {
    const [plain, steps] = await Promise.all([app.inject({ method: 'GET', url: '/plain' }), app.inject({ method: 'GET', url: '/failing' })]);
    expect(plain.headers['server-timing']).toBeUndefined();
    expect(parse(steps.headers['server-timing']).map((s) => s.name)).toEqual(['refused']);
  });
});
