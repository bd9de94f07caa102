export { PROTOCOL_VERSION, assertToken, hostIdOf, subjects } from './subjects.js';
export {
  AccessibilityViolation,
  Bye,
  ControlAction,
  DeviceCapabilities,
  AgentCommand,
  DeviceInfo,
  DevicePlatform,
  WorkerState,
  DeviceType,
  DevicesReport,
  FailCode,
  INPUT_PATHS,
  SCREEN_PATHS,
  Heartbeat,
  Hello,
  HostAck,
  LogEntry,
  Reply,
  RpcRequest,
  RpcResults,
  Screen,
  UiNode,
  type DeviceOp,
  type RpcResult,
} from './messages.js';
export { FastPathState, HealthReport, HealthSample, MendingReport } from './health.js';
export { WireError, decode, decodeFrame, encode, encodeFrame, fail, ok, type Frame } from './codec.js';
export { HOST_TOKEN_PREFIX, hostIdOfToken, hostToken, hostTokenPrefix } from './host-token.js';
export { DeviceRequestError, requestDevice, type DeviceTarget } from './rpc-client.js';
export * from './messages.js';
export * from './nats-authorization.js';
