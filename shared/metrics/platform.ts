import { counter, gauge, histogram, observedGauge } from './registry.js';

/*
 * The platform's own metrics, all named `qa_*` (docs/operations.md, "Metrics"). Their labels take values
 * from fixed vocabularies only — a command kind, an outcome code, a state, a platform, a projection's
 * name — never an id, a URL or anything a user typed, so every label set stays small.
 */

/** Latencies from a millisecond to two minutes: device commands and appends span that range. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** A WebDriver new-session request may wait in the queue for minutes. */
const QUEUE_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** Appends per group commit. */
const GROUP_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/** One command sent to a device's worker over NATS and its reply, by kind (`tap`, `text`, `screenshot`, `installApp`...). */
export const deviceCommandDuration = histogram(
  'qa_device_command_duration_seconds',
  'Device commands sent to an agent over NATS, from request to final reply, by kind and outcome (ok or the failure code).',
  ['kind', 'outcome'],
  LATENCY_BUCKETS,
);

/** One WebDriver command through `/df/wd`, by W3C command name (`other` for one the hub does not name). */
export const webdriverCommandDuration = histogram(
  'qa_webdriver_command_duration_seconds',
  'WebDriver commands through /df/wd, by W3C command name and outcome (success or error).',
  ['command', 'outcome'],
  LATENCY_BUCKETS,
);

/** How long a WebDriver new-session request waited in the queue for a device. */
export const webdriverQueueWait = histogram(
  'qa_webdriver_queue_wait_seconds',
  'Time WebDriver new-session requests waited in the queue for a free device, by outcome (acquired, timeout, abandoned, error).',
  ['outcome'],
  QUEUE_BUCKETS,
);

/** New-session requests waiting in this process's queue now. */
export const webdriverQueueWaiting = gauge('qa_webdriver_queue_waiting', 'WebDriver new-session requests waiting for a device now.', []);

/** One append to the event store, by store kind and outcome (written, conflict, error). */
export const eventStoreAppendDuration = histogram(
  'qa_event_store_append_duration_seconds',
  'Appends to the event store, by store (postgres, pglite, kurrent) and outcome (written, conflict, error).',
  ['store', 'outcome'],
  LATENCY_BUCKETS,
);

/** How many appends each group commit wrote in one statement. */
export const eventStoreGroupSize = histogram('qa_event_store_append_group_size', 'Appends written together by one group commit statement.', [], GROUP_BUCKETS);

/** Per projection: the age of the oldest event it has still to apply (0 while caught up). */
export const projectionLagSeconds = observedGauge(
  'qa_projection_lag_seconds',
  'Age in seconds of the oldest event a projection has still to apply (0 while it is caught up), per projection this runner applies.',
  ['projection'],
);

/** Request/reply round trips over NATS, by outcome (ok, timeout, no_responders, unavailable, error). */
export const natsRequestDuration = histogram(
  'qa_nats_request_duration_seconds',
  'Request/reply round trips over NATS, by outcome (ok, timeout, no_responders, unavailable, error).',
  ['outcome'],
  LATENCY_BUCKETS,
);

/** Times this process's NATS connection dropped (each followed by reconnection attempts). */
export const natsDisconnects = counter('qa_nats_disconnects_total', "Times this process's NATS connection was lost.", []);

/** Device sessions of the installation by state, read from the sessions read model when scraped. */
export const sessionsByState = observedGauge('qa_sessions', 'Device sessions by state (from the sessions read model).', ['state']);

/** Devices of the installation by state and platform, read from the devices read model when scraped. */
export const devicesByState = observedGauge('qa_devices', 'Devices by state and platform (from the devices read model).', ['state', 'platform']);

/** Devices by the health state their host last reported (`quarantined`, `cooling`... `unknown` before any reading) and platform. */
export const devicesByHealth = observedGauge('qa_devices_health', 'Devices by health state and platform (from the devices read model).', ['health', 'platform']);

/** Requests a rate limit refused, by budget (address, user, credential, new sessions). */
export const rateLimitRefusals = counter('qa_rate_limit_refusals_total', 'Requests refused by a rate limit (429), by budget.', ['budget']);

/** Webhook deliveries waiting for their next attempt, and attempts that failed. */
export const webhookBacklog = observedGauge('qa_webhook_deliveries_pending', 'Webhook deliveries not yet delivered nor given up.', []);
export const webhookFailures = counter('qa_webhook_delivery_failures_total', 'Webhook delivery attempts that failed, by whether the delivery will be retried or is given up.', ['final']);

/** The shipping of the audit history to the installation's SIEM: events not yet shipped, and attempts that failed, by target kind (syslog, http). */
export const auditShippingBacklog = observedGauge('qa_audit_shipping_backlog_events', 'Audited events not yet shipped to the SIEM, by target kind (syslog, http).', ['kind']);
export const auditShippingFailures = counter('qa_audit_shipping_failures_total', 'Attempts to ship a batch of audited events to the SIEM that failed (and will be tried again), by target kind.', ['kind']);

/** Screen frames delivered to viewers, and frames a slow viewer skipped: `rate()` of it is frames per second. */
export const viewerFrames = counter('qa_viewer_frames_total', 'Screen frames delivered to viewers (sent), and frames skipped for a slow viewer (dropped).', ['outcome']);

/** Mails handed to SMTP (sent) or refused by it (failed); `logged` when no SMTP_URL is set. */
export const mails = counter('qa_mails_total', 'Mails by outcome: sent (accepted by the SMTP server), failed (refused or unreachable), logged (no SMTP_URL).', ['outcome']);
