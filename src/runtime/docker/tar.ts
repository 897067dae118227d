// Minimal incremental reader of the FIRST entry of a tar stream (what Docker's
// GET /containers/{id}/archive returns for a single file). Understands ustar/GNU headers, PAX
// extended headers (`path`, `linkpath`, `size`) and GNU long names. Keeps only the last
// `maxBytes` of the content, like the kubelet's tail.ReadAtMost for termination messages. Pure.

const BLOCK = 512;

export interface TarEntry {
  name: string;
  /** '0' file, '2' symlink, '5' directory, … (typeflag). */
  type: string;
  size: number;
  linkname: string;
  /** The last `maxBytes` bytes of the content (files only). */
  content: Buffer;
  /** True when the content was longer than maxBytes. */
  truncated: boolean;
}

function cstr(buf: Buffer, start: number, len: number): string {
  const b = buf.subarray(start, start + len);
  const nul = b.indexOf(0);
  return (nul === -1 ? b : b.subarray(0, nul)).toString('utf8');
}

function octal(buf: Buffer, start: number, len: number): number {
  const b = buf.subarray(start, start + len);
  if (b[0] & 0x80) {
    // GNU base-256 encoding
    let n = 0;
    for (let i = 1; i < b.length; i++) n = n * 256 + b[i];
    return n;
  }
  const s = cstr(buf, start, len).trim();
  return s === '' ? 0 : Number.parseInt(s, 8);
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    if (sp === -1) break;
    const len = Number.parseInt(data.subarray(i, sp).toString('utf8'), 10);
    if (!Number.isFinite(len) || len <= 0) break;
    const rec = data.subarray(sp + 1, i + len - 1).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

function isZeroBlock(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

/** Push tar bytes in; `done` becomes true once the first real entry is complete (or the archive ended). */
export class FirstEntryReader {
  private buf: Buffer = Buffer.alloc(0);
  private header: { name: string; type: string; size: number; linkname: string } | null = null;
  private remaining = 0;
  private paddedRemaining = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private seen = 0;
  private ext: { path?: string; linkpath?: string; size?: number } = {};
  /** Meta-entry (pax/GNU long name) being collected. */
  private meta: { type: string; size: number } | null = null;
  done = false;
  entry: TarEntry | null = null;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    if (this.done) return;
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      if (this.done) return;
      if (this.header) {
        if (!this.consumeContent()) return;
        continue;
      }
      if (this.meta) {
        const padded = Math.ceil(this.meta.size / BLOCK) * BLOCK;
        if (this.buf.length < padded) return;
        const data = this.buf.subarray(0, this.meta.size);
        if (this.meta.type === 'x') {
          const pax = parsePax(data);
          if (pax.path) this.ext.path = pax.path;
          if (pax.linkpath) this.ext.linkpath = pax.linkpath;
          if (pax.size) this.ext.size = Number.parseInt(pax.size, 10);
        } else if (this.meta.type === 'L') {
          this.ext.path = cstr(data, 0, data.length);
        } else if (this.meta.type === 'K') {
          this.ext.linkpath = cstr(data, 0, data.length);
        }
        this.buf = this.buf.subarray(padded);
        this.meta = null;
        continue;
      }
      if (this.buf.length < BLOCK) return;
      const h = this.buf.subarray(0, BLOCK);
      this.buf = this.buf.subarray(BLOCK);
      if (isZeroBlock(h)) {
        this.done = true;
        return;
      }
      const type = String.fromCharCode(h[156] || 0x30);
      const size = octal(h, 124, 12);
      if (type === 'x' || type === 'g' || type === 'L' || type === 'K') {
        this.meta = { type, size };
        continue;
      }
      const prefix = cstr(h, 345, 155);
      const baseName = cstr(h, 0, 100);
      const name = this.ext.path ?? (prefix ? `${prefix}/${baseName}` : baseName);
      const linkname = this.ext.linkpath ?? cstr(h, 157, 100);
      const realSize = type === '0' || type === '\0' || type === '7' ? (this.ext.size ?? size) : 0;
      this.header = { name, type: type === '7' ? '0' : type, size: realSize, linkname };
      this.remaining = realSize;
      this.paddedRemaining = Math.ceil(realSize / BLOCK) * BLOCK;
      this.ext = {};
    }
  }

  /** Consumes content bytes; returns true when the entry is complete. */
  private consumeContent(): boolean {
    const h = this.header!;
    if (this.remaining > 0) {
      const n = Math.min(this.remaining, this.buf.length);
      if (n > 0) {
        this.keep(this.buf.subarray(0, n));
        this.buf = this.buf.subarray(n);
        this.remaining -= n;
        this.paddedRemaining -= n;
      }
      if (this.remaining > 0) return false;
    }
    // Padding is not needed to finish: the first entry is complete now.
    const content = Buffer.concat(this.tail);
    this.entry = {
      name: h.name,
      type: h.type,
      size: h.size,
      linkname: h.linkname,
      content: content.length > this.maxBytes ? content.subarray(content.length - this.maxBytes) : content,
      truncated: this.seen > this.maxBytes,
    };
    this.done = true;
    return true;
  }

  private keep(b: Buffer): void {
    this.seen += b.length;
    if (this.maxBytes <= 0) return;
    this.tail.push(Buffer.from(b));
    this.tailLen += b.length;
    while (this.tail.length > 1 && this.tailLen - this.tail[0].length >= this.maxBytes) {
      this.tailLen -= this.tail[0].length;
      this.tail.shift();
    }
  }
}

/** Reads the first entry of a whole tar archive. */
export function readFirstEntry(archive: Buffer, maxBytes: number): TarEntry | null {
  const r = new FirstEntryReader(maxBytes);
  r.push(archive);
  return r.entry;
}
