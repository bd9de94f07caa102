import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../bus/index.js';
import { ok, requestDevice, subjects } from '../wire/index.js';
import { qaMetrics, registry } from './index.js';

/** The count of a histogram's observations with exactly these labels (the registry is the process's: tests read deltas). */
async function countOf(name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const found = (values as { metricName?: string; labels: Record<string, string | number>; value: number }[]).find((v) => v.metricName === `${name}_count` && Object.entries(labels).every(([k, val]) => v.labels[k] === val) && Object.keys(v.labels).length === Object.keys(labels).length);
  return found?.value ?? 0;
}

const target = { hostId: 'metrics-host', deviceId: 'metrics-device', sessionId: 'metrics-session' };

describe('device command latency', () => {
  it('times a tap by its action, and a command nobody answers by its failure code, with no id in the labels', async () => {
    const bus = createMemoryBus();
    const sub = await bus.subscribe(subjects.rpc(target.hostId, target.deviceId), (msg) => bus.respond(msg, ok({})));
    const taps = await countOf('qa_device_command_duration_seconds', { kind: 'tap', outcome: 'ok' });
    await requestDevice(bus, target, { op: 'control', action: { action: 'tap', x: 1, y: 2 } }, { timeoutMs: 1_000 });
    expect(await countOf('qa_device_command_duration_seconds', { kind: 'tap', outcome: 'ok' })).toBe(taps + 1);
    await sub.unsubscribe();

    const unanswered = await countOf('qa_device_command_duration_seconds', { kind: 'screenshot', outcome: 'UNREACHABLE' });
    await expect(requestDevice(bus, target, { op: 'screenshot', format: 'png' }, { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'UNREACHABLE' });
    expect(await countOf('qa_device_command_duration_seconds', { kind: 'screenshot', outcome: 'UNREACHABLE' })).toBe(unanswered + 1);
    const text = await registry.getSingleMetricAsString('qa_device_command_duration_seconds');
    expect(text).not.toContain('metrics-device');
    expect(text).not.toContain('metrics-session');
    await bus.close();
  });
});

describe('the metric catalog', () => {
  it('names every platform metric qa_* with a help text', async () => {
    const names = Object.values(qaMetrics).map((m) => ('gauge' in m ? m.gauge : m) as unknown as { name: string; help: string });
    expect(names.map((m) => m.name).sort()).toEqual([
      'qa_audit_shipping_backlog_events',
      'qa_audit_shipping_failures_total',
      'qa_device_command_duration_seconds',
      'qa_devices',
      'qa_devices_health',
      'qa_event_store_append_duration_seconds',
      'qa_event_store_append_group_size',
      'qa_mails_total',
      'qa_nats_disconnects_total',
      'qa_nats_request_duration_seconds',
      'qa_projection_lag_seconds',
      'qa_rate_limit_refusals_total',
      'qa_sessions',
      'qa_viewer_frames_total',
      'qa_webdriver_command_duration_seconds',
      'qa_webdriver_queue_wait_seconds',
      'qa_webdriver_queue_waiting',
      'qa_webhook_deliveries_pending',
      'qa_webhook_delivery_failures_total',
    ]);
    for (const m of names) {
      expect(m.name).toMatch(/^qa_[a-z_]+$/);
      expect(m.help.length).toBeGreaterThan(10);
    }
  });
});
