export { registry, histogram, counter, gauge, observedGauge, exposition, type Readings } from './registry.js';
export { installHttpMetrics, startMetricsServer, metricsExposed, type MetricsExposure, type MetricsServer } from './http.js';
export * as qaMetrics from './platform.js';
