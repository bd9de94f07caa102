import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { client, signUpCompany, type Client } from '#test/helpers/org-api.js';
import { rsyslogAvailable, startRsyslog, type TestSyslog } from '#test/helpers/rsyslog.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * The audit history shipped to the installation's SIEM: Debian's rsyslogd listening with TLS (octet
 * counting) and a Splunk-HEC-shaped HTTP collector receive every audited event of a scripted day as the
 * export lists it, across a restart of the platform and one of rsyslog (duplicates allowed, none missing).
 */
let server: TestServer | null = null;
let dataDir = '';
let syslog: TestSyslog;
let collector: Server;
let collectorUrl = '';
const HEC_TOKEN = 'hec-token-0123456789';
const METRICS_TOKEN = 'metrics-token-0123456789';
/** The collector's answers: the first request is refused (503), so the shipping must try again. */
let requests = 0;
const hecEvents: { time: number; sourcetype: string; event: Record<string, unknown> }[] = [];
let wrongToken = 0;

beforeAll(async () => {
  syslog = await startRsyslog();
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.headers.authorization !== `Splunk ${HEC_TOKEN}`) {
        wrongToken++;
        res.writeHead(401).end('{"text":"Invalid token","code":4}');
        return;
      }
      if (++requests === 1) {
        res.writeHead(503).end('{"text":"Server is busy","code":9}');
        return;
      }
      for (const line of body.split('\n').filter((l) => l !== '')) hecEvents.push(JSON.parse(line));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as { port: number }).port}/services/collector/event`;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await syslog?.close();
  await new Promise((resolve) => collector?.close(resolve));
});

const env = () => ({
  AGENT_ENABLED: 'false',
  METRICS_TOKEN,
  AUDIT_SYSLOG_URL: syslog.url,
  AUDIT_SYSLOG_CA: syslog.caFile,
  AUDIT_HTTP_URL: collectorUrl,
  AUDIT_HTTP_TOKEN: HEC_TOKEN,
  AUDIT_HTTP_FORMAT: 'splunk-hec',
});

type Target = { kind: string; host: string; position: string; backlog: number; lastError: string | null; lastShippedAt: string | null };
const shipping = async (org: Client) => {
  const r = await org.get('/audit/shipping');
  expect(r.status).toBe(200);
  return Object.fromEntries((r.body.targets as Target[]).map((t) => [t.kind, t])) as Record<'syslog' | 'http', Target>;
};
/** Until the company's backlog at `kind` is empty. */
const shipped = (org: Client, kind: 'syslog' | 'http') => eventually(async () => ((await shipping(org))[kind].backlog === 0 ? true : undefined), { what: `the ${kind} backlog empty`, timeoutMs: 30_000 });

/** A received syslog message: its header fields, structured data and MSG. */
function parse(raw: string) {
  const m = /^<(\d+)>1 (\S+) (\S+) (\S+) (\S+) (\S+) \[audit@32473 ((?:[^\]"]|"(?:[^"\\]|\\.)*")*)\] (.*)$/.exec(raw);
  if (!m) throw new Error(`not an RFC 5424 audit message: ${raw.slice(0, 200)}`);
  const sd = Object.fromEntries([...m[7]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((p) => [p[1], p[2]!.replace(/\\(.)/g, '$1')]));
  return { pri: Number(m[1]), timestamp: m[2], app: m[4], msgid: m[6], sd, msg: JSON.parse(m[8]!) as Record<string, unknown> };
}

it('ships every audited event of a day to rsyslog over TLS and to a collector, across a restart of each', { timeout: 240_000 }, async () => {
  if (!rsyslogAvailable) throw new Error('rsyslog with TLS is needed (apt-get install rsyslog rsyslog-openssl)');
  server = await startTestServer(env());
  dataDir = server.dataDir;
  const a = await signUpCompany(server.url, 'siem');
  let org = client(server.url, a.token);
  const invited = await org.post('/users/invite', { email: 'auditor@siem.test', roleIds: [] });
  expect(invited.status).toBe(201);
  expect((await org.post('/workspaces', { name: 'Shipped' })).status).toBe(201);
  await shipped(org, 'syslog');

  // The platform stops and starts again on the same data: the shipping follows on from its position.
  await server.process.stop();
  server = await startTestServer({ ...env(), DATA_DIR: dataDir });
  org = client(server.url, (await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: a.email, password: a.password } })).body.token);
  const member = (await org.get('/roles')).body.find((r: { name: string }) => r.name === 'Member').id;
  expect((await org.put(`/users/${invited.body.id}/roles`, { roleIds: [member] })).status).toBe(200);
  expect((await org.post('/teams', { name: 'Auditors' })).status).toBe(201);
  await shipped(org, 'syslog');

  // rsyslog stops: what happens meanwhile waits, the state says why, and it goes once rsyslog is back.
  await syslog.stop();
  const ws = (await org.post('/workspaces', { name: 'While syslog was down' })).body.id;
  expect((await org.put(`/workspaces/${ws}/archive`)).status).toBeLessThan(300);
  const waiting = await eventually(async () => {
    const t = (await shipping(org)).syslog;
    return t.backlog > 0 && t.lastError ? t : undefined;
  }, { what: 'the syslog target waiting with its error' });
  expect(waiting).toMatchObject({ host: new URL(syslog.url).host });
  const metrics = await fetch(new URL('/metrics', server.url), { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
  expect(Number(/^qa_audit_shipping_backlog_events\{kind="syslog"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  expect(Number(/^qa_audit_shipping_failures_total\{kind="syslog"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  await syslog.start();
  expect((await org.post('/teams', { name: 'After syslog came back' })).status).toBe(201);

  // Every event of the export is at rsyslog, as the export lists it, with its place in the chain.
  const exported = (await (await fetch(new URL('/api/v1/audit/events/export?format=ndjson', server.url), { headers: { authorization: `Bearer ${a.token}` } })).text())
    .split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown> & { position: string; eventType: string });
  // The export is read before the last sign-in's own events may have been shipped: poll until all are in.
  expect(exported.length).toBeGreaterThan(8);
  const bundle = (await (await fetch(new URL('/api/v1/audit/bundle', server.url), { headers: { authorization: `Bearer ${a.token}` } })).text())
    .split('\n').filter((l) => l !== '').slice(1).map((l) => JSON.parse(l)).filter((i) => 'event' in i).map((i) => i.event as { seq: number; position: string; hash: string });
  const chainAt = new Map(bundle.map((e) => [e.position, e]));
  const received = await eventually(async () => {
    const byPosition = new Map(syslog.messages().map(parse).map((m) => [m.sd.position, m]));
    return exported.every((e) => byPosition.has(e.position)) ? byPosition : undefined;
  }, { what: 'every exported event at rsyslog', timeoutMs: 60_000 });
  // Names are the directory's when the event was shipped (the export reads them now): an actor registered
  // by a later event of the same sign-up is unnamed at shipping. Everything else is as the export has it.
  const NAMES = ['actorName', 'actorEmail', 'subjectName', 'subjectEmail'];
  const unnamed = (x: Record<string, unknown>) => Object.fromEntries(Object.entries(x).filter(([k]) => !NAMES.includes(k)));
  for (const e of exported) {
    const m = received.get(e.position)!;
    expect(unnamed(m.msg), e.eventType).toEqual(unnamed(e));
    for (const k of NAMES) if (m.msg[k] !== null) expect(m.msg[k]).toEqual(e[k]);
    expect([m.pri, m.app, m.msgid, m.timestamp]).toEqual([109, 'qa-platform', e.eventType.slice(0, 32), e.occurredAt]);
    expect(m.sd).toMatchObject({ companyId: String(a.companyId), resourceType: e.resourceType, resourceId: e.resourceId, position: e.position });
    const link = chainAt.get(e.position);
    if (link) expect([m.sd.chainSeq, m.sd.chainHash]).toEqual([String(link.seq), link.hash]);
  }
  expect(exported.filter((e) => chainAt.has(e.position)).length).toBeGreaterThan(8);

  // The collector, in Splunk HEC's shape, with the token; its first refusal was tried again.
  const atCollector = await eventually(async () => {
    const byPosition = new Map(hecEvents.map((h) => [String(h.event.position), h]));
    return exported.every((e) => byPosition.has(e.position)) ? byPosition : undefined;
  }, { what: 'every exported event at the collector', timeoutMs: 30_000 });
  for (const e of exported) {
    const h = atCollector.get(e.position)!;
    expect(h).toMatchObject({ sourcetype: 'qa-platform:audit', time: Date.parse(String(e.occurredAt)) / 1000, event: { ...unnamed(e), companyId: a.companyId } });
  }
  expect(wrongToken).toBe(0);
  expect(requests).toBeGreaterThan(1);
});
