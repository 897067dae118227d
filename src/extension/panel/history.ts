// The pod's phase and kubectl STATUS over time, rebuilt from what the server keeps — the creation
// time, every container attempt's start and finish (the lab's attempt archive, or on a cluster the
// status's state and lastState), the BackOff events — for the part of the pod's life the panel did
// not watch (a panel opened, or re-opened, on a pod that already ran). At each moment something
// changed it rebuilds the container statuses as they were then and asks the same functions that
// compute them live: the kubelet's getPhase (pkg/kubelet/kubelet_pods.go, src/engine/kubelet/status.ts)
// and kubectl's printPod (src/engine/printer.ts). Pure: no `vscode`, no I/O.
import type { Container, ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { getPhase } from '../../engine/kubelet/status.js';
import { isRestartableInit } from '../../engine/kubelet/actions.js';
import { podStatusText } from '../../engine/printer.js';
import type { AttemptView, EventView } from '../../shared/protocol.js';

export interface StatusMark {
  at: number;
  phase: string;
  status: string;
}

/** Attempts of one container, by name. */
export type AttemptsByName = ReadonlyMap<string, readonly AttemptView[]>;

/** A gap this long between an exit and the next start was the kubelet's crash-loop back-off (the shortest is 10 s). */
const BACKOFF_GAP_MS = 2000;
/**
 * A restart this soon after the exit happened in the same sync (a liveness kill, or a first restart
 * without back-off): the exit was never published as the container's state.
 */
const SAME_SYNC_MS = 500;

const startOf = (a: AttemptView): number => a.startedAt ?? a.createdAt;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The container's status at `t`: its latest attempt started by then, running or exited, or still waiting. */
function statusAt(
  c: Container,
  attempts: readonly AttemptView[],
  t: number,
  defaultWaiting: string,
  nowState: ContainerStatus | undefined,
  readySince: number | undefined,
  backoffSeen: readonly number[],
): ContainerStatus {
  const started = attempts.filter((a) => startOf(a) <= t && (a.state !== 'created' || a.startedAt !== undefined));
  const base = { name: c.name, image: c.image ?? '', imageID: '' };
  if (started.length === 0) return { ...base, ready: false, restartCount: 0, state: { waiting: { reason: defaultWaiting } } };
  const latest = started[started.length - 1]!;
  const previous = started[started.length - 2];
  const terminated = (a: AttemptView) => ({
    exitCode: a.exitCode ?? 0,
    reason: a.reason ?? (a.exitCode === 0 ? 'Completed' : 'Error'),
    startedAt: iso(startOf(a)),
    finishedAt: iso(a.finishedAt ?? startOf(a)),
    containerID: a.containerId,
  });
  const lastState = previous?.finishedAt !== undefined ? { terminated: terminated(previous) } : {};
  if (latest.finishedAt === undefined || latest.finishedAt > t) {
    const ready = !c.readinessProbe || (readySince !== undefined && t >= readySince);
    return { ...base, ready, started: true, restartCount: latest.attempt, state: { running: { startedAt: iso(startOf(latest)) } }, lastState };
  }
  // Exited by `t`: in back-off until the next attempt when one came long enough after (or, for the
  // last attempt, when the container waits in CrashLoopBackOff now).
  // The wait shows from the first BackOff event seen in the gap, or from the exit itself when no event
  // time falls there (an event keeps only its first and last time).
  const next = attempts.find((a) => startOf(a) > t);
  const gapEnd = next ? startOf(next) : Number.POSITIVE_INFINITY;
  const backingOff = next
    ? gapEnd - latest.finishedAt >= BACKOFF_GAP_MS
    : nowState?.state?.waiting?.reason === 'CrashLoopBackOff' && nowState.restartCount === latest.attempt;
  const waitFrom = backoffSeen.find((at) => at > latest.finishedAt! && at < gapEnd) ?? latest.finishedAt;
  if (backingOff && t >= waitFrom) {
    return {
      ...base,
      ready: false,
      started: false,
      restartCount: latest.attempt,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: terminated(latest) },
    };
  }
  return { ...base, ready: false, started: false, restartCount: latest.attempt, state: { terminated: terminated(latest) }, lastState };
}

function condition(type: string, ok: boolean): PodCondition {
  return { type, status: ok ? 'True' : 'False' };
}

/**
 * The phase and STATUS marks of the pod's life before `until` (when the panel began to watch),
 * one per change, starting with Pending at the pod's creation. Empty when the pod has no creation time.
 */
export function reconstructHistory(pod: Pod, attempts: AttemptsByName, until: number, events: readonly EventView[] = []): StatusMark[] {
  const created = pod.metadata?.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : Number.NaN;
  if (!Number.isFinite(created) || created >= until) return [];
  const inits = pod.spec?.initContainers ?? [];
  const apps = pod.spec?.containers ?? [];
  const sorted = (name: string) => [...(attempts.get(name) ?? [])].sort((a, b) => a.attempt - b.attempt || startOf(a) - startOf(b));
  const byName = new Map([...inits, ...apps].map((c) => [c.name, sorted(c.name)]));
  const nowStatus = new Map([...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].map((s) => [s.name, s]));
  const readyCond = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const readySince = readyCond?.status === 'True' && readyCond.lastTransitionTime ? Date.parse(readyCond.lastTransitionTime) : undefined;

  const times = new Set<number>();
  for (const list of byName.values())
    for (const a of list) {
      if (a.startedAt !== undefined || a.state !== 'created') times.add(startOf(a));
      const next = list.find((n) => n.attempt > a.attempt);
      if (a.finishedAt !== undefined && !(next && startOf(next) - a.finishedAt < SAME_SYNC_MS)) times.add(a.finishedAt);
    }
  // Condition transitions: the kubelet's first status (scheduling, the sandbox, Initialized, Ready).
  for (const c of pod.status?.conditions ?? []) {
    const at = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN;
    if (Number.isFinite(at)) times.add(at);
  }
  // BackOff events: when a container's crash-loop wait was first seen, by container (the event's last
  // time is only its latest repeat during some later wait).
  const backoffSeen = new Map<string, number[]>();
  for (const e of events) {
    const name = /\{(.+)\}$/.exec(e.fieldPath)?.[1];
    if (e.reason !== 'BackOff' || !name) continue;
    const at = e.firstAt !== undefined ? [e.firstAt] : [];
    backoffSeen.set(name, [...(backoffSeen.get(name) ?? []), ...at].sort((a, b) => a - b));
    for (const x of at) times.add(x);
  }

  const defaultWaiting = inits.length > 0 ? 'PodInitializing' : 'ContainerCreating';
  const marks: StatusMark[] = [{ at: created, phase: 'Pending', status: 'Pending' }];
  // Until the kubelet first writes a status the pod is Pending with no container statuses.
  for (const t of [...times].filter((x) => x > created && x < until).sort((a, b) => a - b)) {
    const init = inits.map((c) => statusAt(c, byName.get(c.name)!, t, defaultWaiting, nowStatus.get(c.name), readySince, backoffSeen.get(c.name) ?? []));
    const initialized = inits.every((c, i) => {
      const s = init[i]!;
      return isRestartableInit(c) ? s.started === true : s.state?.terminated?.exitCode === 0;
    });
    const regular = apps.map((c) => statusAt(c, byName.get(c.name)!, t, defaultWaiting, nowStatus.get(c.name), readySince, backoffSeen.get(c.name) ?? []));
    const phase = getPhase(pod, { init, regular }, false, initialized);
    const ready = regular.every((s) => s.ready) && initialized;
    const snapshot: Pod = {
      metadata: { name: pod.metadata?.name, namespace: pod.metadata?.namespace },
      spec: pod.spec,
      status: {
        phase,
        conditions: [condition('Initialized', initialized), condition('Ready', ready)],
        initContainerStatuses: init,
        containerStatuses: regular,
      },
    };
    const status = podStatusText(snapshot);
    const last = marks[marks.length - 1];
    if (!last || last.phase !== phase || last.status !== status) marks.push({ at: t, phase, status });
  }
  return marks;
}

/**
 * The marks to draw: the rebuilt ones before the first observed mark, then what the panel saw,
 * without a repeated state where the two meet.
 */
export function mergeHistory(rebuilt: readonly StatusMark[], observed: readonly StatusMark[]): StatusMark[] {
  const firstSeen = observed[0]?.at ?? Number.POSITIVE_INFINITY;
  const out: StatusMark[] = [];
  for (const m of [...rebuilt.filter((r) => r.at < firstSeen), ...observed]) {
    const last = out[out.length - 1];
    if (last && last.phase === m.phase && last.status === m.status) continue;
    out.push(m);
  }
  return out;
}
