export { default } from './service.js';
export { QaPlatformLauncher as launcher } from './launcher.js';
export { QaPlatformTestEvents } from './reporter.js';
export { QaPlatformApiError } from '@qa-platform/client';
export { SessionReport, type TestEvent } from '@qa-platform/client';
export { QaPlatformConfigError, resolveSettings, hubConnection, type QaPlatformOptions } from './settings.js';
