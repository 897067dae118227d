// The server side of `kubectl exec` and `kubectl attach`: kubelet's streaming server
// (pkg/kubelet/cri/streaming/remotecommand: httpstream.go, websocket.go, exec.go, attach.go) with
// the API server's v5 WebSocket translator (staging/src/k8s.io/client-go/tools/remotecommand/proxy)
// folded in, since the lab server is both. Protocol constants from
// k8s.io/apimachinery/pkg/util/remotecommand/constants.go; the client it must satisfy is
// k8s.io/client-go/tools/remotecommand (v1–v5, the v4 error decoder).
//
// - SPDY/3.1 (kubectl ≤ 1.29, and the fallback of 1.30+): X-Stream-Protocol-Version
//   v4/v3/v2/channel.k8s.io; the client opens an error, stdin, stdout, stderr and (tty, v3+)
//   resize stream, each named by its `streamType` header.
// - WebSocket (kubectl 1.30+ first): subprotocols v5.channel.k8s.io (with the [255, channel]
//   close signal), v4.channel.k8s.io, v4.base64.channel.k8s.io, channel.k8s.io,
//   base64.channel.k8s.io; every message starts with its channel (0 stdin, 1 stdout, 2 stderr,
//   3 error, 4 resize; base64 protocols: the channel as an ASCII digit and base64 data).
// - The error channel carries, at the end, the json meta/v1 Status (v4, v5) or the error text (v1–v3).
//
// The wire formats (channel frames, statuses, resize messages, query parsing) are pure functions;
// handleRemoteCommand is the thin shell pumping between a StreamSession and the connection.
import type { IncomingMessage } from 'node:http';
import { PassThrough, Writable, type Duplex, type Readable } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import type { StreamOptions, StreamSession } from '../runtime/cri.js';
import {
  acceptSpdy,
  acceptWebSocket,
  connectionErrorWorthLogging,
  isSpdyUpgradeRequest,
  isWebSocketRequest,
  offeredSubprotocols,
  selectSubprotocol,
  spdyHandshake,
  writeHttpError,
  writeStatusError,
} from './httpstream.js';
import type { SpdyStream } from './spdy.js';

// ---- constants (apimachinery/pkg/util/remotecommand/constants.go, k8s.io/api/core/v1) -------

export const StreamProtocolV1Name = 'channel.k8s.io';
export const StreamProtocolV2Name = 'v2.channel.k8s.io';
export const StreamProtocolV3Name = 'v3.channel.k8s.io';
export const StreamProtocolV4Name = 'v4.channel.k8s.io';
export const StreamProtocolV5Name = 'v5.channel.k8s.io';

/** kubelet's SupportedStreamingProtocols for SPDY, most preferred first. */
export const SupportedSpdyProtocols = [StreamProtocolV4Name, StreamProtocolV3Name, StreamProtocolV2Name, StreamProtocolV1Name];

export const NonZeroExitCodeReason = 'NonZeroExitCode';
export const ExitCodeCauseType = 'ExitCode';

/** core/v1 StreamType header values. */
export const StreamType = { Error: 'error', Stdin: 'stdin', Stdout: 'stdout', Stderr: 'stderr', Resize: 'resize', Data: 'data' } as const;

/** WebSocket channel numbers (remotecommand.StreamStdIn … StreamResize, StreamClose). */
export const Channel = { Stdin: 0, Stdout: 1, Stderr: 2, Error: 3, Resize: 4, Close: 255 } as const;

/** kubelet's DefaultStreamCreationTimeout. */
export const StreamCreationTimeoutMs = 30_000;

export interface WebSocketProtocol {
  /** raw bytes (binary messages) or base64 text messages */
  binary: boolean;
  /** the error channel carries a json Status (v4+) rather than the error text */
  jsonStatus: boolean;
  /** v5: [255, channel] half-closes a channel */
  closeSignal: boolean;
}

/** The exec/attach WebSocket subprotocols the lab serves ('' = none offered: channel.k8s.io). */
export const RemoteCommandWebSocketProtocols: Record<string, WebSocketProtocol> = {
  [StreamProtocolV5Name]: { binary: true, jsonStatus: true, closeSignal: true },
  [StreamProtocolV4Name]: { binary: true, jsonStatus: true, closeSignal: false },
  'v4.base64.channel.k8s.io': { binary: false, jsonStatus: true, closeSignal: false },
  [StreamProtocolV1Name]: { binary: true, jsonStatus: false, closeSignal: false },
  'base64.channel.k8s.io': { binary: false, jsonStatus: false, closeSignal: false },
  '': { binary: true, jsonStatus: false, closeSignal: false },
};

// ---- the query --------------------------------------------------------------------------------

export interface StreamQuery {
  /** `command`, repeated (exec) */
  command: string[];
  container: string;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** runtime.Convert_Slice_string_To_bool: absent is false; "0" and "false" (any case) are false; anything else is true. */
function queryBool(params: URLSearchParams, name: string): boolean {
  const v = params.getAll(name);
  if (v.length === 0) return false;
  return !(v[0] === '0' || v[0].toLowerCase() === 'false');
}

/** PodExecOptions / PodAttachOptions from the query, as the API server converts them. */
export function parseStreamQuery(url: URL): StreamQuery {
  const p = url.searchParams;
  return {
    command: p.getAll('command'),
    container: p.get('container') ?? '',
    stdin: queryBool(p, 'stdin'),
    stdout: queryBool(p, 'stdout'),
    stderr: queryBool(p, 'stderr'),
    tty: queryBool(p, 'tty'),
  };
}

/** kubelet's NewOptions: stderr is dropped with a tty; at least one stream is required. */
export function effectiveStreams(o: { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean }): { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean } | string {
  const stderr = o.stderr && !o.tty;
  if (!o.stdin && !o.stdout && !stderr) return 'you must specify at least 1 of stdin, stdout, stderr';
  return { stdin: o.stdin, stdout: o.stdout, stderr, tty: o.tty };
}

// ---- statuses (kubelet's ServeExec / ServeAttach, apierrors.NewInternalError) -----------------

/** meta/v1 Status as json.Marshal(status.Status()) writes it: no kind/apiVersion, Go's field order. */
export interface RemoteStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: { reason?: string; message?: string }[] };
  code?: number;
}

export type Outcome = { kind: 'exit'; code: number } | { kind: 'error'; message: string };

/**
 * The status ServeExec / ServeAttach write at the end: Success; for exec a non-zero exit as
 * NonZeroExitCode with the ExitCode cause (dockershim's dockerExitError text in the message);
 * a runtime failure as InternalError ("error executing command in container: …" /
 * "error attaching to container: …"). Attach succeeds whatever the container's exit code.
 */
export function finalStatus(kind: 'exec' | 'attach', outcome: Outcome): RemoteStatus {
  if (outcome.kind === 'error') {
    const err = kind === 'exec' ? `error executing command in container: ${outcome.message}` : `error attaching to container: ${outcome.message}`;
    return { metadata: {}, status: 'Failure', message: `Internal error occurred: ${err}`, reason: 'InternalError', details: { causes: [{ message: err }] }, code: 500 };
  }
  if (kind === 'exec' && outcome.code !== 0) {
    return {
      metadata: {},
      status: 'Failure',
      message: `command terminated with non-zero exit code: Error executing in Docker Container: ${outcome.code}`,
      reason: NonZeroExitCodeReason,
      details: { causes: [{ reason: ExitCodeCauseType, message: String(outcome.code) }] },
    };
  }
  return { metadata: {}, status: 'Success' };
}

/** What goes on the error stream: v4+ the json Status; v1–v3 nothing on success, else the message (StatusError.Error()). */
export function encodeStatus(status: RemoteStatus, json: boolean): Buffer | null {
  if (json) return Buffer.from(JSON.stringify(status));
  if (status.status === 'Success') return null;
  return Buffer.from(status.message ?? '');
}

// ---- WebSocket channel frames (wsstream/conn.go) ----------------------------------------------

/** One message on a channel: the channel byte then the data, or for base64 protocols '0'+channel then base64. */
export function encodeChannelFrame(channel: number, data: Buffer, binary: boolean): Buffer | string {
  if (binary) return Buffer.concat([Buffer.from([channel]), data]);
  return String.fromCharCode(48 + channel) + data.toString('base64');
}

export type ChannelMessage = { channel: number; data: Buffer } | { close: number };

/** A client message: its channel and data, a v5 close signal, or null when empty or malformed. */
export function decodeChannelFrame(msg: Buffer, p: WebSocketProtocol): ChannelMessage | null {
  if (msg.length === 0) return null;
  if (p.closeSignal && msg[0] === Channel.Close) return msg.length === 2 ? { close: msg[1] } : null;
  const channel = p.binary ? msg[0] : (msg[0] - 48) & 0xff;
  const rest = msg.subarray(1);
  if (p.binary) return { channel, data: rest };
  const text = rest.toString('latin1');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return { channel, data: Buffer.from(text, 'base64') };
}

// ---- resize messages (handleResizeEvents: a json.Decoder of TerminalSize) ---------------------

export interface TerminalSize {
  width: number;
  height: number;
}

/**
 * Decodes the resize stream: a sequence of JSON objects {"Width":…,"Height":…} (Go's field names,
 * matched case-insensitively like encoding/json), in whatever pieces they come. Like the kubelet,
 * it stops at the first undecodable value.
 */
export class ResizeDecoder {
  private text = '';
  private broken = false;

  push(chunk: Buffer): TerminalSize[] {
    if (this.broken) return [];
    this.text += chunk.toString('utf8');
    const out: TerminalSize[] = [];
    for (;;) {
      const start = this.text.search(/\S/);
      if (start < 0) {
        this.text = '';
        return out;
      }
      if (this.text[start] !== '{') {
        this.broken = true;
        return out;
      }
      let depth = 0;
      let inString = false;
      let end = -1;
      for (let i = start; i < this.text.length; i++) {
        const ch = this.text[i];
        if (inString) {
          if (ch === '\\') i++;
          else if (ch === '"') inString = false;
        } else if (ch === '"') inString = true;
        else if (ch === '{') depth++;
        else if (ch === '}' && --depth === 0) {
          end = i;
          break;
        }
      }
      if (end < 0) return out;
      const raw = this.text.slice(start, end + 1);
      this.text = this.text.slice(end + 1);
      let obj: Record<string, unknown>;
      try {
        obj = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        this.broken = true;
        return out;
      }
      const field = (name: string) => {
        const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
        const v = key === undefined ? 0 : obj[key];
        return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff ? v : NaN;
      };
      const width = field('width');
      const height = field('height');
      if (Number.isNaN(width) || Number.isNaN(height)) {
        this.broken = true;
        return out;
      }
      out.push({ width, height });
    }
  }
}

// ---- the handler ----------------------------------------------------------------------------

export interface RemoteCommandOptions {
  kind: 'exec' | 'attach';
  /** Starts the process (or attaches) once the client's streams are there; a rejection becomes the InternalError status. */
  start(o: StreamOptions): Promise<StreamSession>;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  log?(line: string): void;
  /**
   * The kubelet's refusal (no running instance: `container not found ("app")`). A WebSocket v5
   * request meets the API server's stream translator, which has accepted the upgrade before the
   * kubelet refuses: an InternalError status on the error channel. Any other is proxied to the
   * kubelet: its 500 with the text.
   */
  refusal?: string;
}

/** The stream translator's status for a kubelet that refused its SPDY upgrade. */
export function translatorRefusal(refusal: string): RemoteStatus {
  const err = `unable to upgrade connection: ${refusal}`;
  return { metadata: {}, status: 'Failure', message: `Internal error occurred: ${err}`, reason: 'InternalError', details: { causes: [{ message: err }] }, code: 500 };
}

/** The client side of a session, whichever the transport. */
interface ClientStreams {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  /** Terminal sizes as they come. */
  onResize(cb: (size: TerminalSize) => void): void;
  /** The client went away before the end. */
  onGone(cb: () => void): void;
  writeStatus(status: RemoteStatus): Promise<void>;
  /** Ends the output streams, then the connection (GOAWAY / WebSocket close). */
  close(): Promise<void>;
}

/**
 * Serves an exec or attach upgrade: WebSocket (v5, v4, v4 base64, v1, v1 base64) or SPDY/3.1
 * (v4, v3, v2, v1), else 400 "Upgrade request required". Pumps until the process ends (or the
 * container stops, for attach), writes the final status and closes.
 */
export function handleRemoteCommand(req: IncomingMessage, socket: Duplex, head: Buffer, opts: RemoteCommandOptions): void {
  const log = opts.log ?? (() => undefined);
  socket.on('error', (e: Error) => connectionErrorWorthLogging(e) && log(`${opts.kind}: connection error: ${e.message}`));
  const streams = effectiveStreams(opts);
  if (typeof streams === 'string') return writeHttpError(socket, 400, streams);
  if (isWebSocketRequest(req.headers)) {
    const offered = offeredSubprotocols(req.headers);
    const allowed = Object.keys(RemoteCommandWebSocketProtocols);
    const protocol = selectSubprotocol(offered, allowed);
    if (protocol === null) {
      return writeHttpError(socket, 403, `requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${allowed.filter((p) => p).join(' ')}]`);
    }
    if (opts.refusal !== undefined && protocol !== StreamProtocolV5Name) return writeHttpError(socket, 500, opts.refusal);
    void acceptWebSocket(req, socket, head, protocol).then(async (ws) => {
      const client = webSocketStreams(ws, RemoteCommandWebSocketProtocols[protocol], streams);
      if (opts.refusal === undefined) return void serve(client, opts, streams, log);
      await client.writeStatus(translatorRefusal(opts.refusal));
      await client.close();
    });
    return;
  }
  if (opts.refusal !== undefined) return writeHttpError(socket, 500, opts.refusal);
  if (isSpdyUpgradeRequest(req.headers)) {
    const hs = spdyHandshake(req.headers, SupportedSpdyProtocols);
    if (!hs.ok) return writeHttpError(socket, hs.code, hs.message, hs.headers);
    void spdyStreams(socket, head, hs.protocol, streams, log).then((client) => {
      if (client) void serve(client, opts, streams, log);
    });
    return;
  }
  writeStatusError(socket, 400, 'BadRequest', 'Upgrade request required');
}

async function serve(client: ClientStreams, opts: RemoteCommandOptions, want: StreamOptions & { stdout: boolean; stderr: boolean }, log: (l: string) => void): Promise<void> {
  // Sizes that arrive before the session starts are applied once it has (dockershim resizes after the start).
  let latest: TerminalSize | null = null;
  let session: StreamSession | null = null;
  client.onResize((size) => {
    if (size.width < 1 || size.height < 1) return;
    if (session) void session.resize(size.width, size.height);
    else latest = size;
  });
  let gone = false;
  client.onGone(() => {
    gone = true;
    session?.close();
  });
  try {
    session = await opts.start({ stdin: want.stdin, tty: want.tty, stdout: want.stdout, stderr: want.stderr });
  } catch (e) {
    log(`${opts.kind}: ${(e as Error).message}`);
    await client.writeStatus(finalStatus(opts.kind, { kind: 'error', message: (e as Error).message }));
    await client.close();
    return;
  }
  const s = session;
  if (gone) s.close();
  if (latest) void s.resize((latest as TerminalSize).width, (latest as TerminalSize).height);
  if (client.stdin) {
    if (s.stdin) client.stdin.pipe(s.stdin);
    else client.stdin.resume();
  }
  await Promise.all([copyOut(s.stdout, client.stdout), copyOut(s.stderr, client.stderr)]);
  client.stdin?.unpipe();
  if (gone) return s.close();
  let outcome: Outcome;
  try {
    outcome = { kind: 'exit', code: await s.exitCode };
  } catch (e) {
    outcome = { kind: 'error', message: (e as Error).message };
  }
  if (!gone) {
    await client.writeStatus(finalStatus(opts.kind, outcome));
    await client.close();
  }
  s.close();
}

/** Copies a session output to the client's stream (not ending it); resolves when the output ends. */
function copyOut(src: Readable | undefined, dst: Writable | undefined): Promise<void> {
  if (!src) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (dst) src.unpipe(dst);
      resolve();
    };
    src.once('end', done);
    src.once('close', done);
    src.once('error', done);
    if (dst) src.pipe(dst, { end: false });
    else src.resume();
  });
}

// ---- SPDY -------------------------------------------------------------------------------------

function endStream(s: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (s.writableFinished || s.destroyed) return resolve();
    s.once('finish', () => resolve());
    s.once('close', () => resolve());
    s.end();
  });
}

/** createHTTPStreamStreams: 101, then wait for the expected streams (error + asked ones + resize with tty on v3+). */
function spdyStreams(
  socket: Duplex,
  head: Buffer,
  protocol: string,
  want: { stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean },
  log: (l: string) => void,
): Promise<ClientStreams | null> {
  const resizing = protocol === StreamProtocolV4Name || protocol === StreamProtocolV3Name;
  const expected = 1 + Number(want.stdin) + Number(want.stdout) + Number(want.stderr) + Number(want.tty && resizing);
  const got: Partial<Record<'error' | 'stdin' | 'stdout' | 'stderr' | 'resize', SpdyStream>> = {};
  let received = 0;
  const goneCbs: (() => void)[] = [];
  let finished = false;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      log('timed out waiting for client to create streams');
      conn.destroy();
      resolve(null);
    }, StreamCreationTimeoutMs);
    const conn = acceptSpdy(socket, head, protocol, {
      log,
      onClose: () => {
        clearTimeout(timer);
        if (received < expected) resolve(null);
        if (!finished) for (const cb of goneCbs.splice(0)) cb();
      },
      onStream: (stream) => {
        const type = stream.header('streamType');
        if (type === StreamType.Error || type === StreamType.Stdin || type === StreamType.Stdout || type === StreamType.Stderr || type === StreamType.Resize) {
          if (!got[type]) received++;
          got[type] = stream;
        } else {
          log(`unexpected stream type: "${type}"`);
        }
        // Streams this side only writes (and the error stream, which the client half-closes at once) are drained.
        if (type !== StreamType.Stdin && type !== StreamType.Resize) stream.resume();
        if (received !== expected) return;
        clearTimeout(timer);
        const errorStream = got.error;
        const resizeDecoder = new ResizeDecoder();
        resolve({
          stdin: got.stdin,
          stdout: got.stdout,
          stderr: got.stderr,
          onResize: (cb) => {
            got.resize?.on('data', (c: Buffer) => resizeDecoder.push(c).forEach(cb));
          },
          onGone: (cb) => goneCbs.push(cb),
          writeStatus: async (status) => {
            // stdout and stderr end (FIN) first, then the status goes out.
            await Promise.all([got.stdout, got.stderr].filter((s): s is SpdyStream => !!s).map(endStream));
            const bytes = encodeStatus(status, protocol === StreamProtocolV4Name);
            if (errorStream && bytes) await new Promise<void>((r) => errorStream.write(bytes, () => r()));
          },
          close: async () => {
            finished = true;
            await Promise.all([got.stdout, got.stderr, got.error].filter((s): s is SpdyStream => !!s).map(endStream));
            // v1's handler resets the error stream rather than closing it; every later version closes.
            conn.close();
          },
        });
      },
    });
  });
}

// ---- WebSocket --------------------------------------------------------------------------------

const WS_HIGH_WATER = 1 << 20;

/** A Writable sending each chunk as one message on `channel`, waiting when the socket's buffer is full. */
function channelWriter(ws: WebSocket, channel: number, p: WebSocketProtocol): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (ws.readyState !== ws.OPEN) return cb();
      const frame = encodeChannelFrame(channel, chunk, p.binary);
      if (ws.bufferedAmount < WS_HIGH_WATER) {
        ws.send(frame, { binary: p.binary });
        cb();
      } else {
        ws.send(frame, { binary: p.binary }, () => cb());
      }
    },
  });
}

/** createWebSocketStreams: channels per the options, the empty "connected" message on the lowest writable channel first. */
function webSocketStreams(ws: WebSocket, p: WebSocketProtocol, want: { stdin: boolean; stdout: boolean; stderr: boolean }): ClientStreams {
  const stdin = want.stdin ? new PassThrough() : undefined;
  const stdout = want.stdout ? channelWriter(ws, Channel.Stdout, p) : undefined;
  const stderr = want.stderr ? channelWriter(ws, Channel.Stderr, p) : undefined;
  const first = want.stdout ? Channel.Stdout : want.stderr ? Channel.Stderr : Channel.Error;
  ws.send(encodeChannelFrame(first, Buffer.alloc(0), p.binary), { binary: p.binary });
  const resizeDecoder = new ResizeDecoder();
  const resizeCbs: ((s: TerminalSize) => void)[] = [];
  const goneCbs: (() => void)[] = [];
  let finished = false;
  ws.on('message', (raw: RawData) => {
    const buf = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
    const m = decodeChannelFrame(buf, p);
    if (!m) return;
    if ('close' in m) {
      if (m.close === Channel.Stdin) stdin?.end();
      return;
    }
    if (m.channel === Channel.Stdin && stdin && !stdin.writableEnded) {
      if (!stdin.write(m.data)) {
        ws.pause();
        stdin.once('drain', () => ws.resume());
      }
    } else if (m.channel === Channel.Resize) {
      for (const size of resizeDecoder.push(m.data)) for (const cb of resizeCbs) cb(size);
    }
  });
  ws.on('error', () => undefined);
  ws.on('close', () => {
    if (stdin && !stdin.writableEnded) stdin.end();
    if (!finished) for (const cb of goneCbs.splice(0)) cb();
  });
  return {
    stdin,
    stdout,
    stderr,
    onResize: (cb) => resizeCbs.push(cb),
    onGone: (cb) => goneCbs.push(cb),
    writeStatus: async (status) => {
      const bytes = encodeStatus(status, p.jsonStatus);
      if (!bytes || ws.readyState !== ws.OPEN) return;
      // After stdout/stderr: their writes are sent in order before this one.
      await Promise.all([stdout, stderr].filter((w): w is Writable => !!w).map(endStream));
      await new Promise<void>((r) => ws.send(encodeChannelFrame(Channel.Error, bytes, p.binary), { binary: p.binary }, () => r()));
    },
    close: async () => {
      finished = true;
      await Promise.all([stdout, stderr].filter((w): w is Writable => !!w).map(endStream));
      if (ws.readyState === ws.OPEN) ws.close(1000);
      // A client that never answers the close does not keep the socket.
      setTimeout(() => ws.terminate(), 5000).unref();
    },
  };
}
