export { AgentHost, AGENT_VERSION, providersFor, type AgentHostOptions } from './host.js';
export { AgentConfigFile, loadAgentConfig, stableUuid, type AgentConfig } from './config.js';
export type { DeviceDriver, DeviceProvider, DeviceListener } from './provider.js';
