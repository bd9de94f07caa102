import { randomUUID } from 'node:crypto';
import { BusTimeoutError, BusUnavailableError, NoRespondersError, type MessageBus } from '#shared/bus/index.js';
import { decode, encode, WireError } from './codec.js';
import { Reply, RpcRequest, RpcResults, type AgentCommand, type DeviceOp, type FailCode, type RpcResult } from './messages.js';
import { PROTOCOL_VERSION, subjects } from './subjects.js';
import { qaMetrics } from '../metrics/index.js';

/** Why a device request did not succeed: the agent's fail code, or the bus could not reach it. */
export class DeviceRequestError extends Error {
  constructor(
    readonly code: FailCode | 'UNREACHABLE' | 'BUS_UNAVAILABLE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DeviceRequestError';
  }
}

export interface DeviceTarget {
  hostId: string;
  deviceId: string;
  sessionId: string;
}

// The bus waits a little longer than the agent, so an agent's own TIMEOUT reply wins the race.
const BUS_GRACE_MS = 1_000;

/**
 * Sends one command to a device's worker and returns its typed `ok` data; `fail` replies and bus
 * failures become `DeviceRequestError`. `onProgress` receives the agent's progress replies. Each is
 * timed into `qa_device_command_duration_seconds` by kind (the op, or a control's action: `tap`).
 */
export async function requestDevice<Op extends DeviceOp>(
  bus: MessageBus,
  target: DeviceTarget,
  command: Extract<AgentCommand, { op: Op }>,
  options: { timeoutMs: number; onProgress?: (step: string, percent?: number) => void },
): Promise<RpcResult<Op>> {
  const started = performance.now();
  const sent = command as AgentCommand;
  const kind = sent.op === 'control' ? sent.action.action : sent.op;
  try {
    const result = await sendToDevice(bus, target, command, options);
    qaMetrics.deviceCommandDuration.observe({ kind, outcome: 'ok' }, (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    const outcome = err instanceof DeviceRequestError ? err.code : 'WIRE_ERROR';
    qaMetrics.deviceCommandDuration.observe({ kind, outcome }, (performance.now() - started) / 1000);
    throw err;
  }
}

async function sendToDevice<Op extends DeviceOp>(
  bus: MessageBus,
  target: DeviceTarget,
  command: Extract<AgentCommand, { op: Op }>,
  options: { timeoutMs: number; onProgress?: (step: string, percent?: number) => void },
): Promise<RpcResult<Op>> {
  const requestId = randomUUID();
  // Nothing can reach the host while the bus is away: said at once, not after the command's time-out.
  if (!bus.connected) throw new DeviceRequestError('BUS_UNAVAILABLE', 'The message bus is not connected');
  const progress = options.onProgress
    ? await bus.subscribe(subjects.progress(target.hostId, requestId), (msg) => {
        const reply = decode(Reply, msg.data);
        if (reply.type === 'progress') options.onProgress!(reply.step, reply.percent);
      })
    : null;
  try {
    const data = encode(RpcRequest, {
      protocol: PROTOCOL_VERSION,
      requestId,
      deviceId: target.deviceId,
      sessionId: target.sessionId,
      timeoutMs: options.timeoutMs,
      progress: progress !== null,
      command,
    });
    let answer;
    try {
      answer = await bus.request(subjects.rpc(target.hostId, target.deviceId), data, { timeoutMs: options.timeoutMs + BUS_GRACE_MS });
    } catch (err) {
      if (err instanceof BusUnavailableError) throw new DeviceRequestError('BUS_UNAVAILABLE', 'The message bus is not connected', { cause: err });
      if (err instanceof NoRespondersError) throw new DeviceRequestError('UNREACHABLE', 'The device host is not connected', { cause: err });
      if (err instanceof BusTimeoutError) throw new DeviceRequestError('TIMEOUT', 'The device host did not answer in time', { cause: err });
      throw err;
    }
    const reply = decode(Reply, answer.data);
    switch (reply.type) {
      case 'ok': {
        const parsed = RpcResults[command.op].safeParse(reply.data);
        if (!parsed.success) throw new WireError(`Reply to ${command.op} does not match its schema`);
        return parsed.data as RpcResult<Op>;
      }
      case 'fail':
        throw new DeviceRequestError(reply.code, reply.message);
      case 'progress':
        throw new WireError('A progress message arrived as the final reply');
      default: {
        const never: never = reply;
        throw new WireError(`Unknown reply ${String(never)}`);
      }
    }
  } finally {
    await progress?.unsubscribe();
  }
}
