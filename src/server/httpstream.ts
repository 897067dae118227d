// The upgrade handshakes shared by exec, attach and port-forward: SPDY/3.1 with
// X-Stream-Protocol-Version negotiation (k8s.io/apimachinery/pkg/util/httpstream/httpstream.go
// Handshake, httpstream/spdy/upgrade.go UpgradeResponse) and WebSocket subprotocol selection
// (apimachinery/pkg/util/httpstream/wsstream/conn.go: IsWebSocketRequest, handshake), on the raw
// socket of an HTTP `upgrade` event. Negotiation is pure; the writers are thin.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { SpdyConnection, socketTransport, type SpdyConnectionOptions } from './spdy.js';

export const HeaderProtocolVersion = 'X-Stream-Protocol-Version';
export const HeaderAcceptedProtocolVersions = 'X-Accepted-Stream-Protocol-Versions';
export const HeaderSpdy31 = 'SPDY/3.1';

type Headers = IncomingMessage['headers'];

function headerValues(h: string | string[] | undefined): string[] {
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

/** wsstream.IsWebSocketRequest: `Upgrade: websocket` and a Connection header naming upgrade. */
export function isWebSocketRequest(headers: Headers): boolean {
  const upgrade = headerValues(headers.upgrade)[0] ?? '';
  if (upgrade.toLowerCase() !== 'websocket') return false;
  return /(^|.*,\s*)upgrade($|\s*,)/.test((headerValues(headers.connection)[0] ?? '').toLowerCase());
}

/** What spdy.UpgradeResponse requires: Connection contains "upgrade" and Upgrade contains "spdy/3.1". */
export function isSpdyUpgradeRequest(headers: Headers): boolean {
  const connection = (headerValues(headers.connection)[0] ?? '').toLowerCase();
  const upgrade = (headerValues(headers.upgrade)[0] ?? '').toLowerCase();
  return connection.includes('upgrade') && upgrade.includes(HeaderSpdy31.toLowerCase());
}

/** httpstream's commaSeparatedHeaderValues over every X-Stream-Protocol-Version line (Node joins repeated lines with ", "). */
export function clientStreamProtocols(headers: Headers): string[] {
  return headerValues(headers[HeaderProtocolVersion.toLowerCase()])
    .flatMap((h) => h.split(','))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** The first client protocol the server supports (client preference wins), '' when none. */
export function negotiateProtocol(client: string[], server: string[]): string {
  return client.find((c) => server.includes(c)) ?? '';
}

/** Go's fmt %v of a []string. */
const goList = (l: string[]) => `[${l.join(' ')}]`;

export type HandshakeResult = { ok: true; protocol: string } | { ok: false; code: number; message: string; headers: [string, string][] };

/** httpstream.Handshake: the negotiated protocol, or the error answer (400 without the header, 403 without a common protocol). */
export function spdyHandshake(headers: Headers, serverProtocols: string[]): HandshakeResult {
  const client = clientStreamProtocols(headers);
  if (client.length === 0) return { ok: false, code: 400, message: `unable to upgrade: ${HeaderProtocolVersion} is required`, headers: [] };
  const protocol = negotiateProtocol(client, serverProtocols);
  if (!protocol) {
    return {
      ok: false,
      code: 403,
      message: `unable to upgrade: unable to negotiate protocol: client supports ${goList(client)}, server accepts ${goList(serverProtocols)}`,
      headers: serverProtocols.map((p) => [HeaderAcceptedProtocolVersions, p]),
    };
  }
  return { ok: true, protocol };
}

/** The WebSocket subprotocols the client offers (Sec-WebSocket-Protocol), in its order. */
export function offeredSubprotocols(headers: Headers): string[] {
  return headerValues(headers['sec-websocket-protocol'])
    .flatMap((h) => h.split(','))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/**
 * wsstream's handshake: the first offered subprotocol the server allows; '' when the client offers
 * none and '' is allowed; null when nothing fits.
 */
export function selectSubprotocol(offered: string[], allowed: string[]): string | null {
  if (offered.length === 0) return allowed.includes('') ? '' : null;
  return offered.find((p) => allowed.includes(p)) ?? null;
}

const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  426: 'Upgrade Required',
  500: 'Internal Server Error',
};

/** A connection error worth logging: not the peer just going away. */
export function connectionErrorWorthLogging(e: Error & { code?: string }): boolean {
  return e.code !== 'ECONNRESET' && e.code !== 'EPIPE';
}

/** http.Error on a raw socket: text/plain, the message and a newline, then close. */
export function writeHttpError(socket: Duplex, code: number, message: string, extraHeaders: [string, string][] = []): void {
  const body = `${message}\n`;
  const lines = [
    `HTTP/1.1 ${code} ${reasonPhrases[code] ?? 'Error'}`,
    ...extraHeaders.map(([k, v]) => `${k}: ${v}`),
    'Content-Type: text/plain; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (!socket.destroyed) socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** The API server's answer to a request it will not upgrade: a meta/v1 Status (e.g. 400 BadRequest "Upgrade request required"). */
export function writeStatusError(socket: Duplex, code: number, reason: string, message: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
  const lines = [
    `HTTP/1.1 ${code} ${reasonPhrases[code] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (!socket.destroyed) socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * Answers 101 Switching Protocols (Connection: Upgrade, Upgrade: SPDY/3.1, the negotiated
 * X-Stream-Protocol-Version) and serves a SPDY server connection on the socket.
 */
export function acceptSpdy(socket: Duplex, head: Buffer, protocol: string, opts: SpdyConnectionOptions): SpdyConnection {
  socket.write(
    ['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', `Upgrade: ${HeaderSpdy31}`, `${HeaderProtocolVersion}: ${protocol}`, `Date: ${new Date().toUTCString()}`].join('\r\n') +
      '\r\n\r\n',
  );
  let conn: SpdyConnection | undefined;
  conn = new SpdyConnection(socketTransport(socket, () => conn), opts);
  const c = conn;
  socket.on('data', (chunk: Buffer) => c.receive(chunk));
  socket.on('end', () => c.transportClosed());
  socket.on('close', () => c.transportClosed());
  socket.on('error', () => c.transportClosed());
  if (head.length > 0) c.receive(head);
  return c;
}

const selectedSubprotocol = new WeakMap<IncomingMessage, string>();
const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
// The subprotocol is chosen here, not by ws: ws refuses names that are not RFC 7230 tokens, and
// the tunnelling protocol "SPDY/3.1+portforward.k8s.io" has a "/".
wss.on('headers', (headers: string[], req: IncomingMessage) => {
  const protocol = selectedSubprotocol.get(req);
  if (protocol) headers.push(`Sec-WebSocket-Protocol: ${protocol}`);
});

/** Completes a WebSocket upgrade with the already-selected subprotocol ('' for none). */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, protocol: string): Promise<WebSocket> {
  selectedSubprotocol.set(req, protocol);
  delete req.headers['sec-websocket-protocol'];
  return new Promise((resolve) => {
    wss.handleUpgrade(req, socket, head, (ws) => resolve(ws));
  });
}
