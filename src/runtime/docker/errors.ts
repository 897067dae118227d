// Docker/dockerode errors -> RuntimeError with one clear line. Pure.
import { RuntimeError } from '../cri.js';

export const StartDockerHint = 'Start Docker (on this machine: bash scripts/ensure-docker.sh) and try again.';

/** Node socket errors that mean "Docker is not there". */
const unavailableCodes = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'EPERM',
  'ENOTSOCK',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ABORT_ERR',
]);

interface DockerodeErrorLike {
  message?: string;
  code?: string;
  name?: string;
  statusCode?: number;
  json?: unknown;
}

export function isConnectionError(err: unknown): boolean {
  const e = err as DockerodeErrorLike | null;
  if (!e || typeof e !== 'object') return false;
  if (e.statusCode) return false;
  return (e.code !== undefined && unavailableCodes.has(e.code)) || e.name === 'AbortError' || e.name === 'TimeoutError';
}

function connectionReason(e: DockerodeErrorLike): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such socket';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      if (e.name === 'AbortError' || e.name === 'TimeoutError' || e.code === 'ABORT_ERR') return 'no answer in time';
      return (e.message ?? String(e)).split('\n')[0];
  }
}

/** The one message for "Docker is down". */
export function unavailableMessage(target: string, err: unknown): string {
  const e = (err ?? {}) as DockerodeErrorLike;
  return `Cannot connect to Docker at ${target}: ${connectionReason(e)}. ${StartDockerHint}`;
}

/** Docker's own error text (the daemon's `message`), without dockerode's `(HTTP code …)` wrapping. */
export function dockerMessage(err: unknown): string {
  const e = (err ?? {}) as DockerodeErrorLike;
  const j = e.json as { message?: unknown } | string | Buffer | null | undefined;
  if (j && typeof j === 'object' && !Buffer.isBuffer(j) && typeof j.message === 'string') return j.message.trim();
  if (typeof j === 'string' && j.trim() !== '') return j.trim();
  if (Buffer.isBuffer(j) && j.length > 0) return j.toString('utf8').trim();
  const m = e.message ?? String(err);
  // "(HTTP code 404) no such container - No such container: abc "
  const match = /^\(HTTP code \d+\) [^-]*- (.*)$/s.exec(m);
  return (match ? match[1] : m).trim();
}

export function statusCode(err: unknown): number | undefined {
  const e = err as DockerodeErrorLike | null;
  return e && typeof e === 'object' ? e.statusCode : undefined;
}

/**
 * Wraps any error from a Docker call: connection problems -> 'Unavailable' (one line), 404 ->
 * 'NotFound' (for plain lookups, i.e. when `code` is 'Other'), anything else -> `code` with `Error response from daemon: <message>` (prefixed by
 * `what` when given).
 */
export function toRuntimeError(err: unknown, target: string, code: RuntimeError['code'] = 'Other', what?: string): RuntimeError {
  if (err instanceof RuntimeError) return err;
  if (isConnectionError(err)) return new RuntimeError(unavailableMessage(target, err), 'Unavailable');
  const sc = statusCode(err);
  const base = sc ? `Error response from daemon: ${dockerMessage(err)}` : dockerMessage(err);
  return new RuntimeError(what ? `${what}: ${base}` : base, sc === 404 && code === 'Other' ? 'NotFound' : code);
}
