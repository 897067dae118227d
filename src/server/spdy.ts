// SPDY/3.1 as kubectl speaks it for exec, attach and port-forward (the server side of
// k8s.io/apimachinery/pkg/util/httpstream/spdy over github.com/moby/spdystream and its framer
// spdystream/spdy): the frame codec, the name/value header blocks with SPDY/3's zlib dictionary,
// and a server connection whose streams are Node Duplexes.
//
// Like spdystream, there is no flow control: WINDOW_UPDATE and SETTINGS are read and ignored, and
// no WINDOW_UPDATE is ever sent (spdystream neither sends nor honours them); back-pressure comes
// from the transport. Our own header blocks (the empty SYN_REPLY blocks) are zlib *stored* blocks
// after a zlib header naming the dictionary: a valid, byte-aligned zlib stream any inflater with
// the dictionary reads, with no compressor state to keep. The peer's blocks are inflated with one
// streaming zlib context per connection, as the protocol requires.
import { Duplex } from 'node:stream';
import { constants as zlibConstants, createInflate, type Inflate } from 'node:zlib';

// ---- the SPDY/3 header dictionary (spdystream/spdy/dictionary.go, the SPDY/3 draft §2.6.10.1) ----

const dictionaryWords = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset', 'accept-encoding',
  'accept-language', 'accept-ranges', 'age', 'allow', 'authorization', 'cache-control', 'connection',
  'content-base', 'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5',
  'content-range', 'content-type', 'date', 'etag', 'expect', 'expires', 'from', 'host', 'if-match',
  'if-modified-since', 'if-none-match', 'if-range', 'if-unmodified-since', 'last-modified', 'location',
  'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'retry-after',
  'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
  'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url', 'public',
  'set-cookie', 'keep-alive', 'origin',
];
const dictionaryTail =
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
  '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized403 Forbidden' +
  '404 Not Found500 Internal Server Error501 Not Implemented503 Service Unavailable' +
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT' +
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,text/javascript,' +
  'publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';

/** The 1423-byte dictionary: the HTTP words, each behind its 32-bit length, then the tail. */
export const SPDY3_DICTIONARY: Buffer = Buffer.concat([
  ...dictionaryWords.flatMap((w) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(w.length);
    return [len, Buffer.from(w, 'latin1')];
  }),
  Buffer.from(dictionaryTail, 'latin1'),
]);

export function adler32(buf: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < buf.length; i++) {
    a = (a + buf[i]) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

// ---- frames ---------------------------------------------------------------------------------

export const SPDY_VERSION = 3;

export const ControlType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

/** RST_STREAM status codes (spdystream/spdy/types.go). */
export const RstStatus = {
  ProtocolError: 1,
  InvalidStream: 2,
  RefusedStream: 3,
  UnsupportedVersion: 4,
  Cancel: 5,
  InternalError: 6,
  FlowControlError: 7,
  StreamInUse: 8,
  StreamAlreadyClosed: 9,
  InvalidCredentials: 10,
  FrameTooLarge: 11,
} as const;

export const GoAwayStatus = { OK: 0, ProtocolError: 1, InternalError: 2 } as const;

const FLAG_FIN = 0x01;
const FLAG_UNIDIRECTIONAL = 0x02;
const MAX_LENGTH = 0xffffff;

/** A decoded frame. Header-bearing frames keep their block compressed (decoding needs the connection's zlib context). */
export type Frame =
  | { type: 'data'; streamId: number; fin: boolean; data: Buffer }
  | { type: 'syn_stream'; streamId: number; associatedId: number; priority: number; slot: number; fin: boolean; unidirectional: boolean; headerBlock: Buffer }
  | { type: 'syn_reply'; streamId: number; fin: boolean; headerBlock: Buffer }
  | { type: 'rst_stream'; streamId: number; status: number }
  | { type: 'settings'; clear: boolean; entries: { flags: number; id: number; value: number }[] }
  | { type: 'ping'; id: number }
  | { type: 'goaway'; lastGoodStreamId: number; status: number }
  | { type: 'headers'; streamId: number; fin: boolean; headerBlock: Buffer }
  | { type: 'window_update'; streamId: number; delta: number }
  | { type: 'unknown'; version: number; controlType: number; flags: number; payload: Buffer };

export class SpdyProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpdyProtocolError';
  }
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_LENGTH) throw new SpdyProtocolError(`frame too large: ${payload.length}`);
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags & 0xff;
  return Buffer.concat([head, payload]);
}

function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

/** Encodes one frame (header blocks must already be compressed). */
export function encodeFrame(f: Frame): Buffer {
  switch (f.type) {
    case 'data': {
      if (f.data.length > MAX_LENGTH) throw new SpdyProtocolError(`frame too large: ${f.data.length}`);
      const head = Buffer.alloc(8);
      head.writeUInt32BE(f.streamId & 0x7fffffff, 0);
      head.writeUInt32BE(f.data.length, 4);
      head[4] = f.fin ? FLAG_FIN : 0;
      return Buffer.concat([head, f.data]);
    }
    case 'syn_stream': {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt32BE(f.streamId & 0x7fffffff, 0);
      fixed.writeUInt32BE(f.associatedId & 0x7fffffff, 4);
      fixed[8] = (f.priority & 0x7) << 5;
      fixed[9] = f.slot & 0xff;
      return controlFrame(ControlType.SynStream, (f.fin ? FLAG_FIN : 0) | (f.unidirectional ? FLAG_UNIDIRECTIONAL : 0), Buffer.concat([fixed, f.headerBlock]));
    }
    case 'syn_reply':
      return controlFrame(ControlType.SynReply, f.fin ? FLAG_FIN : 0, Buffer.concat([u32(f.streamId & 0x7fffffff), f.headerBlock]));
    case 'headers':
      return controlFrame(ControlType.Headers, f.fin ? FLAG_FIN : 0, Buffer.concat([u32(f.streamId & 0x7fffffff), f.headerBlock]));
    case 'rst_stream':
      return controlFrame(ControlType.RstStream, 0, u32(f.streamId & 0x7fffffff, f.status));
    case 'settings': {
      const body = Buffer.alloc(4 + 8 * f.entries.length);
      body.writeUInt32BE(f.entries.length, 0);
      f.entries.forEach((e, i) => {
        body.writeUInt32BE(((e.flags & 0xff) << 24 | (e.id & 0xffffff)) >>> 0, 4 + 8 * i);
        body.writeUInt32BE(e.value >>> 0, 8 + 8 * i);
      });
      return controlFrame(ControlType.Settings, f.clear ? 1 : 0, body);
    }
    case 'ping':
      return controlFrame(ControlType.Ping, 0, u32(f.id));
    case 'goaway':
      return controlFrame(ControlType.GoAway, 0, u32(f.lastGoodStreamId & 0x7fffffff, f.status));
    case 'window_update':
      return controlFrame(ControlType.WindowUpdate, 0, u32(f.streamId & 0x7fffffff, f.delta & 0x7fffffff));
    case 'unknown':
      return controlFrame(f.controlType, f.flags, f.payload);
  }
}

function decodeControl(version: number, type: number, flags: number, p: Buffer): Frame {
  const need = (n: number, what: string) => {
    if (p.length < n) throw new SpdyProtocolError(`invalid ${what} frame: ${p.length} bytes`);
  };
  switch (type) {
    case ControlType.SynStream:
      need(10, 'SYN_STREAM');
      return {
        type: 'syn_stream',
        streamId: p.readUInt32BE(0) & 0x7fffffff,
        associatedId: p.readUInt32BE(4) & 0x7fffffff,
        priority: p[8] >> 5,
        slot: p[9],
        fin: (flags & FLAG_FIN) !== 0,
        unidirectional: (flags & FLAG_UNIDIRECTIONAL) !== 0,
        headerBlock: p.subarray(10),
      };
    case ControlType.SynReply:
      need(4, 'SYN_REPLY');
      return { type: 'syn_reply', streamId: p.readUInt32BE(0) & 0x7fffffff, fin: (flags & FLAG_FIN) !== 0, headerBlock: p.subarray(4) };
    case ControlType.Headers:
      need(4, 'HEADERS');
      return { type: 'headers', streamId: p.readUInt32BE(0) & 0x7fffffff, fin: (flags & FLAG_FIN) !== 0, headerBlock: p.subarray(4) };
    case ControlType.RstStream:
      need(8, 'RST_STREAM');
      return { type: 'rst_stream', streamId: p.readUInt32BE(0) & 0x7fffffff, status: p.readUInt32BE(4) };
    case ControlType.Settings: {
      need(4, 'SETTINGS');
      const n = p.readUInt32BE(0);
      need(4 + 8 * n, 'SETTINGS');
      const entries = Array.from({ length: n }, (_, i) => {
        const idf = p.readUInt32BE(4 + 8 * i);
        return { flags: idf >>> 24, id: idf & 0xffffff, value: p.readUInt32BE(8 + 8 * i) };
      });
      return { type: 'settings', clear: (flags & 1) !== 0, entries };
    }
    case ControlType.Ping:
      need(4, 'PING');
      return { type: 'ping', id: p.readUInt32BE(0) };
    case ControlType.GoAway:
      need(8, 'GOAWAY');
      return { type: 'goaway', lastGoodStreamId: p.readUInt32BE(0) & 0x7fffffff, status: p.readUInt32BE(4) };
    case ControlType.WindowUpdate:
      need(8, 'WINDOW_UPDATE');
      return { type: 'window_update', streamId: p.readUInt32BE(0) & 0x7fffffff, delta: p.readUInt32BE(4) & 0x7fffffff };
    default:
      return { type: 'unknown', version, controlType: type, flags, payload: p };
  }
}

/** Incremental frame parser: push bytes as they come, get the complete frames. */
export class FrameParser {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: Frame[] = [];
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt32BE(4) & 0xffffff;
      if (this.pending.length < 8 + length) break;
      const flags = this.pending[4];
      const payload = this.pending.subarray(8, 8 + length);
      if (this.pending[0] & 0x80) {
        const version = this.pending.readUInt16BE(0) & 0x7fff;
        const type = this.pending.readUInt16BE(2);
        if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`);
        out.push(decodeControl(version, type, flags, Buffer.from(payload)));
      } else {
        const streamId = this.pending.readUInt32BE(0) & 0x7fffffff;
        if (streamId === 0) throw new SpdyProtocolError('stream id zero is disallowed');
        out.push({ type: 'data', streamId, fin: (flags & FLAG_FIN) !== 0, data: Buffer.from(payload) });
      }
      this.pending = this.pending.subarray(8 + length);
    }
    return out;
  }
}

// ---- header blocks --------------------------------------------------------------------------

/** SPDY header names are lower case; several values of one name travel NUL-separated. */
export type SpdyHeaders = Record<string, string[]>;

/** The uncompressed name/value block: count, then (length, name, length, value) per name (SPDY/3 §2.6.10). */
export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const names = Object.keys(headers);
  const parts: Buffer[] = [u32(names.length)];
  for (const name of names) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(headers[name].join('\0'), 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

/** Decodes one uncompressed block from the start of `buf`; null when `buf` does not hold all of it yet. */
export function decodeHeaderBlock(buf: Buffer): { headers: SpdyHeaders; length: number } | null {
  if (buf.length < 4) return null;
  const count = buf.readUInt32BE(0);
  let off = 4;
  const headers: SpdyHeaders = {};
  for (let i = 0; i < count; i++) {
    if (buf.length < off + 4) return null;
    const nl = buf.readUInt32BE(off);
    if (buf.length < off + 4 + nl + 4) return null;
    const name = buf.toString('utf8', off + 4, off + 4 + nl).toLowerCase();
    off += 4 + nl;
    const vl = buf.readUInt32BE(off);
    if (buf.length < off + 4 + vl) return null;
    const values = buf.toString('utf8', off + 4, off + 4 + vl).split('\0');
    off += 4 + vl;
    (headers[name] ??= []).push(...values);
  }
  return { headers, length: off };
}

/**
 * Compresses header blocks into one zlib stream made of stored (uncompressed) deflate blocks:
 * the zlib header with FDICT and the dictionary's Adler-32 first, then per block
 * `00 LEN NLEN data` and the sync-flush marker `00 00 00 ff ff`.
 */
export class HeaderCompressor {
  private started = false;

  compress(block: Buffer): Buffer {
    const parts: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      // CMF 0x78 (deflate, 32 KiB window); FLG 0x20 (FDICT; FLEVEL 0; 0x7820 % 31 == 0).
      parts.push(Buffer.from([0x78, 0x20]), u32(adler32(SPDY3_DICTIONARY)));
    }
    let off = 0;
    do {
      const piece = block.subarray(off, off + 0xffff);
      const head = Buffer.alloc(5);
      head[0] = 0; // BFINAL 0, BTYPE 00 (stored), then padding to the byte
      head.writeUInt16LE(piece.length, 1);
      head.writeUInt16LE(~piece.length & 0xffff, 3);
      parts.push(head, piece);
      off += piece.length;
    } while (off < block.length);
    // The empty stored block a sync flush ends with: Go's inflater hands out a stored block's
    // bytes only when it reaches the next block, which must therefore be in the same frame.
    if (block.length > 0) parts.push(Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]));
    return Buffer.concat(parts);
  }
}

/**
 * Inflates the peer's header blocks with one zlib context for the whole connection. Blocks are
 * decoded in order; `decode` calls back once the block's name/value pairs have all come out.
 */
export class HeaderDecompressor {
  private readonly inflate: Inflate;
  private out: Buffer = Buffer.alloc(0);
  private readonly waiting: ((err: Error | null, headers?: SpdyHeaders) => void)[] = [];
  private failed: Error | null = null;

  constructor() {
    this.inflate = createInflate({ dictionary: SPDY3_DICTIONARY, finishFlush: zlibConstants.Z_SYNC_FLUSH });
    this.inflate.on('data', (c: Buffer) => {
      this.out = this.out.length === 0 ? c : Buffer.concat([this.out, c]);
      this.deliver();
    });
    this.inflate.on('error', (e: Error) => {
      this.failed = e;
      for (const cb of this.waiting.splice(0)) cb(e);
    });
  }

  decode(compressed: Buffer, cb: (err: Error | null, headers?: SpdyHeaders) => void): void {
    if (this.failed) return cb(this.failed);
    this.waiting.push(cb);
    this.inflate.write(compressed);
    this.inflate.flush(zlibConstants.Z_SYNC_FLUSH);
  }

  private deliver(): void {
    while (this.waiting.length > 0) {
      const block = decodeHeaderBlock(this.out);
      if (!block) return;
      this.out = this.out.subarray(block.length);
      this.waiting.shift()!(null, block.headers);
    }
  }

  close(): void {
    this.inflate.destroy();
  }
}

// ---- the server connection ------------------------------------------------------------------

/** Where a connection's bytes go: a socket, or WebSocket messages (SPDY tunnelled in WebSocket). */
export interface SpdyTransport {
  /** false: buffered beyond the high-water mark; call SpdyConnection.drained() when it empties. */
  write(buf: Buffer): boolean;
  /** Ends the transport gracefully (after what was written). */
  end(): void;
  destroy(): void;
  pauseInput(): void;
  resumeInput(): void;
}

const DATA_CHUNK = 64 * 1024;

/** One SPDY stream opened by the peer, as a Duplex: reads are the peer's DATA, writes become ours; end() sends FIN. */
export class SpdyStream extends Duplex {
  /** The peer half-closed (FIN) or the stream was reset. */
  remoteEnded = false;
  private resetDone = false;

  constructor(
    readonly id: number,
    readonly headers: SpdyHeaders,
    private readonly conn: SpdyConnection,
  ) {
    super({ allowHalfOpen: true });
  }

  /** The first value of a header ('' when absent), like http.Header.Get. */
  header(name: string): string {
    return this.headers[name.toLowerCase()]?.[0] ?? '';
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.resetDone || this.conn.closed) return cb();
    let ok = true;
    for (let off = 0; off < chunk.length; off += DATA_CHUNK) {
      ok = this.conn.sendFrame({ type: 'data', streamId: this.id, fin: false, data: chunk.subarray(off, off + DATA_CHUNK) });
    }
    if (ok) cb();
    else this.conn.whenDrained(() => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (!this.resetDone && !this.conn.closed) this.conn.sendFrame({ type: 'data', streamId: this.id, fin: true, data: Buffer.alloc(0) });
    this.conn.maybeForget(this);
    cb();
  }

  override _read(): void {
    this.conn.resumeFor(this);
  }

  /** RST_STREAM (CANCEL by default, as spdystream's Reset) and destroy. */
  reset(status: number = RstStatus.Cancel): void {
    if (!this.resetDone && !this.conn.closed) this.conn.sendFrame({ type: 'rst_stream', streamId: this.id, status });
    this.resetDone = true;
    this.destroy();
  }

  /** @internal */
  receive(data: Buffer): void {
    if (this.remoteEnded) return;
    if (!this.push(data)) this.conn.pauseFor(this);
  }

  /** @internal */
  receiveFin(): void {
    if (this.remoteEnded) return;
    this.remoteEnded = true;
    this.push(null);
  }

  /** @internal the peer reset the stream, or the connection went away */
  receiveReset(): void {
    this.resetDone = true;
    this.remoteEnded = true;
    this.destroy();
  }

  override _destroy(err: Error | null, cb: (err: Error | null) => void): void {
    this.conn.resumeFor(this);
    this.conn.forget(this);
    cb(err);
  }
}

export interface SpdyConnectionOptions {
  /**
   * A new stream from the peer. Return an error message to refuse it (RST_STREAM, as the
   * apimachinery connection does when its NewStreamHandler fails); otherwise a SYN_REPLY goes out
   * before `onStream` runs.
   */
  validate?(headers: SpdyHeaders, id: number): string | null;
  onStream(stream: SpdyStream): void;
  /** The transport is gone (peer closed, error, or close()). */
  onClose?(): void;
  log?(line: string): void;
  /** Every frame in and out (a debugging aid). */
  trace?(direction: 'in' | 'out', frame: Frame): void;
}

/** The server end of a SPDY/3.1 connection (spdystream.Connection as NewServerConnection makes it). */
export class SpdyConnection {
  closed = false;
  private goneAway = false;
  private readonly parser = new FrameParser();
  private readonly queue: Frame[] = [];
  private decoding = false;
  private readonly inflater = new HeaderDecompressor();
  private readonly deflater = new HeaderCompressor();
  private readonly streams = new Map<number, SpdyStream>();
  private lastStreamId = 0;
  private readonly drainWaiters: (() => void)[] = [];
  private readonly pausedBy = new Set<SpdyStream>();

  constructor(
    private readonly transport: SpdyTransport,
    private readonly opts: SpdyConnectionOptions,
  ) {}

  /** Bytes from the transport. */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.queue.push(...this.parser.push(chunk));
    } catch (e) {
      this.opts.log?.(`spdy: ${(e as Error).message}`);
      this.sendFrame({ type: 'goaway', lastGoodStreamId: this.lastStreamId, status: GoAwayStatus.ProtocolError });
      this.destroy();
      return;
    }
    this.process();
  }

  /** The transport's buffer emptied. */
  drained(): void {
    for (const w of this.drainWaiters.splice(0)) w();
  }

  /** @internal */
  whenDrained(cb: () => void): void {
    if (this.closed) return cb();
    this.drainWaiters.push(cb);
  }

  /** @internal */
  sendFrame(f: Frame): boolean {
    if (this.closed) return true;
    this.opts.trace?.('out', f);
    return this.transport.write(encodeFrame(f));
  }

  /** @internal */
  pauseFor(s: SpdyStream): void {
    if (this.pausedBy.size === 0) this.transport.pauseInput();
    this.pausedBy.add(s);
  }

  /** @internal */
  resumeFor(s: SpdyStream): void {
    if (this.pausedBy.delete(s) && this.pausedBy.size === 0 && !this.closed) this.transport.resumeInput();
  }

  /** @internal forget a stream once both halves are done */
  maybeForget(s: SpdyStream): void {
    if (s.remoteEnded) this.streams.delete(s.id);
  }

  /** @internal */
  forget(s: SpdyStream): void {
    this.streams.delete(s.id);
  }

  private process(): void {
    while (!this.decoding && this.queue.length > 0 && !this.closed) {
      const f = this.queue.shift()!;
      this.opts.trace?.('in', f);
      if (f.type === 'syn_stream' || f.type === 'syn_reply' || f.type === 'headers') {
        // Every header block goes through the one zlib context, in order.
        this.decoding = true;
        this.inflater.decode(f.headerBlock, (err, headers) => {
          this.decoding = false;
          if (err) {
            this.opts.log?.(`spdy: header block: ${err.message}`);
            this.sendFrame({ type: 'goaway', lastGoodStreamId: this.lastStreamId, status: GoAwayStatus.ProtocolError });
            this.destroy();
            return;
          }
          if (f.type === 'syn_stream') this.onSynStream(f, headers!);
          this.process();
        });
        return;
      }
      this.onFrame(f);
    }
  }

  private onSynStream(f: Extract<Frame, { type: 'syn_stream' }>, headers: SpdyHeaders): void {
    if (this.goneAway) return;
    if (f.streamId % 2 === 0 || f.streamId <= this.lastStreamId) {
      this.sendFrame({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.ProtocolError });
      return;
    }
    this.lastStreamId = f.streamId;
    const refused = this.opts.validate?.(headers, f.streamId) ?? null;
    if (refused !== null) {
      this.opts.log?.(`spdy: stream ${f.streamId} rejected: ${refused}`);
      this.sendFrame({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.Cancel });
      return;
    }
    const stream = new SpdyStream(f.streamId, headers, this);
    stream.on('error', () => undefined);
    this.streams.set(f.streamId, stream);
    this.sendFrame({ type: 'syn_reply', streamId: f.streamId, fin: false, headerBlock: this.deflater.compress(encodeHeaderBlock({})) });
    if (f.fin || f.unidirectional) stream.receiveFin();
    this.opts.onStream(stream);
  }

  private onFrame(f: Frame): void {
    switch (f.type) {
      case 'data': {
        const s = this.streams.get(f.streamId);
        if (!s) return;
        if (f.data.length > 0) s.receive(f.data);
        if (f.fin) {
          s.receiveFin();
          if (s.writableFinished) this.streams.delete(s.id);
        }
        return;
      }
      case 'rst_stream': {
        const s = this.streams.get(f.streamId);
        this.streams.delete(f.streamId);
        s?.receiveReset();
        return;
      }
      case 'ping':
        // spdystream answers the peer's pings (ids of the other parity than its own): the client's are odd.
        if (f.id % 2 === 1) this.sendFrame(f);
        return;
      case 'goaway':
        this.goneAway = true;
        return;
      default:
        // SETTINGS, WINDOW_UPDATE, unknown control frames: ignored, as spdystream does.
        return;
    }
  }

  /** GOAWAY (lastGood = the last stream we accepted), then end the transport once written. */
  close(): void {
    if (this.closed) return;
    this.goneAway = true;
    this.sendFrame({ type: 'goaway', lastGoodStreamId: this.lastStreamId, status: GoAwayStatus.OK });
    this.closed = true;
    this.transport.end();
    this.teardown();
  }

  /** The transport closed or failed: every stream is reset locally. */
  transportClosed(): void {
    if (this.closed && this.streams.size === 0) return;
    this.closed = true;
    this.teardown();
  }

  destroy(): void {
    this.closed = true;
    this.transport.destroy();
    this.teardown();
  }

  private tornDown = false;

  private teardown(): void {
    if (this.tornDown) return;
    this.tornDown = true;
    for (const s of [...this.streams.values()]) s.receiveReset();
    this.streams.clear();
    this.inflater.close();
    for (const w of this.drainWaiters.splice(0)) w();
    this.opts.onClose?.();
  }
}

/** A SpdyTransport over a socket (the raw upgraded HTTP connection). */
export function socketTransport(socket: Duplex, conn: () => SpdyConnection | undefined): SpdyTransport {
  socket.on('drain', () => conn()?.drained());
  return {
    write: (buf) => (socket.destroyed ? true : socket.write(buf)),
    end: () => {
      if (!socket.destroyed) socket.end();
      // A peer that never closes its side does not keep the socket.
      setTimeout(() => socket.destroy(), 5000).unref();
    },
    destroy: () => socket.destroy(),
    pauseInput: () => socket.pause(),
    resumeInput: () => socket.resume(),
  };
}
