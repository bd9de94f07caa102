/*
 * What watches an installation from outside its processes, run as a child process of the metrics-cost
 * step so that none of its work lands on the server measured: the OTLP/HTTP receiver the server's
 * tracing exports to (it counts the bytes and answers at once, as a collector would) and the Prometheus
 * stand-in that scrapes `/metrics` once a second. It answers `{endpoint}` once listening, then each
 * message with one answer: `{scrape: url}` starts scraping (`{scraping}`), `{stop: true}` stops it and
 * answers `{scrapes, bytes}` since that start; `{count: true}` starts counting the bytes without scraping.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the parent asks; what it is answered. */
export type ObserverRequest = { scrape: string } | { count: true } | { stop: true };
export type ObserverAnswer = { endpoint: string } | { scraping: true } | { scrapes: number; bytes: number };

let bytes = 0;
let scrapes = 0;
let scraper: NodeJS.Timeout | null = null;
const answer = (message: ObserverAnswer) => process.send?.(message);

const sink = createServer((req, res) => {
  req.on('data', (c: Buffer) => (bytes += c.length));
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
sink.listen(0, '127.0.0.1', () => answer({ endpoint: `http://127.0.0.1:${(sink.address() as AddressInfo).port}` }));

// A helper whose bench is gone (ended or killed) ends too.
process.on('disconnect', () => process.exit(0));
process.on('message', (message: ObserverRequest) => {
  if (scraper) clearInterval(scraper);
  scraper = null;
  if ('scrape' in message || 'count' in message) {
    // A slice's figures: the scrapes and the OTLP bytes since it began. `count` only counts the bytes
    // (the metrics-instructions step scrapes once a window itself).
    scrapes = 0;
    bytes = 0;
    // A scrape still in flight when the slice ends is not counted.
    if ('scrape' in message) scraper = setInterval(() => void fetch(message.scrape).then((r) => r.text()).then(() => scrapes++, () => undefined), 1_000);
    answer({ scraping: true });
    return;
  }
  answer({ scrapes, bytes });
});
