// Docker's multiplexed stdout/stderr stream format and line splitting. Pure, incremental.
//
// A non-TTY container's logs (and a non-TTY exec's output) come as frames: an 8-byte header
// [stream(1=stdout, 2=stderr), 0, 0, 0, size(uint32 big-endian)] then `size` bytes. A TTY
// container's output is raw.

export type StreamKind = 'stdout' | 'stderr';

/** True when `buf` starts like a multiplexed frame header (stream 0/1/2, three zero bytes). */
export function looksMultiplexed(buf: Buffer): boolean {
  return buf.length >= 8 && buf[0] <= 2 && buf[1] === 0 && buf[2] === 0 && buf[3] === 0;
}

/**
 * Incremental demultiplexer. `mode`: 'multiplexed', 'raw', or 'auto' (decided on the first 8
 * bytes: a TTY stream starting with bytes 00-02 00 00 00 does not happen in practice).
 */
export class Demuxer {
  private pending: Buffer = Buffer.alloc(0);
  private mode: 'multiplexed' | 'raw' | 'auto';

  constructor(
    private readonly emit: (kind: StreamKind, chunk: Buffer) => void,
    mode: 'multiplexed' | 'raw' | 'auto' = 'auto',
  ) {
    this.mode = mode;
  }

  push(chunk: Buffer): void {
    if (this.mode === 'raw') {
      if (chunk.length > 0) this.emit('stdout', chunk);
      return;
    }
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    if (this.mode === 'auto') {
      if (this.pending.length < 8) return;
      this.mode = looksMultiplexed(this.pending) ? 'multiplexed' : 'raw';
      if (this.mode === 'raw') {
        const all = this.pending;
        this.pending = Buffer.alloc(0);
        this.emit('stdout', all);
        return;
      }
    }
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) break;
      const kind: StreamKind = this.pending[0] === 2 ? 'stderr' : 'stdout';
      const payload = this.pending.subarray(8, 8 + size);
      this.pending = this.pending.subarray(8 + size);
      if (payload.length > 0) this.emit(kind, payload);
    }
  }

  /** Flushes what is left (a short raw stream in auto mode, or a truncated frame's bytes). */
  end(): void {
    if (this.pending.length === 0) return;
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    if (this.mode === 'multiplexed') {
      if (rest.length > 8) this.emit(rest[0] === 2 ? 'stderr' : 'stdout', rest.subarray(8));
    } else {
      this.emit('stdout', rest);
    }
  }
}

/** Demultiplexes a whole buffer (auto-detecting the format); chunks in order. */
export function demuxAll(buf: Buffer, mode: 'multiplexed' | 'raw' | 'auto' = 'auto'): { kind: StreamKind; data: Buffer }[] {
  const out: { kind: StreamKind; data: Buffer }[] = [];
  const d = new Demuxer((kind, data) => out.push({ kind, data }), mode);
  d.push(buf);
  d.end();
  return out;
}

/** Splits text into lines: `\n` (or `\r\n`) terminated; a final unterminated piece is a line too. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Incremental line splitter for followed logs; each stream keeps its own partial line. */
export class LineSplitter {
  private partial = new Map<StreamKind, string>();

  /** `unterminated`: end() delivers a line the stream did not end with a newline. */
  constructor(private readonly onLine: (line: string, kind: StreamKind, unterminated?: boolean) => void) {}

  push(kind: StreamKind, chunk: Buffer | string): void {
    const text = (this.partial.get(kind) ?? '') + chunk.toString();
    const parts = text.split('\n');
    this.partial.set(kind, parts.pop() ?? '');
    for (const p of parts) this.onLine(p.endsWith('\r') ? p.slice(0, -1) : p, kind);
  }

  /** Whether end() delivered a line the stream did not end with a newline (the last one it delivered). */
  endedUnterminated = false;

  end(): void {
    for (const [kind, rest] of this.partial) {
      if (rest === '') continue;
      this.onLine(rest, kind, true);
      this.endedUnterminated = true;
    }
    this.partial.clear();
  }
}
