// The simulated kubelet's decisions, as pure functions: the counterpart of KWOK's pod stages
// (kwok's kustomize/stage/pod/*: pod-ready, pod-complete) done the lab's way. A pod bound to a
// simulated node gets a runtime that exists only as data — a sandbox with an IP, container
// instances that start, run and exit on a timeline — and its status is the real kubelet's
// generatePodStatus over that data, so phases, conditions, reasons, restart counts and the
// CrashLoopBackOff message are the kubelet's own. Nothing is started anywhere.
//
// The timeline, from the moment the simulated kubelet saw the pod bound (`boundAt`):
//   boundAt                the sandbox is ready (pod IP); containers are ContainerCreating
//   startAt = boundAt + startDelay
//                          init containers run and complete (exit 0) at once, in order; sidecars
//                          and app containers are running
//   with an exit (pod annotations): each app container instance runs `afterMs`, then exits with
//   `code`; restartPolicy Always (or OnFailure with code ≠ 0) restarts it — the first restart at
//   once, then after 10s, 20s, 40s … capped at the back-off maximum (kubelet-behaviour §5), in
//   CrashLoopBackOff meanwhile; otherwise it stays terminated and the pod ends Succeeded or Failed,
//   its sandbox stopped once the last app container has ended (no pod IP, PodReadyToStartContainers
//   False). Its sidecars end then too, as the kubelet stops them once the regular containers have
//   ended; each exits 0 (Completed), as KWOK's pod-complete stage writes every container.
// Probes and hooks are not run: a container is ready when it runs.
import type { Container, Node, Pod } from 'kubernetes-types/core/v1';
import { SimulatedExitAfterAnnotation, SimulatedExitCodeAnnotation, SimulatedStartDelayAnnotation } from '../../shared/labels.js';
import { goDuration, parseGoDuration } from '../../shared/go.js';
import { formatPod } from '../events.js';
import type { KContainerStatus, RuntimePodStatus, StartFailure } from '../kubelet/types.js';

/** How long a simulated pod stays ContainerCreating unless its node says otherwise. */
export const DEFAULT_START_DELAY_MS = 1000;
/** How long an instance runs before a configured exit when the pod gives no duration. */
export const DEFAULT_EXIT_AFTER_MS = 10_000;

export interface SimulationPlan {
  /** When the simulated kubelet took the pod (epoch ms). */
  boundAt: number;
  /** boundAt + the node's start delay. */
  startAt: number;
  /** The configured exit of every app container instance, if any. */
  exit?: { code: number; afterMs: number };
  /** The pod's IP (from the simulated kubelet's range). */
  ip: string;
  backoffInitialMs: number;
  backoffMaxMs: number;
}

/** A plan's settings read from the node's and the pod's annotations; `problems` name what was ignored. */
export function planSettings(pod: Pod, node: Node | undefined): { startDelayMs: number; exit?: { code: number; afterMs: number }; problems: string[] } {
  const problems: string[] = [];
  const duration = (key: string, text: string | undefined, fallback: number): number => {
    if (text === undefined) return fallback;
    const d = parseGoDuration(text);
    if (typeof d === 'number' && d >= 0) return d;
    problems.push(`${key}: ${typeof d === 'number' ? 'must not be negative' : d.error}; using ${goDuration(fallback)}`);
    return fallback;
  };
  const startDelayMs = duration(SimulatedStartDelayAnnotation, node?.metadata?.annotations?.[SimulatedStartDelayAnnotation], DEFAULT_START_DELAY_MS);
  const ann = pod.metadata?.annotations ?? {};
  const codeText = ann[SimulatedExitCodeAnnotation];
  if (codeText === undefined) {
    if (ann[SimulatedExitAfterAnnotation] !== undefined) problems.push(`${SimulatedExitAfterAnnotation} has no effect without ${SimulatedExitCodeAnnotation}`);
    return { startDelayMs, problems };
  }
  const code = /^[0-9]{1,3}$/.test(codeText) ? Number(codeText) : NaN;
  if (!(code >= 0 && code <= 255)) {
    problems.push(`${SimulatedExitCodeAnnotation}: ${JSON.stringify(codeText)} is not an exit code (0 to 255); the containers run on`);
    return { startDelayMs, problems };
  }
  return { startDelayMs, exit: { code, afterMs: duration(SimulatedExitAfterAnnotation, ann[SimulatedExitAfterAnnotation], DEFAULT_EXIT_AFTER_MS) }, problems };
}

const restarts = (pod: Pod, code: number) => {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  return policy === 'Always' || (policy === 'OnFailure' && code !== 0);
};

/** The delay before the restart that follows the k-th exit (k = 0: at once; then initial, ×2, capped). */
export function restartDelay(k: number, initialMs: number, maxMs: number): number {
  if (k === 0) return 0;
  return Math.min(initialMs * 2 ** (k - 1), maxMs);
}

const idOf = (pod: Pod, name: string, instance: number) => `simulated://${(pod.metadata?.uid ?? '').replace(/-/g, '').slice(0, 12)}-${name}-${instance}`;

function instance(pod: Pod, c: Container, k: number, sandboxId: string, startedAt: number, finishedAt: number | undefined, exitCode: number): KContainerStatus {
  const exited = finishedAt !== undefined;
  return {
    id: idOf(pod, c.name, k),
    name: c.name,
    state: exited ? 'exited' : 'running',
    createdAt: startedAt,
    startedAt,
    finishedAt: finishedAt ?? 0,
    exitCode: exited ? exitCode : 0,
    image: c.image ?? '',
    imageRef: '',
    reason: exited ? (exitCode === 0 ? 'Completed' : 'Error') : '',
    message: '',
    hash: '',
    restartCount: k,
    sandboxId,
  };
}

export interface SimulatedRuntime {
  runtime: RuntimePodStatus;
  /** Why a container is not running now (CrashLoopBackOff during a back-off). */
  reasons: Map<string, StartFailure>;
  /** When the pod's status changes next (epoch ms), if it ever does. */
  next?: number;
}

/** The pod's simulated runtime at `now`: its sandbox and the newest two instances of each container. */
export function simulatedRuntime(pod: Pod, plan: SimulationPlan, now: number): SimulatedRuntime {
  const uid = pod.metadata?.uid ?? '';
  const sandboxId = `simulated-sandbox-${uid}`;
  const runtime: RuntimePodStatus = {
    uid,
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    sandboxes: [
      {
        id: sandboxId,
        metadata: { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default', uid, attempt: 0 },
        state: 'SANDBOX_READY',
        createdAt: plan.boundAt,
        ip: pod.spec?.hostNetwork ? '' : plan.ip,
        labels: {},
        annotations: {},
      },
    ],
    containers: [],
  };
  const reasons = new Map<string, StartFailure>();
  if (now < plan.startAt) return { runtime, reasons, next: plan.startAt };
  let next: number | undefined;
  /** When the last app container ended for good (none restarts); undefined while one runs or will. */
  let endedAt: number | undefined = (pod.spec?.containers ?? []).length > 0 ? -Infinity : undefined;
  const soon = (t: number) => {
    if (t > now && (next === undefined || t < next)) next = t;
  };
  const sidecars: Container[] = [];
  for (const c of pod.spec?.initContainers ?? []) {
    // Sidecars run on (until the pod ends, below); other init containers complete at once, in order.
    if (c.restartPolicy === 'Always') sidecars.push(c);
    else runtime.containers.push(instance(pod, c, 0, sandboxId, plan.startAt, plan.startAt, 0));
  }
  for (const c of pod.spec?.containers ?? []) {
    if (!plan.exit) {
      runtime.containers.push(instance(pod, c, 0, sandboxId, plan.startAt, undefined, 0));
      endedAt = undefined;
      continue;
    }
    const { code, afterMs } = plan.exit;
    // Walk the instances up to now: instance k starts at s, exits at s + afterMs.
    let k = 0;
    let s = plan.startAt;
    const kept: KContainerStatus[] = [];
    for (;;) {
      const f = s + afterMs;
      const done = f <= now;
      kept.unshift(instance(pod, c, k, sandboxId, s, done ? f : undefined, code));
      if (kept.length > 2) kept.pop();
      if (!done) {
        soon(f);
        endedAt = undefined;
        break;
      }
      if (!restarts(pod, code)) {
        if (endedAt !== undefined) endedAt = Math.max(endedAt, f);
        break;
      }
      endedAt = undefined;
      const delay = restartDelay(k, plan.backoffInitialMs, plan.backoffMaxMs);
      const nextStart = f + delay;
      if (nextStart > now) {
        reasons.set(c.name, {
          reason: 'CrashLoopBackOff',
          message: `back-off ${goDuration(delay)} restarting failed container=${c.name} pod=${formatPod(pod)}`,
          backoff: { delayMs: delay, until: nextStart },
        });
        soon(nextStart);
        break;
      }
      k++;
      s = nextStart;
      if (k > 100_000) break; // zero durations and delays would never reach `now`
    }
    runtime.containers.push(...kept);
  }
  // A pod whose containers have all ended for good is finished: the kubelet stops its sidecars and its sandbox.
  for (const c of sidecars) runtime.containers.push(instance(pod, c, 0, sandboxId, plan.startAt, endedAt, 0));
  if (endedAt !== undefined) runtime.sandboxes[0]!.state = 'SANDBOX_NOTREADY';
  // Newest first, as the runtime lists them.
  runtime.containers.sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
  return { runtime, reasons, ...(next !== undefined ? { next } : {}) };
}
