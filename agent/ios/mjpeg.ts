import type { Duplex } from 'node:stream';

const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_BUFFER = 32 * 1024 * 1024;

/**
 * Reads an MJPEG stream (`multipart/x-mixed-replace`, WebDriverAgent's MJPEG server): the HTTP answer's
 * header, then parts of a header with `Content-Length` and a JPEG. Each complete JPEG goes to `onFrame`;
 * while `onFrame` is busy the newest frame waits and older ones are dropped (a live screen wants the
 * latest picture, not a queue). Settles when the stream ends.
 */
export function readMjpeg(stream: Duplex, onFrame: (jpeg: Buffer) => Promise<void>): Promise<void> {
  let buffer: Buffer = Buffer.alloc(0);
  let busy = false;
  let waiting: Buffer | null = null;

  const deliver = (jpeg: Buffer) => {
    if (busy) {
      waiting = jpeg;
      return;
    }
    busy = true;
    void onFrame(jpeg)
      .catch(() => undefined)
      .finally(() => {
        busy = false;
        const next = waiting;
        waiting = null;
        if (next) deliver(next);
      });
  };

  const parse = () => {
    for (;;) {
      // Blank lines between parts.
      let start = 0;
      while (buffer.length >= start + 2 && buffer[start] === 0x0d && buffer[start + 1] === 0x0a) start += 2;
      if (start > 0) buffer = buffer.subarray(start);
      const end = buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const header = buffer.subarray(0, end).toString('latin1');
      if (/^HTTP\/\d/.test(header)) {
        buffer = buffer.subarray(end + 4);
        continue;
      }
      const length = /content-length:\s*(\d+)/i.exec(header);
      if (length) {
        const size = Number(length[1]);
        if (buffer.length < end + 4 + size) return;
        deliver(Buffer.from(buffer.subarray(end + 4, end + 4 + size)));
        buffer = buffer.subarray(end + 4 + size);
        continue;
      }
      // No length: the JPEG runs to its end marker.
      const soi = buffer.indexOf(Buffer.from([0xff, 0xd8]), end + 4);
      const eoi = soi < 0 ? -1 : buffer.indexOf(Buffer.from([0xff, 0xd9]), soi + 2);
      if (eoi < 0) return;
      deliver(Buffer.from(buffer.subarray(soi, eoi + 2)));
      buffer = buffer.subarray(eoi + 2);
    }
  };

  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      if (buffer.length > MAX_BUFFER) {
        stream.destroy(new Error('MJPEG stream: a part larger than 32 MiB'));
        return;
      }
      parse();
    });
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', reject);
  });
}
