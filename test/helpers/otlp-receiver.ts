import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as a receiver got it, whichever the encoding. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** `service.name` of the resource that sent it. */
  service: string;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The span contexts it links to (other traces' spans), in order. */
  links: { traceId: string; spanId: string }[];
  /** How it arrived. */
  encoding: 'json' | 'protobuf';
}

export interface OtlpReceiver {
  /** The base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`); spans are posted to `/v1/traces` under it. */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

// --- OTLP/protobuf, decoded by hand from the wire format (the exporter's encoding is what is tested) ---

type Raw = { field: number; value: number | Uint8Array };

function varint(buf: Uint8Array, at: number): [number, number] {
  let result = 0;
  let factor = 1;
  for (;;) {
    const byte = buf[at++]!;
    result += (byte & 0x7f) * factor;
    factor *= 128;
    if (byte < 0x80) return [result, at];
  }
}

/** The fields of one protobuf message, in order (fixed-width values as their raw bytes). */
function fieldsOf(buf: Uint8Array): Raw[] {
  const out: Raw[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = varint(buf, at);
    at = next;
    const field = Math.floor(key / 8);
    switch (key & 7) {
      case 0: {
        const [value, after] = varint(buf, at);
        out.push({ field, value });
        at = after;
        break;
      }
      case 1:
        out.push({ field, value: buf.subarray(at, at + 8) });
        at += 8;
        break;
      case 2: {
        const [length, after] = varint(buf, at);
        out.push({ field, value: buf.subarray(after, after + length) });
        at = after + length;
        break;
      }
      case 5:
        out.push({ field, value: buf.subarray(at, at + 4) });
        at += 4;
        break;
      default:
        throw new Error(`protobuf wire type ${key & 7} is not OTLP's`);
    }
  }
  return out;
}

const all = (raw: Raw[], field: number) => raw.filter((r) => r.field === field).map((r) => r.value);
const bytesOf = (raw: Raw[], field: number) => (all(raw, field)[0] as Uint8Array | undefined) ?? new Uint8Array();
const text = (raw: Raw[], field: number) => new TextDecoder().decode(bytesOf(raw, field));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function anyValue(raw: Raw[]): unknown {
  for (const r of raw) {
    if (r.field === 1) return new TextDecoder().decode(r.value as Uint8Array);
    if (r.field === 2 || r.field === 3) return r.field === 2 ? r.value === 1 : r.value;
    if (r.field === 4) return Buffer.from(r.value as Uint8Array).readDoubleLE(0);
  }
  return undefined;
}

const attributesOf = (raw: Raw[], field: number) =>
  Object.fromEntries(all(raw, field).map((kv) => fieldsOf(kv as Uint8Array)).map((kv) => [text(kv, 1), anyValue(fieldsOf(bytesOf(kv, 2)))]));

function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of all(fieldsOf(body), 1).map((b) => fieldsOf(b as Uint8Array))) {
    const service = String(attributesOf(fieldsOf(bytesOf(rs, 1)), 1)['service.name'] ?? '');
    for (const ss of all(rs, 2).map((b) => fieldsOf(b as Uint8Array))) {
      for (const s of all(ss, 2).map((b) => fieldsOf(b as Uint8Array))) {
        const status = fieldsOf(bytesOf(s, 15));
        spans.push({
          traceId: hex(bytesOf(s, 1)),
          spanId: hex(bytesOf(s, 2)),
          parentSpanId: hex(bytesOf(s, 4)),
          name: text(s, 5),
          kind: Number(all(s, 6)[0] ?? 0),
          service,
          attributes: attributesOf(s, 9),
          statusCode: Number(all(status, 3)[0] ?? 0),
          links: all(s, 13).map((b) => fieldsOf(b as Uint8Array)).map((l) => ({ traceId: hex(bytesOf(l, 1)), spanId: hex(bytesOf(l, 2)) })),
          encoding: 'protobuf',
        });
      }
    }
  }
  return spans;
}

// --- OTLP/JSON ---

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number };
  links?: { traceId: string; spanId: string }[];
}

/** OTLP/JSON ids are hex; a base64 one (protobuf's JSON mapping) is turned to hex. */
const idOf = (id: string | undefined) => (!id ? '' : /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));
const jsonAttributes = (list: JsonKeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue)]));

function decodeJson(body: Uint8Array): ReceivedSpan[] {
  const request = JSON.parse(new TextDecoder().decode(body)) as { resourceSpans?: { resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[] };
  return (request.resourceSpans ?? []).flatMap((rs) => {
    const service = String(jsonAttributes(rs.resource?.attributes)['service.name'] ?? '');
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: idOf(s.traceId),
        spanId: idOf(s.spanId),
        parentSpanId: idOf(s.parentSpanId),
        name: s.name,
        kind: s.kind ?? 0,
        service,
        attributes: jsonAttributes(s.attributes),
        statusCode: s.status?.code ?? 0,
        links: (s.links ?? []).map((l) => ({ traceId: idOf(l.traceId), spanId: idOf(l.spanId) })),
        encoding: 'json' as const,
      })),
    );
  });
}

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 (port 0): `POST /v1/traces` in `application/json` or
 * `application/x-protobuf`, each span kept as it was decoded. Anything else is refused with 415/404.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
      const body = new Uint8Array(Buffer.concat(chunks));
      try {
        if (type === 'application/json') spans.push(...decodeJson(body));
        else if (type === 'application/x-protobuf') spans.push(...decodeProtobuf(body));
        else return void res.writeHead(415).end();
      } catch (err) {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
      }
      res.writeHead(200, { 'content-type': type }).end(type === 'application/json' ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
