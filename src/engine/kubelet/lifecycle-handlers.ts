// Lifecycle hook handlers: postStart and preStop as exec, httpGet or sleep (upstream
// pkg/kubelet/lifecycle/handlers.go handlerRunner.Run). Each run resolves to undefined on
// success or to the kubelet's failure message, which is never put into events.
import http from 'node:http';
import https from 'node:https';
import type { Container, LifecycleHandler, Pod } from 'kubernetes-types/core/v1';
import type { RuntimeService } from '../../runtime/cri.js';
import type { Clock } from '../clock.js';
import { formatPod } from '../events.js';
import { goQuote } from '../../validation/errors.js';
import { KUBERNETES_MAJOR, KUBERNETES_MINOR } from '../../shared/kubernetes-version.js';

/** The kubelet version the lab reports in User-Agent headers (kube-lifecycle/<major>.<minor>): the lab server's release. */
export const KUBELET_MINOR_VERSION = `${KUBERNETES_MAJOR}.${KUBERNETES_MINOR}`;

export interface HookContext {
  runtime: RuntimeService;
  clock: Clock;
  pod: Pod;
  container: Container;
  containerId: string;
  /** The pod's first IP (the host for httpGet without `host`). */
  podIP: string;
  /** Aborted when the hook's time is up (preStop grace) or the container is gone. */
  signal?: AbortSignal;
}

/** Go's `%v` of a []string: `[sh -c exit 3]`. */
const goSlice = (xs: readonly string[]) => `[${xs.join(' ')}]`;

function resolvePort(port: number | string, c: Container): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

function httpGet(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http;
    const req = mod.get(url, { headers, rejectUnauthorized: false, signal }, (res) => {
      // The response body is discarded; any status counts as delivered (discardHTTPRespBody).
      res.resume();
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Go's net/http error text for a failed GET, as far as Node lets us see it. */
export function goHttpError(url: string, hostPort: string, e: NodeJS.ErrnoException): string {
  if (e.code === 'ECONNREFUSED') return `Get ${goQuote(url)}: dial tcp ${hostPort}: connect: connection refused`;
  if (e.code === 'EHOSTUNREACH') return `Get ${goQuote(url)}: dial tcp ${hostPort}: connect: no route to host`;
  if (e.code === 'ECONNRESET') return `Get ${goQuote(url)}: read tcp ${hostPort}: read: connection reset by peer`;
  if (e.name === 'AbortError') return `Get ${goQuote(url)}: context canceled`;
  return `Get ${goQuote(url)}: ${e.message}`;
}

function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const t = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      t.cancel();
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** handlerRunner.Run: undefined on success, else the failure message. */
export async function runLifecycleHandler(h: LifecycleHandler, ctx: HookContext): Promise<string | undefined> {
  const who = `for Container ${goQuote(ctx.container.name)} in Pod ${goQuote(formatPod(ctx.pod))}`;
  if (h.exec) {
    const cmd = h.exec.command ?? [];
    try {
      // No timeout: an exec hook runs until it returns (preStop is bounded by the grace period by the caller).
      const r = await ctx.runtime.execSync(ctx.containerId, cmd, 0);
      if (r.exitCode === 0) return undefined;
      const err = `command '${cmd.join(' ')}' exited with ${r.exitCode}: ${r.stderr}`;
      return `Exec lifecycle hook (${goSlice(cmd)}) ${who} failed - error: ${err}, message: ${goQuote(r.stdout + r.stderr)}`;
    } catch (e) {
      return `Exec lifecycle hook (${goSlice(cmd)}) ${who} failed - error: ${(e as Error).message}, message: ""`;
    }
  }
  if (h.httpGet) {
    const g = h.httpGet;
    const host = g.host || ctx.podIP;
    const port = resolvePort(g.port, ctx.container);
    const scheme = (g.scheme ?? 'HTTP').toLowerCase();
    let path = g.path ?? '';
    if (path && !path.startsWith('/')) path = `/${path}`;
    const hostPort = `${host}:${port ?? g.port}`;
    const url = `${scheme}://${hostPort}${path}`;
    const headers: Record<string, string> = { 'User-Agent': `kube-lifecycle/${KUBELET_MINOR_VERSION}` };
    for (const hd of g.httpHeaders ?? []) headers[hd.name] = hd.value;
    try {
      if (port === undefined) throw Object.assign(new Error(`unable to find the port ${String(g.port)}`), { code: 'EPORT' });
      await httpGet(url, headers, ctx.signal);
      return undefined;
    } catch (e) {
      return `HTTP lifecycle hook (${g.path ?? ''}) ${who} failed - error: ${goHttpError(url, hostPort, e as NodeJS.ErrnoException)}`;
    }
  }
  if (h.sleep) {
    const seconds = h.sleep.seconds;
    const finished = await sleep(ctx.clock, seconds * 1000, ctx.signal);
    if (finished) return undefined;
    return `Sleep lifecycle hook (${seconds}) ${who} failed - error: container terminated before sleep hook finished`;
  }
  if (h.tcpSocket) return undefined; // deprecated and kept only for compatibility: the kubelet ignores it.
  return `Cannot run handler: invalid handler: ${JSON.stringify(h)}`;
}
