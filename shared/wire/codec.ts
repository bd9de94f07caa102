import type { z } from 'zod';
import type { Reply } from './messages.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A message that is not valid JSON or does not match its schema. */
export class WireError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WireError';
  }
}

/** Validates and serialises a message; a sender never puts an invalid message on the wire. */
export function encode<S extends z.ZodType>(schema: S, message: z.input<S>): Uint8Array {
  return encoder.encode(JSON.stringify(schema.parse(message)));
}

/** Parses and validates a received message, or throws `WireError`. */
export function decode<S extends z.ZodType>(schema: S, data: Uint8Array): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(decoder.decode(data));
  } catch (err) {
    throw new WireError('Message is not JSON', { cause: err });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new WireError(`Message does not match its schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** `ok` reply bytes. */
export const ok = (data: unknown): Uint8Array => encoder.encode(JSON.stringify({ type: 'ok', data } satisfies Reply));

/** `fail` reply bytes. */
export const fail = (code: Extract<Reply, { type: 'fail' }>['code'], message: string): Uint8Array =>
  encoder.encode(JSON.stringify({ type: 'fail', code, message } satisfies Reply));

/** One screencast frame: JPEG bytes, metadata in headers so the image is never re-encoded. */
export interface Frame {
  sessionId: string;
  seq: number;
  /** Epoch milliseconds the device produced it. */
  capturedAt: number;
  width: number;
  height: number;
  jpeg: Uint8Array;
}

/** Headers and body of a frame message. */
export function encodeFrame(frame: Frame): { data: Uint8Array; headers: Record<string, string> } {
  return {
    data: frame.jpeg,
    headers: {
      'df-session': frame.sessionId,
      'df-seq': String(frame.seq),
      'df-ts': String(frame.capturedAt),
      'df-size': `${frame.width}x${frame.height}`,
    },
  };
}

/** Reads a frame message back; throws `WireError` when its headers are missing. */
export function decodeFrame(data: Uint8Array, headers: Record<string, string> | undefined): Frame {
  const size = /^(\d+)x(\d+)$/.exec(headers?.['df-size'] ?? '');
  const seq = Number(headers?.['df-seq']);
  const ts = Number(headers?.['df-ts']);
  const sessionId = headers?.['df-session'];
  if (!size || !sessionId || !Number.isFinite(seq) || !Number.isFinite(ts)) throw new WireError('Frame headers missing');
  return { sessionId, seq, capturedAt: ts, width: Number(size[1]), height: Number(size[2]), jpeg: data };
}
