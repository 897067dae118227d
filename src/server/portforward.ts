// The server side of `kubectl port-forward`: kubelet's streaming server
// (pkg/kubelet/cri/streaming/portforward: httpstream.go, websocket.go) with the API server's
// SPDY-over-WebSocket tunnel folded in (kubectl 1.31+ dials with
// client-go/tools/portforward/tunneling_dialer.go: subprotocol "SPDY/3.1+portforward.k8s.io",
// each binary message a piece of the SPDY byte stream — TunnelingConnection — so the lab, being
// the endpoint, speaks SPDY inside the WebSocket itself).
//
// - SPDY (and tunnelled SPDY), protocol portforward.k8s.io: per forwarded connection the client
//   opens an `error` and a `data` stream carrying the headers streamType, port and requestID; once
//   both are there the data stream is joined to a TCP connection to the port, and on failure the
//   error stream carries "error forwarding port …" (then both are closed).
// - Legacy WebSocket (v4.channel.k8s.io, v4.base64.channel.k8s.io; `ports` in the query): channels
//   2i (data) and 2i+1 (error) per port, each opened by the port as a little-endian uint16.
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
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
import { decodeChannelFrame, encodeChannelFrame, StreamCreationTimeoutMs, StreamType, type WebSocketProtocol } from './remotecommand.js';
import { SpdyConnection, type SpdyConnectionOptions, type SpdyHeaders, type SpdyStream, type SpdyTransport } from './spdy.js';

export const PortForwardProtocolV1Name = 'portforward.k8s.io';
/** apimachinery/pkg/util/portforward/constants.go */
export const WebsocketsSPDYTunnelingPrefix = 'SPDY/3.1+';
export const WebsocketsSPDYTunnelingPortForwardV1 = WebsocketsSPDYTunnelingPrefix + PortForwardProtocolV1Name;
export const PortHeader = 'port';
export const PortForwardRequestIDHeader = 'requestID';

/** The legacy WebSocket port-forward subprotocols ('' = none offered). */
export const PortForwardWebSocketProtocols: Record<string, WebSocketProtocol> = {
  '': { binary: true, jsonStatus: false, closeSignal: false },
  'v4.channel.k8s.io': { binary: true, jsonStatus: false, closeSignal: false },
  'v4.base64.channel.k8s.io': { binary: false, jsonStatus: false, closeSignal: false },
};

export interface PortForwardOptions {
  /** A TCP connection to `port` of the pod. */
  connect(port: number): Promise<Duplex>;
  /**
   * For the error text "error forwarding port P to pod <pod>, uid <uid>: …" (the CRI streaming
   * server passes the sandbox id and no uid): asked for only when a connection fails.
   */
  pod?: () => Promise<string>;
  uid?: string;
  log?(line: string): void;
}

const first = (h: SpdyHeaders, name: string) => h[name.toLowerCase()]?.[0] ?? '';

/** httpStreamReceived: the port and streamType headers a stream must carry; null when it is acceptable. */
export function validatePortForwardStream(headers: SpdyHeaders): string | null {
  const port = first(headers, PortHeader);
  if (port.length === 0) return `"${PortHeader}" header is required`;
  const parsed = parsePort(port);
  if (typeof parsed === 'string') return parsed;
  const type = first(headers, 'streamType');
  if (type.length === 0) return `"streamType" header is required`;
  if (type !== StreamType.Error && type !== StreamType.Data) return `invalid stream type "${type}"`;
  return null;
}

/** strconv.ParseUint(s, 10, 16) and the > 0 check, with the kubelet's messages. */
function parsePort(s: string): number | string {
  if (!/^[0-9]+$/.test(s)) return `unable to parse "${s}" as a port: strconv.ParseUint: parsing "${s}": invalid syntax`;
  const n = Number(s);
  if (n > 65535) return `unable to parse "${s}" as a port: strconv.ParseUint: parsing "${s}": value out of range`;
  if (n < 1) return `port "${s}" must be > 0`;
  return n;
}

/** The request id of a stream; old clients without the header get the kubelet's guess from the stream id. */
export function requestIdOf(headers: SpdyHeaders, streamId: number): string {
  const id = first(headers, PortForwardRequestIDHeader);
  if (id) return id;
  return String(first(headers, 'streamType') === StreamType.Data ? streamId - 2 : streamId);
}

/**
 * NewV4Options: the ports to forward, comma-separated lists allowed. Clients send `ports`
 * (PodPortForwardOptions); the API server hands them to the kubelet as `port`, whose messages these are.
 */
export function parseWebSocketPorts(url: URL): number[] | string {
  const values = [...url.searchParams.getAll('ports'), ...url.searchParams.getAll(PortHeader)];
  if (values.length === 0) return `query parameter "${PortHeader}" is required`;
  const ports: number[] = [];
  for (const v of values) {
    if (v.length === 0) return `query parameter "${PortHeader}" cannot be empty`;
    for (const p of v.split(',')) {
      if (!/^[0-9]+$/.test(p) || Number(p) > 65535) return `unable to parse "${v}" as a port: strconv.ParseUint: parsing "${p}": ${/^[0-9]+$/.test(p) ? 'value out of range' : 'invalid syntax'}`;
      if (Number(p) < 1) return `port "${v}" must be > 0`;
      ports.push(Number(p));
    }
  }
  return ports;
}

/** The pod's name for an error text; '' when it cannot be had. */
async function podName(opts: PortForwardOptions): Promise<string> {
  return (await opts.pod?.().catch(() => '')) ?? '';
}

export function forwardErrorMessage(port: number, pod: string, uid: string, err: string): string {
  return `error forwarding port ${port} to pod ${pod}, uid ${uid}: ${err}`;
}

/**
 * Serves a port-forward upgrade: SPDY/3.1, SPDY tunnelled in WebSocket, or the legacy WebSocket
 * channels; else 400 "Upgrade request required". Lives until the client closes the connection.
 */
export function handlePortForward(req: IncomingMessage, socket: Duplex, head: Buffer, opts: PortForwardOptions): void {
  const log = opts.log ?? (() => undefined);
  socket.on('error', (e: Error) => connectionErrorWorthLogging(e) && log(`portforward: connection error: ${e.message}`));
  if (isWebSocketRequest(req.headers)) {
    const offered = offeredSubprotocols(req.headers);
    if (offered.some((p) => p.startsWith(WebsocketsSPDYTunnelingPrefix))) {
      if (!offered.includes(WebsocketsSPDYTunnelingPortForwardV1)) {
        return writeHttpError(socket, 400, `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${WebsocketsSPDYTunnelingPortForwardV1}]`);
      }
      void acceptWebSocket(req, socket, head, WebsocketsSPDYTunnelingPortForwardV1).then((ws) => {
        let conn: SpdyConnection | undefined;
        conn = serveSpdyPortForward((o) => new SpdyConnection(webSocketTransport(ws, () => conn), o), opts, log);
        const c = conn;
        ws.on('message', (raw: RawData, isBinary: boolean) => {
          if (!isBinary) {
            log('portforward: invalid message type received');
            return c.destroy();
          }
          c.receive(Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
        });
        ws.on('error', () => undefined);
        ws.on('close', () => c.transportClosed());
      });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ports = parseWebSocketPorts(url);
    if (typeof ports === 'string') return writeHttpError(socket, 400, ports);
    const protocol = selectSubprotocol(offered, Object.keys(PortForwardWebSocketProtocols));
    if (protocol === null) {
      return writeHttpError(socket, 403, `requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${Object.keys(PortForwardWebSocketProtocols).filter((p) => p).join(' ')}]`);
    }
    void acceptWebSocket(req, socket, head, protocol).then((ws) => serveWebSocketPortForward(ws, PortForwardWebSocketProtocols[protocol], ports, opts, log));
    return;
  }
  if (isSpdyUpgradeRequest(req.headers)) {
    const hs = spdyHandshake(req.headers, [PortForwardProtocolV1Name]);
    if (!hs.ok) return writeHttpError(socket, hs.code, hs.message, hs.headers);
    serveSpdyPortForward((o) => acceptSpdy(socket, head, hs.protocol, o), opts, log);
    return;
  }
  writeStatusError(socket, 400, 'BadRequest', 'Upgrade request required');
}

/** SPDY carried in WebSocket binary messages (the server end of TunnelingConnection). */
function webSocketTransport(ws: WebSocket, conn: () => SpdyConnection | undefined): SpdyTransport {
  const HIGH = 1 << 20;
  return {
    write: (buf) => {
      if (ws.readyState !== ws.OPEN) return true;
      const ok = ws.bufferedAmount < HIGH;
      ws.send(buf, { binary: true }, () => {
        if (ws.bufferedAmount < HIGH) conn()?.drained();
      });
      return ok;
    },
    end: () => {
      if (ws.readyState === ws.OPEN) ws.close(1000);
      setTimeout(() => ws.terminate(), 5000).unref();
    },
    destroy: () => ws.terminate(),
    pauseInput: () => ws.pause(),
    resumeInput: () => ws.resume(),
  };
}

interface Pair {
  error?: SpdyStream;
  data?: SpdyStream;
  timer: NodeJS.Timeout;
}

/** httpStreamHandler: pairs the streams by request id, then forwards each complete pair. */
function serveSpdyPortForward(make: (o: SpdyConnectionOptions) => SpdyConnection, opts: PortForwardOptions, log: (l: string) => void): SpdyConnection {
  const pairs = new Map<string, Pair>();
  const active = new Set<Duplex>();
  return make({
    log,
    validate: (headers) => validatePortForwardStream(headers),
    onStream: (stream) => {
      const requestId = requestIdOf(stream.headers, stream.id);
      const type = stream.header('streamType') as 'error' | 'data';
      let pair = pairs.get(requestId);
      if (!pair) {
        const p: Pair = {
          timer: setTimeout(() => {
            const msg = `(conn=lab, request=${requestId}) timed out waiting for streams`;
            log(msg);
            p.error?.end(msg);
            pairs.delete(requestId);
          }, StreamCreationTimeoutMs),
        };
        p.timer.unref();
        pair = p;
        pairs.set(requestId, p);
      }
      if (type === StreamType.Error) stream.resume(); // the client half-closes it at once; nothing to read
      if (pair[type]) {
        const msg = `error processing stream for request ${requestId}: ${type} stream already assigned`;
        log(msg);
        pair.error?.write(msg);
        return;
      }
      pair[type] = stream;
      if (pair.error && pair.data) {
        clearTimeout(pair.timer);
        pairs.delete(requestId);
        void forward(pair.error, pair.data, opts, active, log);
      }
    },
    onClose: () => {
      for (const p of pairs.values()) clearTimeout(p.timer);
      pairs.clear();
      for (const s of active) s.destroy();
    },
  });
}

/** portForward: join the data stream to a TCP connection; on failure write the error; close both streams at the end. */
async function forward(error: SpdyStream, data: SpdyStream, opts: PortForwardOptions, active: Set<Duplex>, log: (l: string) => void): Promise<void> {
  const port = Number(data.header(PortHeader));
  let pod: Duplex;
  try {
    pod = await opts.connect(port);
  } catch (e) {
    const msg = forwardErrorMessage(port, await podName(opts), opts.uid ?? '', (e as Error).message);
    log(msg);
    error.end(msg);
    data.end();
    data.resume();
    return;
  }
  if (data.destroyed) {
    pod.destroy();
    error.end();
    return;
  }
  active.add(pod);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    active.delete(pod);
    if (!error.writableEnded && !error.destroyed) error.end();
    if (!data.writableEnded && !data.destroyed) data.end();
  };
  pod.on('error', (e: Error) => {
    log(`portforward: port ${port}: ${e.message}`);
    finish();
  });
  pod.on('end', finish);
  pod.on('close', finish);
  // The client resets the data stream once the pod's side has ended (or it gives up).
  data.on('close', () => {
    if (!finished) pod.destroy();
  });
  data.pipe(pod);
  pod.pipe(data, { end: true });
}

/** websocketStreamHandler: one connection per port for the WebSocket's life. */
function serveWebSocketPortForward(ws: WebSocket, p: WebSocketProtocol, ports: number[], opts: PortForwardOptions, log: (l: string) => void): void {
  const send = (channel: number, data: Buffer, cb?: () => void) => {
    if (ws.readyState !== ws.OPEN) return cb?.();
    ws.send(encodeChannelFrame(channel, data, p.binary), { binary: p.binary }, () => cb?.());
  };
  const inputs = ports.map(() => new PassThrough());
  const pods: (Duplex | undefined)[] = ports.map(() => undefined);
  ports.forEach((port, i) => {
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16LE(port);
    send(2 * i, prefix);
    send(2 * i + 1, prefix);
  });
  ws.on('message', (raw: RawData) => {
    const m = decodeChannelFrame(Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw), p);
    if (!m || 'close' in m || m.channel % 2 !== 0 || m.channel / 2 >= ports.length) return;
    const input = inputs[m.channel / 2];
    if (!input.write(m.data)) {
      ws.pause();
      input.once('drain', () => ws.resume());
    }
  });
  ws.on('error', () => undefined);
  ws.on('close', () => {
    for (const input of inputs) input.end();
    for (const pod of pods) pod?.destroy();
  });
  let remaining = ports.length;
  const done = () => {
    if (--remaining === 0 && ws.readyState === ws.OPEN) ws.close(1000);
  };
  ports.forEach((port, i) => {
    void opts.connect(port).then(
      (pod) => {
        pods[i] = pod;
        if (ws.readyState !== ws.OPEN) return pod.destroy();
        inputs[i].pipe(pod);
        pod.on('data', (c: Buffer) => {
          if (ws.bufferedAmount > 1 << 20) {
            pod.pause();
            send(2 * i, c, () => pod.resume());
          } else send(2 * i, c);
        });
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          done();
        };
        pod.on('end', end);
        pod.on('close', end);
        pod.on('error', (e: Error) => {
          log(`portforward: port ${port}: ${e.message}`);
          end();
        });
      },
      async (e: Error) => {
        const msg = forwardErrorMessage(port, await podName(opts), opts.uid ?? '', e.message);
        log(msg);
        send(2 * i + 1, Buffer.from(msg));
        done();
      },
    );
  });
}
