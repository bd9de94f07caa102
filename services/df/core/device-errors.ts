import { AppError } from '#shared/errors.js';
import { DeviceRequestError } from '#shared/wire/index.js';

/** An agent's answer as the client's error: what the device did wrong is 502, an unreachable host 503. */
export function deviceFailure(err: unknown, during: 'prepare' | 'command'): unknown {
  if (!(err instanceof DeviceRequestError)) return err;
  switch (err.code) {
    case 'UNREACHABLE':
      return new AppError('DEVICE_UNREACHABLE', 'The device host is not reachable right now', { cause: err });
    case 'BUS_UNAVAILABLE':
      return new AppError('MESSAGE_BUS_UNAVAILABLE', 'The device farm cannot reach its device hosts right now (the message bus is down); try again shortly', { cause: err });
    case 'TIMEOUT':
      return new AppError('DEVICE_TIMEOUT', `The device did not answer in time: ${err.message}`, { cause: err });
    case 'BAD_REQUEST':
      return new AppError('BAD_REQUEST', err.message, { cause: err });
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', `Not found on the device: ${err.message}`, { cause: err });
    case 'UNSUPPORTED':
      return new AppError('DEVICE_UNSUPPORTED', `This device cannot do that: ${err.message}`, { cause: err });
    case 'NOT_PREPARED':
      return new AppError('SESSION_NOT_ACTIVE', 'The device no longer holds this session', { cause: err });
    case 'DEVICE_BUSY':
      return new AppError('DEVICE_BUSY', err.message, { cause: err });
    case 'DEVICE_ERROR':
    case 'PROTOCOL_MISMATCH':
    case 'UNKNOWN_DEVICE':
      return during === 'prepare'
        ? new AppError('DEVICE_PREPARE_FAILED', `The device could not be prepared: ${err.message}`, { cause: err })
        : new AppError('DEVICE_COMMAND_FAILED', `The device failed the command: ${err.message}`, { cause: err });
    case 'HOST_TOKEN_MISSING':
    case 'HOST_TOKEN_INVALID':
    case 'HOST_REVOKED':
      return new AppError('DEVICE_UNREACHABLE', `The device's host is not connected: ${err.message}`, { cause: err });
    default: {
      const never: never = err.code;
      return new AppError('DEVICE_COMMAND_FAILED', String(never), { cause: err });
    }
  }
}
