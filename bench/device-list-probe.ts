/*
 * The device list alone: 10,000 devices registered through the device commands (no agents, no
 * heartbeats), then sequential `GET /df/api/devices` through the started embedded server. Separates
 * the list query's own cost from the registration and heartbeat load of the `device-list` step.
 * `npx tsx bench/device-list-probe.ts [devices]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listDevices } from '#projections/df-devices/index.js';
import { DeviceCommands } from '#services/df/devices/service.js';
import { signIn, startBenchServer } from './server.js';
import { distribution } from './stats.js';

const total = Number(process.argv[2] ?? 10_000);
const dataDir = mkdtempSync(join(tmpdir(), 'qa-dl-probe-'));
const running = await startBenchServer(dataDir, { AGENT_ENABLED: 'false' });
try {
  const devices = new DeviceCommands(running.platform.store);
  const models = ['Pixel 7', 'Galaxy S23', 'Pixel 6', 'iPhone 14', 'Moto G', 'Xperia 5', 'OnePlus 11', 'Pixel 8', 'Galaxy A54', 'Nokia G22'];
  const started = performance.now();
  let last = 0n;
  for (let i = 0; i < total; i++) {
    const r = await devices.run(
      {
        type: 'ConnectDevice',
        deviceId: `probe-${i}`,
        facts: { name: `sim ${i}`, platform: 'android', osVersion: String(9 + (i % 6)), model: models[i % 10]!, manufacturer: 'Sim', type: i % 4 === 0 ? 'tablet' : 'phone', isRealDevice: false, provider: 'simulated', screen: { width: 1080, height: 2400, scale: 1 } },
        placement: { hostId: `probe-host-${i % 100}`, nodeName: `bench-node-${String(i % 10).padStart(2, '0')}`, hubId: 'hub', companyId: null },
      },
      { actorId: 'probe', correlationId: `probe-${i}`, now: new Date() },
    );
    last = r.position ?? last;
    if (i % 1000 === 999) process.stdout.write(` ${i + 1}`);
  }
  await running.platform.readModels.waitFor(last, { names: ['df-devices'] });
  process.stdout.write(`\nregistered ${total} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const token = await signIn(running.url);
  const headers = { authorization: `Bearer ${token}`, 'x-workspace-id': '1' };
  const queries = {
    'every filter': '/df/api/devices?status=available&status=in_use&osVersion=14&osVersion=13&model=Pixel%207&model=Galaxy%20S23&nodeName=bench-node-00&nodeName=bench-node-02&search=sim&excludeType=tablet&isRealDevice=false&sortBy=model&sortDir=desc&page=0&size=20',
    'no filter': '/df/api/devices?page=0&size=20',
    'filter-options': '/df/api/devices/filter-options',
  };
  for (const [name, path] of Object.entries(queries)) {
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const r = await fetch(`${running.url}${path}`, { headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      if (i >= 50) times.push(performance.now() - t);
    }
    const d = distribution(times);
    process.stdout.write(`${name.padEnd(16)} p50 ${d.p50.toFixed(2)} ms  p99 ${d.p99.toFixed(2)} ms  max ${d.max.toFixed(2)} ms\n`);
  }
  // The same first page straight from the read model, without HTTP, gateway or serialisation.
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    await listDevices(running.platform.db, { companyId: 1, workspaceId: 1, userId: 1, sharedPool: true }, {}, { page: 0, size: 20, sortBy: 'name', sortDir: 'asc' });
    if (i >= 50) times.push(performance.now() - t);
  }
  const d = distribution(times);
  process.stdout.write(`${'query only'.padEnd(16)} p50 ${d.p50.toFixed(2)} ms  p99 ${d.p99.toFixed(2)} ms  max ${d.max.toFixed(2)} ms (no filter, read model directly)\n`);
} finally {
  await running.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
