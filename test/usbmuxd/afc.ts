import type { Socket } from 'node:net';

/** Paths of the media area to file contents (folders are null). */
export type AfcFileSystem = Map<string, Buffer | null>;

const MAGIC = Buffer.from('CFA6LPAA');
const HEADER = 40;
const OP = {
  STATUS: 0x01,
  DATA: 0x02,
  READ_DIR: 0x03,
  REMOVE_PATH: 0x08,
  MAKE_DIR: 0x09,
  GET_FILE_INFO: 0x0a,
  GET_DEVINFO: 0x0b,
  FILE_OPEN: 0x0d,
  FILE_OPEN_RES: 0x0e,
  FILE_READ: 0x0f,
  FILE_WRITE: 0x10,
  FILE_CLOSE: 0x14,
  REMOVE_PATH_AND_CONTENTS: 0x22,
} as const;
const ERR = { SUCCESS: 0, INVALID_ARGUMENT: 7, OBJECT_NOT_FOUND: 8, OBJECT_IS_DIRECTORY: 9, OBJECT_EXISTS: 16 } as const;

const normal = (path: string) => {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (!p || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
};
const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';

/**
 * The AFC service over an in-memory media area: packets of a 40-byte header (magic `CFA6LPAA`, entire
 * length, header length, packet number, operation; 64-bit little-endian) and a body.
 */
export class AfcServer {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly handles = new Map<number, { path: string; offset: number; writable: boolean }>();
  private nextHandle = 1;

  constructor(
    private readonly fs: AfcFileSystem,
    private readonly socket: Socket,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= HEADER) {
      if (!this.buffer.subarray(0, 8).equals(MAGIC)) {
        this.socket.destroy();
        return;
      }
      const entire = Number(this.buffer.readBigUInt64LE(8));
      if (this.buffer.length < entire) return;
      const thisLength = Number(this.buffer.readBigUInt64LE(16));
      const packet = Number(this.buffer.readBigUInt64LE(24));
      const op = Number(this.buffer.readBigUInt64LE(32));
      const header = this.buffer.subarray(HEADER, thisLength);
      const content = this.buffer.subarray(thisLength, entire);
      this.buffer = this.buffer.subarray(entire);
      this.handle(packet, op, Buffer.from(header), Buffer.from(content));
    }
  }

  private send(packet: number, op: number, header: Buffer, content: Buffer = Buffer.alloc(0)): void {
    const out = Buffer.alloc(HEADER);
    MAGIC.copy(out);
    out.writeBigUInt64LE(BigInt(HEADER + header.length + content.length), 8);
    out.writeBigUInt64LE(BigInt(HEADER + header.length), 16);
    out.writeBigUInt64LE(BigInt(packet), 24);
    out.writeBigUInt64LE(BigInt(op), 32);
    this.socket.write(Buffer.concat([out, header, content]));
  }

  private status(packet: number, code: number): void {
    const h = Buffer.alloc(8);
    h.writeBigUInt64LE(BigInt(code));
    this.send(packet, OP.STATUS, h);
  }

  private data(packet: number, content: Buffer): void {
    this.send(packet, OP.DATA, Buffer.alloc(0), content);
  }

  private handle(packet: number, op: number, header: Buffer, content: Buffer): void {
    const pathOf = (b: Buffer) => normal(b.toString('utf8').replace(/\0+$/, ''));
    switch (op) {
      case OP.GET_DEVINFO:
        return this.data(packet, strings(['Model', 'iPhone', 'FSTotalBytes', '64000000000', 'FSFreeBytes', '32000000000', 'FSBlockSize', '4096']));
      case OP.MAKE_DIR: {
        const path = pathOf(header);
        let p = '';
        for (const part of path.split('/').filter(Boolean)) {
          p += `/${part}`;
          if (this.fs.get(p) instanceof Buffer) return this.status(packet, ERR.OBJECT_EXISTS);
          if (!this.fs.has(p)) this.fs.set(p, null);
        }
        return this.status(packet, ERR.SUCCESS);
      }
      case OP.READ_DIR: {
        const path = pathOf(header);
        if (this.fs.get(path) !== null) return this.status(packet, ERR.OBJECT_NOT_FOUND);
        const names = [...this.fs.keys()].filter((k) => k !== '/' && parentOf(k) === path).map((k) => k.slice(k.lastIndexOf('/') + 1));
        return this.data(packet, strings(['.', '..', ...names]));
      }
      case OP.GET_FILE_INFO: {
        const path = pathOf(header);
        if (!this.fs.has(path)) return this.status(packet, ERR.OBJECT_NOT_FOUND);
        const body = this.fs.get(path);
        const ns = `${Date.now()}000000`;
        return this.data(packet, strings(['st_size', String(body ? body.length : 64), 'st_blocks', '8', 'st_nlink', '1', 'st_ifmt', body ? 'S_IFREG' : 'S_IFDIR', 'st_mtime', ns, 'st_birthtime', ns]));
      }
      case OP.REMOVE_PATH:
      case OP.REMOVE_PATH_AND_CONTENTS: {
        const path = pathOf(header);
        if (!this.fs.has(path) || path === '/') return this.status(packet, ERR.OBJECT_NOT_FOUND);
        const children = [...this.fs.keys()].filter((k) => k.startsWith(`${path}/`));
        if (children.length > 0 && op === OP.REMOVE_PATH) return this.status(packet, ERR.INVALID_ARGUMENT);
        for (const k of [path, ...children]) this.fs.delete(k);
        return this.status(packet, ERR.SUCCESS);
      }
      case OP.FILE_OPEN: {
        const mode = Number(header.readBigUInt64LE(0));
        const path = pathOf(header.subarray(8));
        const existing = this.fs.get(path);
        if (existing === null) return this.status(packet, ERR.OBJECT_IS_DIRECTORY);
        if (this.fs.get(parentOf(path)) !== null) return this.status(packet, ERR.OBJECT_NOT_FOUND);
        const writable = mode !== 1;
        if (mode === 1 && !existing) return this.status(packet, ERR.OBJECT_NOT_FOUND);
        if (mode === 3 || mode === 4 || !existing) this.fs.set(path, Buffer.alloc(0));
        const handle = this.nextHandle++;
        this.handles.set(handle, { path, offset: mode === 5 || mode === 6 ? (this.fs.get(path) as Buffer).length : 0, writable });
        const h = Buffer.alloc(8);
        h.writeBigUInt64LE(BigInt(handle));
        return this.send(packet, OP.FILE_OPEN_RES, h);
      }
      case OP.FILE_WRITE: {
        const file = this.handles.get(Number(header.readBigUInt64LE(0)));
        if (!file || !file.writable) return this.status(packet, ERR.INVALID_ARGUMENT);
        const body = this.fs.get(file.path) ?? Buffer.alloc(0);
        const grown = Buffer.alloc(Math.max(body.length, file.offset + content.length));
        body.copy(grown);
        content.copy(grown, file.offset);
        this.fs.set(file.path, grown);
        file.offset += content.length;
        return this.status(packet, ERR.SUCCESS);
      }
      case OP.FILE_READ: {
        const file = this.handles.get(Number(header.readBigUInt64LE(0)));
        if (!file) return this.status(packet, ERR.INVALID_ARGUMENT);
        const length = Number(header.readBigUInt64LE(8));
        const body = this.fs.get(file.path) ?? Buffer.alloc(0);
        const piece = body.subarray(file.offset, file.offset + length);
        file.offset += piece.length;
        return this.data(packet, Buffer.from(piece));
      }
      case OP.FILE_CLOSE:
        this.handles.delete(Number(header.readBigUInt64LE(0)));
        return this.status(packet, ERR.SUCCESS);
      default:
        return this.status(packet, ERR.INVALID_ARGUMENT);
    }
  }
}

const strings = (values: string[]) => Buffer.concat(values.map((v) => Buffer.from(`${v}\0`)));
