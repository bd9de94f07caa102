export { registry } from './registry.js';
export { installHttpMetrics, startMetricsServer, type MetricsExposure, type MetricsServer } from './http.js';
export * as qaMetrics from './platform.js';
