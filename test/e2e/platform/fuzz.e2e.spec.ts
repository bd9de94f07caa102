import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCases, runCases, type OpenApiDocument } from '#test/fuzz/openapi-fuzz.js';
import { ensureDfctlBuilt } from '#test/helpers/dfctl.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Every operation of the platform's own OpenAPI document, valid and with hostile values one at a
 * time (fixed seed, bounded): no 5xx, no hang, every error in the error contract, unstorable text
 * never accepted, and another company's data untouched. `npm run fuzz` runs longer, other seeds.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const VARIANTS = Number(process.env.FUZZ_VARIANTS ?? 12);

let server: TestServer;
let a: SignedUpCompany;
let b: SignedUpCompany;
let doc: OpenApiDocument;

/** A client's text frame (clients must mask what they send). */
function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, payload.map((b, i) => b ^ mask[i % 4]!)]);
}

/** Operations that end the fuzzer's own sign-in (they are fuzzed by their own tests). */
const endsTheSignIn = (method: string, path: string) => /\/auth\/logout$|sign-out/.test(path) || (method === 'delete' && /\/auth\/sessions/.test(path));

/** How many events name company B: the fuzzer acts as company A and must change none of B's data. */
async function eventsOf(companyId: number): Promise<number> {
  let n = 0;
  for (const e of await server.process.platform.store.readAll({})) if (e.metadata.companyId === companyId) n++;
  return n;
}

beforeAll(async () => {
  // dfctl's manifest and downloads answer 503 until it is built (a checkout without npm install).
  ensureDfctlBuilt();
  server = await startTestServer({ AGENT_ENABLED: 'false' });
  a = await signUpCompany(server.url, 'fuzz-a');
  b = await signUpCompany(server.url, 'fuzz-b');
  doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('fuzzing every documented operation', () => {
  it(`answers every case without a 5xx, a hang or a broken error body, and leaves the other company alone (seed ${SEED})`, { timeout: 600_000 }, async () => {
    const cases = buildCases(doc, { seed: SEED, variants: VARIANTS, skip: endsTheSignIn });
    const operations = new Set(cases.map((c) => c.operation));
    expect(operations.size).toBeGreaterThan(200);
    // The token endpoint is fuzzed in both its body formats and with HTTP Basic garbage.
    const token = cases.filter((c) => c.operation === 'POST /oauth/token');
    expect(token.filter((c) => c.variant.startsWith('form ') && c.hostileText).length).toBeGreaterThanOrEqual(4);
    expect(token.filter((c) => c.variant.startsWith('body ') && c.hostileText).length).toBeGreaterThanOrEqual(4);
    expect(token.filter((c) => c.variant.startsWith('basic ')).length).toBeGreaterThanOrEqual(8);
    const before = await eventsOf(b.companyId);
    const { findings, statuses } = await runCases(server.url, cases, {
      headers: { authorization: `Bearer ${a.token}`, 'x-workspace-id': String(a.workspaceId) },
      timeoutMs: 15_000,
      concurrency: 4,
    });
    process.stdout.write(`fuzz: seed ${SEED}, ${operations.size} operations, ${cases.length} requests, answers ${JSON.stringify(statuses)}, ${findings.length} findings\n`);
    const report = findings.slice(0, 60).map((f) => `${f.problem}: ${f.case.operation} [${f.case.variant}] ${f.status ?? ''} ${f.body ?? ''}`);
    expect(report, `${findings.length} findings over ${cases.length} requests (${JSON.stringify(statuses)})`).toEqual([]);
    // The fuzzer reached the operations, not only the gate: plenty of answers other than 401.
    expect((statuses['200'] ?? 0) + (statuses['201'] ?? 0) + (statuses['204'] ?? 0)).toBeGreaterThan(50);
    expect(statuses['400'] ?? 0).toBeGreaterThan(500);
    expect(await eventsOf(b.companyId)).toBe(before);
  });

  it('refuses hostile WebSocket upgrades on every relay with a 4xx and ends the connection', { timeout: 60_000 }, async () => {
    const { port } = new URL(server.url);
    const paths = ['/df/ws/sessions/', '/df/devtools/', '/df/wd/session/', '/df/debug-tunnel/'];
    const hostile = ['a%00b', 'a%ED%A0%80b', '..%2F..%2Fetc', 'x'.repeat(600), '%', '00000000-0000-4000-8000-0000000000ff/devtools/page/x'];
    for (const path of paths) {
      for (const value of hostile) {
        for (const auth of [`Bearer ${a.token}`, 'Bearer nonsense', '']) {
          // Refused over HTTP (a 4xx, then the server ends the connection), or accepted and then closed by
          // the server with a 4xxx close code (the viewer socket reports a refusal after the upgrade).
          const outcome = await new Promise<{ status: number; closeCode?: number }>((resolve, reject) => {
            const socket = connect(Number(port), '127.0.0.1');
            let data = Buffer.alloc(0);
            let status = 0;
            let sentToken = false;
            const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no end to ${path}${value.slice(0, 40)} (status ${status})`))), 10_000);
            const done = (result: { status: number; closeCode?: number }) => (clearTimeout(timer), socket.destroy(), resolve(result));
            socket.on('data', (chunk: Buffer) => {
              data = Buffer.concat([data, chunk]);
              const end = data.indexOf('\r\n\r\n');
              if (end < 0) return;
              status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data.toString('latin1'))?.[1] ?? 0);
              if (status !== 101) return;
              // Without credentials the viewer socket waits for a token as its first message: send a forged one.
              if (!auth && !sentToken) {
                sentToken = true;
                socket.write(maskedText(JSON.stringify({ type: 'auth', token: 'forged.token.value' })));
              }
              // Walk the server's frames (unmasked) to its close frame, if it came yet.
              let at = end + 4;
              while (at + 2 <= data.length) {
                const opcode = data[at]! & 0x0f;
                let length = data[at + 1]! & 0x7f;
                let head = 2;
                if (length === 126) {
                  if (at + 4 > data.length) return;
                  length = data.readUInt16BE(at + 2);
                  head = 4;
                }
                if (at + head + length > data.length) return;
                if (opcode === 8) return done({ status, closeCode: length >= 2 ? data.readUInt16BE(at + head) : 0 });
                at += head + length;
              }
            });
            socket.on('close', () => done({ status }));
            socket.on('error', () => undefined);
            socket.write(
              `GET ${path}${value} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
                (auth ? `Authorization: ${auth}\r\nX-Workspace-Id: ${a.workspaceId}\r\n` : '') +
                '\r\n',
            );
          });
          const refused = (outcome.status >= 400 && outcome.status < 500) || (outcome.status === 101 && (outcome.closeCode ?? 0) >= 4000);
          expect([path + value.slice(0, 40), outcome, refused]).toEqual([path + value.slice(0, 40), outcome, true]);
        }
      }
    }
  });
});
