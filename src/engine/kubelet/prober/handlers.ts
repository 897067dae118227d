// Running one probe (upstream pkg/kubelet/prober/prober.go newProberAction / runProbeWithRetries
// and pkg/probe/exec/exec.go): exec through the runtime's ExecSync, httpGet, tcpSocket and grpc
// through the network handlers. Thin I/O; each handler enforces the probe's timeoutSeconds itself.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { RuntimeError, type RuntimeService } from '../../../runtime/cri.js';
import { goQuote } from '../../../validation/errors.js';
import { realClock, type Clock } from '../../clock.js';
import { formatPod } from '../../events.js';
import { expandCommandOnlyStatic } from '../env.js';
import type { DefaultedProbe, ProbeType } from './defaults.js';
import { doGRPCProbe } from './grpc.js';
import { doHTTPProbe, newRequestForHTTPGetAction, resolveContainerPort } from './http.js';
import { doTCPProbe } from './tcp.js';
import type { ProbeOutcome } from './worker.js';

/** maxProbeRetries: a prober error (not a failed probe) is retried this many times at once. */
export const MAX_PROBE_RETRIES = 3;

/** exec maxReadLength: 10 KiB of stdout+stderr. */
export const MAX_EXEC_OUTPUT = 10 * 1024;

/** Everything one probe run needs. */
export interface ProbeRequest {
  probeType: ProbeType;
  /** Defaults applied. */
  probe: DefaultedProbe;
  pod: Pod;
  container: Container;
  containerId: string;
  /** status.podIP ('' for host networking: the probe then reaches the local system, as Go's ":port" does). */
  podIP: string;
}

/** Runs one probe to its outcome (retries included). The manager's seam for tests. */
export type ProbeRunner = (req: ProbeRequest) => Promise<ProbeOutcome>;

export interface HandlerDeps {
  runtime: RuntimeService;
  /** Times the handlers' timeouts (defaults to the real clock). */
  clock?: Clock;
}

export { expandCommandOnlyStatic };

/** The first `limit` bytes of a string's UTF-8 (ioutils.LimitWriter). */
function limitBytes(s: string, limit: number): string {
  const b = Buffer.from(s, 'utf8');
  return b.length <= limit ? s : b.subarray(0, limit).toString('utf8');
}

/** The runtime reports an ExecSync deadline (the Docker runtime: `… timed out after Ns`). */
function isExecTimeout(e: unknown): boolean {
  return e instanceof RuntimeError && /timed out/.test(e.message);
}

/**
 * The exec probe: ExecSync with timeoutSeconds; exit 0 success, else failure with stdout+stderr;
 * a timeout is a failure with the CRI client's `command "<cmd>" timed out` (exec TimeoutError).
 * The timed-out process is not killed.
 */
export async function execProbe(rt: RuntimeService, containerId: string, cmd: string[], timeoutMs: number, clock: Clock = realClock): Promise<ProbeOutcome> {
  const timedOut: ProbeOutcome = { result: 'failure', output: `command ${goQuote(cmd.join(' '))} timed out` };
  let timer: { cancel(): void } | undefined;
  const deadline = new Promise<'timeout'>((r) => (timer = clock.setTimeout(() => r('timeout'), timeoutMs)));
  const exec = rt.execSync(containerId, cmd, Math.ceil(timeoutMs / 1000));
  exec.catch(() => undefined); // a late rejection after the deadline must not go unhandled
  try {
    const r = await Promise.race([exec, deadline]);
    if (r === 'timeout') return timedOut;
    const output = limitBytes(r.stdout + r.stderr, MAX_EXEC_OUTPUT);
    return { result: r.exitCode === 0 ? 'success' : 'failure', output };
  } catch (e) {
    if (isExecTimeout(e)) return timedOut;
    return { result: 'unknown', output: '', error: (e as Error).message };
  } finally {
    timer?.cancel();
  }
}

/** One run of the probe's action (ProberAction.Run). */
export async function runProbeOnce(req: ProbeRequest, deps: HandlerDeps): Promise<ProbeOutcome> {
  const p = req.probe;
  const timeoutMs = p.timeoutSeconds * 1000;
  const clock = deps.clock ?? realClock;
  if (p.exec) {
    const cmd = expandCommandOnlyStatic(p.exec.command ?? [], req.container.env);
    return execProbe(deps.runtime, req.containerId, cmd, timeoutMs, clock);
  }
  if (p.httpGet) {
    let r;
    try {
      r = newRequestForHTTPGetAction(p.httpGet, req.container, req.podIP);
    } catch (e) {
      return { result: 'unknown', output: '', error: (e as Error).message };
    }
    return doHTTPProbe(r, timeoutMs, clock);
  }
  if (p.tcpSocket) {
    let port: number;
    try {
      port = resolveContainerPort(p.tcpSocket.port, req.container);
    } catch (e) {
      return { result: 'unknown', output: '', error: (e as Error).message };
    }
    return doTCPProbe(p.tcpSocket.host || req.podIP, port, timeoutMs, clock);
  }
  if (p.grpc) return doGRPCProbe(req.podIP, p.grpc.service ?? '', p.grpc.port, timeoutMs, clock);
  return { result: 'unknown', output: '', error: `missing probe handler for ${formatPod(req.pod)}:${req.container.name}` };
}

/** runProbeWithRetries: repeats while the prober errs (up to 3 runs), returns the last outcome. */
export async function runProbeWithRetries(req: ProbeRequest, deps: HandlerDeps, retries = MAX_PROBE_RETRIES): Promise<ProbeOutcome> {
  let out: ProbeOutcome = { result: 'unknown', output: '' };
  for (let i = 0; i < retries; i++) {
    out = await runProbeOnce(req, deps);
    if (out.error === undefined) return out;
  }
  return out;
}

/** The default ProbeRunner for the manager. */
export const probeRunner =
  (deps: HandlerDeps): ProbeRunner =>
  (req) =>
    runProbeWithRetries(req, deps);
