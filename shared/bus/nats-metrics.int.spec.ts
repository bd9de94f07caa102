import { describe, expect, it } from 'vitest';
import { startNatsServer } from '#test/helpers/daemon.js';
import { qaMetrics } from '../metrics/index.js';
import { connectNatsBus } from './index.js';

const disconnects = async () => (await qaMetrics.natsDisconnects.get()).values[0]?.value ?? 0;

describe('NATS connection metrics', () => {
  it('counts the loss of the connection once, when its server stops', async () => {
    const server = await startNatsServer();
    const bus = await connectNatsBus(server.url, { name: 'nats-metrics-spec' });
    try {
      const before = await disconnects();
      const lost = new Promise<void>((resolve) => {
        const stop = bus.onConnectionChange((connected) => {
          if (connected) return;
          stop();
          resolve();
        });
      });
      await server.stop();
      await lost;
      expect(await disconnects()).toBe(before + 1);
    } finally {
      await bus.close();
      await server.stop();
    }
  });
});
