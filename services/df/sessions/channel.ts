import { createHash, randomUUID } from 'node:crypto';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import { DeviceRequestError, requestDevice, type ControlAction, type AgentCommand, type DeviceOp, type RpcResult } from '#shared/wire/index.js';
import { STAGE_CHUNK_BYTES } from '#shared/wire/index.js';
import type { ActivityKind } from '#events/df/sessions.js';
import type { Caller } from '../http.js';
import { deviceFailure } from '../core/device-errors.js';
import { userName } from '../core/session-access.js';
import { typedText, type SessionCommand } from './decide.js';
import type { SessionDeps } from './deps.js';
import type { SessionWrites } from './writes.js';

/** The parts of a session that address its device. */
export type DeviceSession = Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'status'>;

/**
 * The channel to a session's device: commands over the bus (an open session only), files staged to it
 * and pulled from it in chunks, and control actions recorded on the session's timeline.
 */
export class DeviceChannel {
  constructor(
    private readonly deps: Pick<SessionDeps, 'bus' | 'db' | 'now' | 'commandTimeoutMs' | 'typingBurstMs'>,
    private readonly writes: SessionWrites,
  ) {}

  /** Sends one command to the session's device. */
  async device<Op extends DeviceOp>(session: DeviceSession, command: Extract<AgentCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    try {
      return await requestDevice(this.deps.bus, { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id }, command, { timeoutMs: timeoutMs ?? this.deps.commandTimeoutMs });
    } catch (err) {
      throw deviceFailure(err, 'command');
    }
  }

  /**
   * Sends an app or file command to the session's device: a device without the feature answers 409
   * `DEVICE_UNSUPPORTED`, a path or app the device does not have 404; the rest as `device` does.
   */
  async deviceContent<Op extends DeviceOp>(session: DeviceSession, command: Extract<AgentCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    try {
      return await requestDevice(this.deps.bus, { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id }, command, { timeoutMs: timeoutMs ?? this.deps.commandTimeoutMs });
    } catch (err) {
      if (err instanceof DeviceRequestError && err.code === 'UNSUPPORTED') throw new AppError('DEVICE_UNSUPPORTED', err.message, { cause: err });
      throw deviceFailure(err, 'command');
    }
  }
  /**
   * Moves bytes to the device's agent in chunks (each well under the bus's payload limit) and commits
   * them; answers the staged upload for `installApp` / `pushFile`. More than `maxBytes` is 413.
   */
  async stageUpload(session: DeviceSession, bytes: AsyncIterable<Buffer>, maxBytes: number, isTruncated: () => boolean = () => false): Promise<{ stageId: string; size: number; sha256: string }> {
    const { stageId } = await this.deviceContent(session, { op: 'stageBegin', size: maxBytes });
    const hash = createHash('sha256');
    let offset = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const send = async (data: Buffer) => {
      await this.deviceContent(session, { op: 'stageChunk', stageId, offset, base64: data.toString('base64') });
      offset += data.length;
    };
    for await (const chunk of bytes) {
      if (offset + pendingBytes + chunk.length > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
      hash.update(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= STAGE_CHUNK_BYTES) {
        const all = Buffer.concat(pending);
        await send(all.subarray(0, STAGE_CHUNK_BYTES));
        pending = [all.subarray(STAGE_CHUNK_BYTES)];
        pendingBytes = all.length - STAGE_CHUNK_BYTES;
      }
    }
    if (isTruncated()) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
    if (pendingBytes > 0) await send(Buffer.concat(pending));
    const sha256 = hash.digest('hex');
    await this.deviceContent(session, { op: 'stageCommit', stageId, size: offset, sha256 });
    return { stageId, size: offset, sha256 };
  }

  /**
   * Reads a device file in chunks: the first chunk is read before this answers (so a missing file is
   * a 404 before any byte is sent), the rest as the consumer pulls them.
   */
  async pullFromDevice(session: DeviceSession, path: string, timeoutMs?: number): Promise<{ size: number; chunks: AsyncGenerator<Buffer> }> {
    const first = await this.deviceContent(session, { op: 'pullFile', path, offset: 0, length: STAGE_CHUNK_BYTES }, timeoutMs);
    const read = (offset: number) => this.deviceContent(session, { op: 'pullFile', path, offset, length: STAGE_CHUNK_BYTES }, timeoutMs);
    async function* chunks(): AsyncGenerator<Buffer> {
      let piece = first;
      for (;;) {
        const data = Buffer.from(piece.base64, 'base64');
        if (data.length > 0) yield data;
        if (piece.eof || data.length === 0) return;
        piece = await read(piece.offset + data.length);
      }
    }
    return { size: first.size, chunks: chunks() };
  }

  /** Performs a control action and records it on the timeline. */
  async control(session: SessionRecord, caller: Partial<Caller>, action: ControlAction, via: 'api' | 'viewer'): Promise<RpcResult<'control'>> {
    const receivedAt = this.deps.now().toISOString();
    const result = await this.device(session, { op: 'control', action });
    const kind: ActivityKind = action.action === 'openUrl' || action.action === 'back' || action.action === 'home' ? 'navigation' : 'control';
    // Who sent it: several people may drive a shared session.
    const by = caller.userId === undefined ? null : { userId: caller.userId, name: await userName(this.deps.db, session.companyId, caller.userId) };
    const detail: Record<string, unknown> = { ...action, via, ...(by ? { by } : {}), ...(result.url ? { resultUrl: result.url } : {}) };
    if (action.action === 'text') {
      // A burst of typing (one typist's text, each input arriving within `typingBurstMs` of the end
      // of the one before) is one timeline entry; typed text can hold secrets, so the entry keeps its
      // length, not its content.
      const typist = `${via}:${caller.userId ?? ''}`;
      const characters = [...action.text].length;
      const command: SessionCommand = {
        type: 'RecordTyping',
        sessionId: session.id,
        activityId: randomUUID(),
        detail: { ...detail, text: typedText(characters) },
        by: typist,
        receivedAt,
        at: this.deps.now().toISOString(),
        characters,
        windowMs: this.deps.typingBurstMs,
      };
      await this.writes.runAs(command, caller);
    } else await this.writes.recordActivity(session, caller, kind, detail);
    return result;
  }
}
