import pino from 'pino';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { connectNatsBus } from '#shared/bus/index.js';
import { startTracing } from '#shared/tracing/index.js';
import { natsHostInbox } from '#shared/wire/index.js';

/**
 * A device host of its own process for tests: the agent (agent/main.ts's parts: tracing from the
 * OTEL_* variables, NATS at NATS_URL, the host) with one device driven through Appium's fake driver,
 * `FAKE_WD_DEVICE` by name, enrolled with `AGENT_HOST_TOKEN`. Stops on SIGTERM.
 */
const env = process.env;
const tracing = await startTracing(env, 'qa-agent');
const hostId = env.FAKE_WD_HOST_ID ?? 'fake-wd-host';
const bus = await connectNatsBus(env.NATS_URL!, { name: hostId, inboxPrefix: natsHostInbox(hostId) });
const host = new AgentHost({
  bus,
  config: loadAgentConfig({ value: { hostId, hostToken: env.AGENT_HOST_TOKEN, heartbeatMs: 300, devices: [] } }),
  logger: pino({ level: env.LOG_LEVEL ?? 'warn' }),
  providers: [new FakeWebDriverProvider({ hostId, devices: [{ name: env.FAKE_WD_DEVICE ?? 'Fake WD device', osVersion: '14', model: 'Pixel Fake' }] })],
});
await host.start();
process.stdout.write(`${JSON.stringify({ msg: 'fake webdriver host started' })}\n`);
process.once('SIGTERM', () => {
  void host
    .stop()
    .then(() => bus.close())
    .then(() => tracing?.shutdown())
    .finally(() => process.exit(0));
});
