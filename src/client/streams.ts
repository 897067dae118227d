// The client side of exec and port-forward for `podlab exec` and `podlab port-forward` (for users
// without kubectl), over the lab server's WebSocket protocols: v5.channel.k8s.io for exec (one
// byte of channel before each message: 0 stdin, 1 stdout, 2 stderr, 3 the final Status, 4 resize,
// 255 close), and the v4 channel protocol for port-forward's connections (channels 2i data and
// 2i+1 error per port, each opened by the port as a little-endian uint16), with a SPDY upgrade that
// opens no stream as its check before listening — client-go's remotecommand and portforward
// clients are the upstream counterparts.
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { ApiStatusError, statusError, type LabConnection } from './connection.js';

const enc = encodeURIComponent;

function socketUrl(conn: LabConnection, path: string): string {
  return `wss://${new URL(conn.creds.server).host}${path}`;
}

/**
 * The refusal of an upgrade: a Status (`container x is not valid for pod y`, 400 BadRequest), kept
 * as one; any other answer (the kubelet's text, `container not found ("app")`) in client-go's words,
 * `unable to upgrade connection: …`.
 */
function rejectWithRefusal(res: IncomingMessage, reject: (e: Error) => void): void {
  let body = '';
  res.on('data', (c: Buffer) => (body += c.toString()));
  res.on('end', () => {
    const e = statusError({ status: res.statusCode ?? 0, headers: res.headers, body });
    reject(e.status ? e : new ApiStatusError(e.code, '', `unable to upgrade connection: ${body.trim()}`));
  });
}

function open(conn: LabConnection, path: string, protocols: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl(conn, path), protocols, { ca: conn.creds.ca, headers: { Authorization: `Bearer ${conn.creds.token}` } });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => rejectWithRefusal(res, reject));
    ws.once('error', reject);
  });
}

export interface ExecIo {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): void };
  stdout: NodeJS.WritableStream & { columns?: number; rows?: number; on?(ev: 'resize', f: () => void): unknown };
  stderr: NodeJS.WritableStream;
}

/** Runs a command in a container, streaming stdin/stdout/stderr; resolves with its exit code (rejects after `timeoutMs`, if given). */
export async function execInteractive(
  conn: LabConnection,
  namespace: string,
  pod: string,
  container: string,
  command: string[],
  opts: { stdin: boolean; tty: boolean; timeoutMs?: number },
  io: ExecIo,
): Promise<number> {
  const q = new URLSearchParams({ container, stdout: 'true', stderr: opts.tty ? 'false' : 'true', stdin: String(opts.stdin), tty: String(opts.tty) });
  for (const c of command) q.append('command', c);
  const ws = await open(conn, `/api/v1/namespaces/${enc(namespace)}/pods/${enc(pod)}/exec?${q}`, ['v5.channel.k8s.io']);
  const frame = (ch: number, data: Buffer | string) => Buffer.concat([Buffer.from([ch]), Buffer.isBuffer(data) ? data : Buffer.from(data)]);
  return new Promise((resolve, reject) => {
    let status: { status?: string; message?: string; details?: { causes?: { reason?: string; message?: string }[] } } | undefined;
    const cleanups: (() => void)[] = [];
    if (opts.timeoutMs !== undefined) {
      const timer = setTimeout(() => {
        cleanups.forEach((c) => c());
        ws.terminate();
        reject(new Error(`exec timed out after ${opts.timeoutMs! / 1000}s`));
      }, opts.timeoutMs);
      cleanups.push(() => clearTimeout(timer));
    }
    if (opts.tty && io.stdout.columns) {
      const resize = () => ws.readyState === ws.OPEN && ws.send(frame(4, JSON.stringify({ Width: io.stdout.columns, Height: io.stdout.rows })));
      resize();
      io.stdout.on?.('resize', resize);
    }
    if (opts.stdin && io.stdin) {
      const stdin = io.stdin;
      if (opts.tty && stdin.isTTY && stdin.setRawMode) {
        stdin.setRawMode(true);
        cleanups.push(() => stdin.setRawMode?.(false));
      }
      const onData = (d: Buffer) => ws.readyState === ws.OPEN && ws.send(frame(0, d));
      const onEnd = () => ws.readyState === ws.OPEN && ws.send(Buffer.from([255, 0]));
      stdin.on('data', onData);
      stdin.on('end', onEnd);
      cleanups.push(() => {
        stdin.off('data', onData);
        stdin.off('end', onEnd);
        (stdin as NodeJS.ReadableStream & { pause?(): void }).pause?.();
      });
      stdin.resume();
    }
    ws.on('message', (data: Buffer) => {
      const ch = data[0];
      const payload = data.subarray(1);
      if (ch === 1) io.stdout.write(payload);
      else if (ch === 2) io.stderr.write(payload);
      else if (ch === 3) status = JSON.parse(payload.toString('utf8')) as typeof status;
    });
    ws.on('error', (e) => {
      cleanups.forEach((c) => c());
      reject(e);
    });
    ws.on('close', () => {
      cleanups.forEach((c) => c());
      if (!status || status.status === 'Success') return resolve(0);
      const code = status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
      if (code !== undefined) return resolve(Number(code));
      reject(new Error(status.message ?? 'exec failed'));
    });
  });
}

/** Runs a command without stdin and collects its output (the EngineApi's exec). */
export async function execCollect(conn: LabConnection, namespace: string, pod: string, container: string, command: string[], timeoutMs = 30_000): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const collect = (to: Buffer[]) => new Writable({ write: (c: Buffer, _e, done) => (to.push(Buffer.from(c)), done()) });
  const exitCode = await execInteractive(conn, namespace, pod, container, command, { stdin: false, tty: false, timeoutMs }, { stdout: collect(out), stderr: collect(err) });
  return { exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

const portForwardPath = (namespace: string, pod: string, port?: number) =>
  `/api/v1/namespaces/${enc(namespace)}/pods/${enc(pod)}/portforward${port === undefined ? '' : `?ports=${port}`}`;

/**
 * Upgrades the pod's port-forward connection once and closes it: the server's refusal (no such
 * pod, no IP) comes before anything listens, as kubectl's dial comes first. It asks for SPDY (the
 * upgrade kubectl made before its WebSocket tunnel), where the pod's ports are dialled only for the
 * streams a connection opens — none here, so the app sees no connection (the v4 channel protocol
 * would dial every port named at once).
 */
export function portForwardCheck(conn: LabConnection, namespace: string, pod: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(portForwardPath(namespace, pod), conn.creds.server), {
      method: 'POST',
      ca: conn.creds.ca,
      headers: { Authorization: `Bearer ${conn.creds.token}`, Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'portforward.k8s.io' },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve();
    });
    req.on('response', (res) => rejectWithRefusal(res, reject));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Joins a local connection to the pod's port through a WebSocket of its own. `failed` gets the
 * error stream's message (`error forwarding port 80 to pod …`) or why the stream could not be
 * opened; the local connection is closed then.
 */
export function forwardConnection(conn: LabConnection, namespace: string, pod: string, remotePort: number, sock: Socket, failed: (message: string) => void): void {
  sock.pause();
  open(conn, portForwardPath(namespace, pod, remotePort), ['v4.channel.k8s.io']).then(
    (ws) => {
      // (the local side went away while the stream was opening: nothing to join)
      if (sock.destroyed) return ws.close();
      const seen = new Set<number>();
      let error = '';
      ws.on('message', (data: Buffer) => {
        const ch = data[0]!;
        let payload = data.subarray(1);
        // The first message of each channel is the port.
        if (!seen.has(ch)) {
          seen.add(ch);
          payload = payload.subarray(2);
        }
        if (payload.length === 0) return;
        if (ch === 0) sock.write(payload);
        else if (ch === 1) error += payload.toString('utf8');
      });
      sock.on('data', (d: Buffer) => ws.readyState === ws.OPEN && ws.send(Buffer.concat([Buffer.from([0]), d])));
      sock.on('close', () => ws.close());
      sock.on('error', () => ws.close());
      ws.on('close', () => {
        sock.end();
        if (error) failed(error);
      });
      ws.on('error', () => sock.destroy());
      sock.resume();
    },
    (e: Error) => {
      sock.destroy();
      failed(e.message);
    },
  );
}
