// The grpc probe (upstream pkg/probe/grpc/grpc.go): grpc.health.v1.Health/Check over plaintext
// HTTP/2 (h2c), with grpc-go's blocking dial (connection attempts repeated until the deadline) and
// one deadline (timeoutSeconds) for dial and call. The two protobuf messages are tiny and encoded
// by hand: HealthCheckRequest{1: service string}, HealthCheckResponse{1: status enum}.
import http2 from 'node:http2';
import { STATUS_CODES } from 'node:http';
import { goQuote } from '../../../validation/errors.js';
import { realClock, type Clock } from '../../clock.js';
import { KUBELET_MINOR_VERSION } from '../lifecycle-handlers.js';
import { goDuration, joinHostPort } from './go-text.js';
import type { ProbeOutcome } from './worker.js';

/** grpc_health_v1.HealthCheckResponse_ServingStatus names. */
const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/** google.golang.org/grpc/codes names. */
export const GRPC_CODES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss',
  'Unauthenticated',
];
const codeName = (c: number) => GRPC_CODES[c] ?? `Code(${c})`;

/** grpc-go's HTTPStatusConvTab. */
const HTTP_STATUS_CONV: Record<number, number> = { 400: 13, 401: 16, 403: 7, 404: 12, 429: 14, 502: 14, 503: 14, 504: 14 };

// grpc-go's reconnect backoff (DefaultConfig without jitter): 1 s, ×1.6, ≤120 s.
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MULTIPLIER = 1.6;
const BACKOFF_MAX_MS = 120_000;

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

/** One gRPC length-prefixed message carrying HealthCheckRequest{service}. */
export function encodeHealthCheckRequest(service: string): Buffer {
  const s = Buffer.from(service, 'utf8');
  const msg = s.length ? Buffer.concat([Buffer.from([0x0a]), varint(s.length), s]) : Buffer.alloc(0);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(msg.length, 1);
  return Buffer.concat([head, msg]);
}

function readVarint(b: Buffer, at: number): [number, number] {
  let n = 0;
  let mul = 1;
  for (let i = at; i < b.length; i++) {
    const x = b[i]!;
    n += (x & 0x7f) * mul;
    mul *= 128;
    if (!(x & 0x80)) return [n, i + 1];
  }
  throw new Error('truncated varint');
}

/** The status field of a HealthCheckResponse message (0 = UNKNOWN when absent). */
export function decodeHealthCheckResponse(msg: Buffer): number {
  let status = 0;
  let i = 0;
  while (i < msg.length) {
    const [tag, a] = readVarint(msg, i);
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    i = a;
    if (wire === 0) {
      const [v, b] = readVarint(msg, i);
      if (field === 1) status = v;
      i = b;
    } else if (wire === 2) {
      const [len, b] = readVarint(msg, i);
      i = b + len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unknown wire type ${wire}`);
  }
  return status;
}

/** Servings status name as resp.GetStatus().String() prints it. */
export const servingStatusName = (n: number) => SERVING_STATUS[n] ?? String(n);

const sleep = (clock: Clock, ms: number) => new Promise<void>((r) => clock.setTimeout(r, ms));

/** A ready h2c session (server SETTINGS received), or undefined on error. */
function connectOnce(host: string, port: number, stopAt: number, clock: Clock): Promise<http2.ClientHttp2Session | undefined> {
  return new Promise((resolve) => {
    const authority = `http://${joinHostPort(host || '127.0.0.1', port)}`;
    let settled = false;
    const session = http2.connect(authority);
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      if (ok) resolve(session);
      else {
        session.destroy();
        resolve(undefined);
      }
    };
    const timer = clock.setTimeout(() => finish(false), Math.max(0, stopAt - clock.now()));
    session.once('remoteSettings', () => finish(true));
    session.once('error', () => finish(false));
    session.once('close', () => finish(false));
  });
}

interface RpcStatus {
  code: number;
  message: string;
}

type CallResult = { status: number } | { error: RpcStatus } | { timeout: true };

function call(session: http2.ClientHttp2Session, authority: string, service: string, stopAt: number, clock: Clock): Promise<CallResult> {
  return new Promise((resolve) => {
    const remaining = Math.max(1, stopAt - clock.now());
    const stream = session.request({
      ':method': 'POST',
      ':scheme': 'http',
      ':path': '/grpc.health.v1.Health/Check',
      ':authority': authority,
      'content-type': 'application/grpc',
      te: 'trailers',
      'user-agent': `kube-probe/${KUBELET_MINOR_VERSION}`,
      'grpc-timeout': `${remaining}m`,
    });
    let settled = false;
    const done = (r: CallResult) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      resolve(r);
    };
    const timer = clock.setTimeout(() => done({ timeout: true }), remaining);
    const chunks: Buffer[] = [];
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    stream.on('response', (h) => (headers = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', (e) => done({ error: { code: 14, message: e.message } }));
    stream.on('close', () => {
      const httpStatus = Number(headers[':status'] ?? 0);
      // The stream ended before any response headers: the connection went away.
      if (!httpStatus) return done({ error: { code: 14, message: 'error reading from server: EOF' } });
      const ct = headers['content-type'];
      const isGRPC = typeof ct === 'string' && /^application\/grpc(\+|;|$)/.test(ct);
      if (httpStatus !== 200 || !isGRPC) {
        // grpc-go operateHeaders: the HTTP status mapped to a code, with what was wrong.
        const errs: string[] = [];
        if (httpStatus !== 200) errs.push(`unexpected HTTP status code received from server: ${httpStatus} (${STATUS_CODES[httpStatus] ?? ''})`);
        if (!isGRPC) errs.push(ct === undefined ? 'malformed header: missing HTTP content-type' : `transport: received unexpected content-type ${goQuote(String(ct))}`);
        return done({ error: { code: HTTP_STATUS_CONV[httpStatus] ?? 2, message: errs.join('; ') } });
      }
      const gs = trailers['grpc-status'] ?? headers['grpc-status'];
      if (gs === undefined) return done({ error: { code: 13, message: 'server closed the stream without sending trailers' } });
      const code = Number(gs);
      if (code !== 0) {
        const raw = String(trailers['grpc-message'] ?? headers['grpc-message'] ?? '');
        let message = raw;
        try {
          message = decodeURIComponent(raw);
        } catch {
          /* keep raw */
        }
        return done({ error: { code, message } });
      }
      const body = Buffer.concat(chunks);
      if (body.length < 5) return done({ error: { code: 13, message: 'grpc: response has no message' } });
      if (body[0] !== 0) return done({ error: { code: 13, message: 'grpc: compressed message received without a decompressor' } });
      const len = body.readUInt32BE(1);
      try {
        done({ status: decodeHealthCheckResponse(body.subarray(5, 5 + len)) });
      } catch (e) {
        done({ error: { code: 13, message: `grpc: failed to unmarshal the received message: ${(e as Error).message}` } });
      }
    });
    stream.end(encodeHealthCheckRequest(service));
  });
}

/** grpcProber.Probe: every problem is a failure (like grpc_health_probe), never an error. */
export async function doGRPCProbe(host: string, service: string, port: number, timeoutMs: number, clock: Clock = realClock): Promise<ProbeOutcome> {
  const addr = joinHostPort(host, port);
  const within = goDuration(timeoutMs);
  const stopAt = clock.now() + timeoutMs;
  let session: http2.ClientHttp2Session | undefined;
  for (let attempt = 0; ; attempt++) {
    session = await connectOnce(host, port, stopAt, clock);
    if (session) break;
    const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * BACKOFF_MULTIPLIER ** attempt);
    if (clock.now() + wait >= stopAt) {
      if (stopAt > clock.now()) await sleep(clock, stopAt - clock.now());
      return { result: 'failure', output: `timeout: failed to connect service ${goQuote(addr)} within ${within}: context deadline exceeded` };
    }
    await sleep(clock, wait);
  }
  try {
    const r = await call(session, addr, service, stopAt, clock);
    if ('timeout' in r) return { result: 'failure', output: `timeout: health rpc did not complete within ${within}` };
    if ('error' in r) {
      const { code, message } = r.error;
      if (code === 12) return { result: 'failure', output: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${message}` };
      if (code === 4) return { result: 'failure', output: `timeout: health rpc did not complete within ${within}` };
      return { result: 'failure', output: `error: health rpc probe failed: rpc error: code = ${codeName(code)} desc = ${message}` };
    }
    if (r.status !== 1) return { result: 'failure', output: `service unhealthy (responded with ${goQuote(servingStatusName(r.status))})` };
    return { result: 'success', output: 'service healthy' };
  } finally {
    session.close();
    session.destroy();
  }
}
