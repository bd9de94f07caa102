import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { testEnv } from '#test/helpers/env.js';
import { busContract, Received } from './bus.contract.js';
import { connectNatsBus, createMemoryBus, type MessageBus } from './index.js';

const text = (data: Uint8Array): string => Buffer.from(data).toString('utf8');
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

busContract('memory', {
  open: async (options) => createMemoryBus(options),
  restart: async (bus) => bus,
  dropStreams: async () => {},
});

// The admin connection is opened lazily inside the suite's hooks, so nothing connects at import time.
let admin: { nc: NatsConnection; jsm: JetStreamManager } | undefined;
async function natsAdmin(): Promise<JetStreamManager> {
  if (!admin) {
    const nc = await connect({ servers: testEnv.natsUrl });
    admin = { nc, jsm: await jetstreamManager(nc) };
  }
  return admin.jsm;
}
afterAll(async () => {
  await admin?.nc.close();
});

busContract('nats', {
  open: (options) => connectNatsBus(testEnv.natsUrl, { ...options, name: 'bus-contract' }),
  restart: async (bus, options) => {
    await bus.close();
    return connectNatsBus(testEnv.natsUrl, { ...options, name: 'bus-contract-restarted' });
  },
  dropStreams: async (names) => {
    const jsm = await natsAdmin();
    await Promise.all(
      names.map((name) =>
        jsm.streams.delete(name).catch((err: unknown) => {
          // A test may fail before it created its stream; anything else is a real clean-up failure.
          if (!(err instanceof Error && /stream not found/i.test(err.message))) throw err;
        }),
      ),
    );
  },
});

describe('memory bus specifics', () => {
  let bus: MessageBus;
  afterEach(async () => {
    await bus.close();
  });

  it('shares a queue group round robin, in subscription order', async () => {
    bus = createMemoryBus();
    const members = new Received<number>();
    for (const member of [0, 1, 2]) await bus.subscribe('rr.work', () => members.push(member), { queue: 'q' });
    for (let n = 0; n < 6; n++) await bus.publish('rr.work', bytes(String(n)));
    expect(await members.atLeast(6)).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('rejects a pending request when the bus closes', async () => {
    bus = createMemoryBus();
    await bus.subscribe('silent', () => {});
    const pending = bus.request('silent', bytes('?'), { timeoutMs: 10_000 });
    await bus.close();
    await expect(pending).rejects.toThrow(/closed/);
  });
});

/** A TCP relay in front of NATS whose connections the test can cut, as a network failure would. */
async function startRelay(upstream: URL): Promise<{ port: number; accepted: () => number; cut: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    const server = tcpConnect(Number(upstream.port || 4222), upstream.hostname);
    for (const s of [client, server]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(server).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay has no TCP address');
  return {
    port: address.port,
    accepted: () => accepted,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('nats bus specifics', () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  const buses: MessageBus[] = [];
  beforeAll(async () => {
    relay = await startRelay(new URL(testEnv.natsUrl));
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await relay.close();
  });

  it('reconnects by itself after the connection drops and keeps its subscriptions', async () => {
    const viaRelay = await connectNatsBus(`nats://127.0.0.1:${relay.port}`, { reconnectTimeWaitMs: 100 });
    const direct = await connectNatsBus(testEnv.natsUrl);
    buses.push(viaRelay, direct);
    const subject = `t.reconnect.${randomBytes(5).toString('hex')}`;
    const inbox = new Received<string>();
    await viaRelay.subscribe(subject, (m) => inbox.push(text(m.data)));
    await direct.publish(subject, bytes('before'));
    await inbox.atLeast(1);

    relay.cut();
    // Publishing until one arrives is the condition itself: the client has reconnected and re-subscribed.
    const deadline = Date.now() + 10_000;
    for (let n = 0; !inbox.items.some((t) => t.startsWith('after')) && Date.now() < deadline; n++) {
      await direct.publish(subject, bytes(`after-${n}`));
      await inbox.until((items) => items.length > 1, 100).catch(() => undefined);
    }
    expect(inbox.items[0]).toBe('before');
    expect(inbox.items.some((t) => t.startsWith('after'))).toBe(true);
    expect(relay.accepted()).toBeGreaterThanOrEqual(2);
  });
});
