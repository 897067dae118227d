// Pod status generation, as the kubelet's generateAPIPodStatus does it (kubelet_pods.go,
// status/generate.go, prober_manager UpdatePodStatus, status_manager transition times).
// Pure: the pod (spec + previous status), the runtime's view of it and `now` in, a v1 PodStatus out.
import type {
  Container,
  ContainerState,
  ContainerStateTerminated,
  ContainerStatus,
  Pod,
  PodCondition,
  PodSpec,
  PodStatus,
} from 'kubernetes-types/core/v1';
import { rfc3339 } from '../clock.js';
import { parseQuantity } from '../../validation/quantity.js';
import { podSandboxChanged, shouldContainerBeRestarted } from './actions.js';
import type { KContainerStatus, ProbeState, ReasonCache, RuntimePodStatus } from './types.js';
import { findContainerStatus } from './types.js';
import { ephemeralContainerSpec } from './ephemeral.js';
import { klona } from 'klona/json';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** Container state reasons the kubelet itself writes (kubelet_pods.go). */
export const PodInitializing = 'PodInitializing';
export const ContainerCreating = 'ContainerCreating';
export const ContainerStatusUnknown = 'ContainerStatusUnknown';

/** Condition reasons (status/generate.go). */
export const UnknownContainerStatuses = 'UnknownContainerStatuses';
export const PodCompleted = 'PodCompleted';
export const PodFailed = 'PodFailed';
export const ContainersNotReady = 'ContainersNotReady';
export const ContainersNotInitialized = 'ContainersNotInitialized';
export const ReadinessGatesNotReady = 'ReadinessGatesNotReady';

const isSidecar = (c: Container | undefined): boolean => c?.restartPolicy === 'Always';
const isTerminalPhase = (p: string | undefined): p is 'Succeeded' | 'Failed' => p === 'Succeeded' || p === 'Failed';
const byName = (list: readonly ContainerStatus[], name: string) => list.find((s) => s.name === name);
/** Go's `%s` of a []string: `[a b]`. */
const goList = (names: string[]) => `[${names.join(' ')}]`;

// ---------------------------------------------------------------------------------------------
// Phase

/** getPhase (kubelet_pods.go), with the alpha ContainerRestartRules gate off. */
export function getPhase(
  pod: Pod,
  statuses: { init: readonly ContainerStatus[]; regular: readonly ContainerStatus[] },
  podIsTerminal: boolean,
  podHasInitialized: boolean,
): PodPhase {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  let pendingInit = 0;
  let pendingSidecar = 0;
  let failedInit = 0;
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;

  for (const c of pod.spec?.initContainers ?? []) {
    const s = byName(statuses.init, c.name);
    const lastTerminated = s?.lastState?.terminated;
    if (isSidecar(c)) {
      if (!s) unknown++;
      else if (s.state?.running) {
        if (s.started !== true) pendingSidecar++;
        running++;
      } else if (s.state?.terminated) {
        // a terminated sidecar is ignored
      } else if (s.state?.waiting) {
        if (!lastTerminated) {
          pendingSidecar++;
          waiting++;
        }
      } else {
        pendingSidecar++;
        unknown++;
      }
      continue;
    }
    if (!s || s.state?.running) pendingInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state?.waiting) {
      if (!lastTerminated) pendingInit++;
      else if (lastTerminated.exitCode !== 0) failedInit++;
    } else pendingInit++;
  }

  for (const c of pod.spec?.containers ?? []) {
    const s = byName(statuses.regular, c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || (pendingSidecar > 0 && !podHasInitialized)) return 'Pending';
  if (waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

// ---------------------------------------------------------------------------------------------
// Container statuses (convertToAPIContainerStatuses)

export interface StatusInput {
  /** Spec, metadata (deletionTimestamp) and the previous status in pod.status. */
  pod: Pod;
  /** All sandboxes and container instances of the pod, newest first. */
  runtime: RuntimePodStatus;
  /** Container name -> why its last start failed. */
  reasonCache: ReasonCache;
  /** Probe-derived flags per container name; without an entry started = ready = running. */
  probes?: ReadonlyMap<string, ProbeState>;
  /** Deleting and everything stopped, or the kubelet decided the pod is finished. */
  podIsTerminal: boolean;
  /** epoch ms */
  now: number;
  /** The node's IPs (status.hostIP is the first); the previous ones are kept when none. */
  hostIPs?: readonly string[];
  /** A phase the kubelet forces over getPhase, with its reason and message (PodSyncHandlers: activeDeadlineSeconds). */
  phaseOverride?: { phase: PodPhase; reason: string; message: string };
}

const time = (ms: number): string | undefined => (ms > 0 ? rfc3339(ms) : undefined);

/** `docker://<id>`: the runtime-qualified container ID (kubecontainer.ContainerID.String()). */
export function containerIDString(id: string): string {
  return id.includes('://') ? id : `docker://${id}`;
}

/** The image ID as dockershim reported it: `docker-pullable://repo@sha256:…` when there is a repo digest, else `docker://sha256:…`. */
export function imageIDString(ref: string): string {
  if (!ref || ref.includes('://')) return ref;
  return ref.includes('@') ? `docker-pullable://${ref}` : `docker://${ref}`;
}

function terminated(t: ContainerStateTerminated): ContainerState {
  const out: ContainerStateTerminated = { exitCode: t.exitCode };
  if (t.signal) out.signal = t.signal;
  if (t.reason) out.reason = t.reason;
  if (t.message) out.message = t.message;
  if (t.startedAt) out.startedAt = t.startedAt;
  if (t.finishedAt) out.finishedAt = t.finishedAt;
  if (t.containerID) out.containerID = t.containerID;
  return { terminated: out };
}

/** One runtime instance as a v1 ContainerStatus (convertContainerStatus). */
function convertInstance(k: KContainerStatus, image: string, old: ContainerStatus | undefined): ContainerStatus {
  const cid = containerIDString(k.id);
  const s: ContainerStatus = {
    name: k.name,
    state: {},
    lastState: {},
    ready: false,
    restartCount: k.restartCount,
    image: k.image || image,
    imageID: imageIDString(k.imageRef),
    containerID: cid,
  };
  // (the CRI knows no volume names: the previous status's list, immutable)
  if (old?.volumeMounts) s.volumeMounts = clone(old.volumeMounts);
  switch (k.state) {
    case 'running':
      s.state = { running: { startedAt: time(k.startedAt) } };
      break;
    case 'created':
      s.state = { waiting: {} };
      break;
    case 'exited':
      s.state = terminated({
        exitCode: k.exitCode,
        reason: k.reason,
        message: k.message,
        startedAt: time(k.startedAt),
        finishedAt: time(k.finishedAt),
        containerID: cid,
      });
      break;
    default:
      if (old?.state?.running) {
        // It was running and the runtime lost it: it did run, so it is not "waiting".
        s.state = terminated({ exitCode: 137, reason: ContainerStatusUnknown, message: 'The container could not be located when the pod was terminated' });
        s.restartCount = (old.restartCount ?? 0) + 1;
      } else s.state = { waiting: {} };
  }
  return s;
}

function hasAnyRegularContainerCreated(pod: Pod, runtime: RuntimePodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const k = findContainerStatus(runtime, c.name);
    return !!k && k.state !== 'unknown';
  });
}

/** A regular container exists in the newest sandbox (HasAnyActiveRegularContainerStarted). */
export function hasAnyActiveRegularContainer(pod: Pod, runtime: RuntimePodStatus): boolean {
  const sandbox = runtime.sandboxes[0];
  if (!sandbox) return false;
  const names = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  return runtime.containers.some((k) => k.sandboxId === sandbox.id && names.has(k.name));
}

function clone<T>(v: T): T {
  return klona(v);
}

/**
 * The container's mounts as its status lists them (RecursiveReadOnlyMounts, on by default): a
 * read-only mount's recursive read-only mode resolves to Disabled, as the runtime here is not one
 * that reports recursive read-only support.
 */
function volumeMountStatuses(c: Container): ContainerStatus['volumeMounts'] {
  if (!c.volumeMounts?.length) return undefined;
  return c.volumeMounts.map((m) => ({ name: m.name, mountPath: m.mountPath, ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}) }));
}

/**
 * The `resources` of a status converted from a runtime instance (convertContainerStatusResources,
 * InPlacePodVerticalScaling): for a running container what was enacted on it — the runtime here
 * reports none, so the kubelet's fallback, the allocated resources — and for any other the allocated
 * resources. Allocated = the spec's (it cannot be resized here): every limit and request, extended
 * resources and hugepages included; {} when none.
 */
function statusResources(c: Container | undefined): NonNullable<ContainerStatus['resources']> {
  const limits = c?.resources?.limits;
  const requests = c?.resources?.requests;
  return { ...(limits && Object.keys(limits).length ? { limits: { ...limits } } : {}), ...(requests && Object.keys(requests).length ? { requests: { ...requests } } : {}) };
}

function convertContainerStatuses(
  input: StatusInput,
  containers: readonly Container[],
  previous: readonly ContainerStatus[],
  isInit: boolean,
): ContainerStatus[] {
  const { pod, runtime, reasonCache } = input;
  const hasInit = (pod.spec?.initContainers ?? []).length > 0;
  const defaultReason = hasInit ? PodInitializing : ContainerCreating;
  const old = new Map(previous.map((s) => [s.name, s]));
  const statuses = new Map<string, ContainerStatus>();

  // Everything starts as the default Waiting, or as its previous Terminated status.
  for (const c of containers) {
    const prev = old.get(c.name);
    let s: ContainerStatus = { name: c.name, state: { waiting: { reason: defaultReason } }, lastState: {}, ready: false, restartCount: 0, image: c.image ?? '', imageID: '' };
    const mounts = volumeMountStatuses(c);
    if (mounts) s.volumeMounts = mounts;
    if (prev?.state?.terminated) s = clone(prev);
    else if (prev) {
      s.restartCount = prev.restartCount ?? 0;
      s.lastState = clone(prev.lastState ?? {});
    }
    statuses.set(c.name, s);
  }

  // Previously running, now gone from the runtime: it terminated, we just don't know how.
  for (const c of containers) {
    if (runtime.containers.some((k) => k.name === c.name)) continue;
    const prev = old.get(c.name);
    if (!prev || prev.state?.terminated || !prev.state?.running) continue;
    const s = statuses.get(c.name)!;
    if (s.state?.waiting?.reason !== defaultReason || s.lastState?.terminated) continue;
    s.lastState = terminated({
      exitCode: 137,
      reason: ContainerStatusUnknown,
      message: 'The container could not be located when the pod was deleted.  The container used to be Running',
    });
    if (!pod.metadata?.deletionTimestamp) s.restartCount = (s.restartCount ?? 0) + 1;
  }

  // The newest instance gives the state, the second newest the lastState.
  const seen = new Map<string, number>();
  const newestFirst = [...runtime.containers].sort((a, b) => b.createdAt - a.createdAt);
  for (const k of newestFirst) {
    const s = statuses.get(k.name);
    const n = seen.get(k.name) ?? 0;
    if (!s || n >= 2) continue;
    const converted = convertInstance(k, s.image, old.get(k.name));
    if (n === 0) statuses.set(k.name, { ...converted, resources: statusResources(containers.find((c) => c.name === k.name)) });
    else s.lastState = converted.state;
    seen.set(k.name, n + 1);
  }

  // Containers that will be restarted at the next sync show why the last start failed.
  for (const c of containers) {
    const s = statuses.get(c.name)!;
    if (isInit) {
      const k = findContainerStatus(runtime, c.name);
      if (k && k.state === 'exited' && k.exitCode === 0) continue;
      if (!k && !isSidecar(c) && s.state?.waiting && hasAnyRegularContainerCreated(pod, runtime)) {
        s.state = terminated({
          exitCode: 0,
          reason: 'Completed',
          message: 'Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally',
        });
        continue;
      }
    }
    if (!shouldContainerBeRestarted(c, pod, runtime)) continue;
    const failure = reasonCache.get(c.name);
    if (!failure) continue;
    if (s.state?.terminated) s.lastState = s.state;
    s.state = { waiting: failure.message ? { reason: failure.reason, message: failure.message } : { reason: failure.reason } };
  }

  const list = containers.map((c) => statuses.get(c.name)!);
  // Init statuses follow the spec; regular ones are sorted by name (kubetypes.SortedContainerStatuses).
  return isInit ? list : list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** prober_manager UpdatePodStatus: `started` and `ready` from the probe results. */
function applyProbeFlags(s: ContainerStatus, c: Container | undefined, isInit: boolean, probes: StatusInput['probes']): void {
  const p = probes?.get(s.name);
  const running = !!s.state?.running;
  const started = running && (p?.started ?? true);
  s.started = started;
  if (isInit && !isSidecar(c)) {
    s.ready = !!s.state?.terminated && s.state.terminated.exitCode === 0;
    return;
  }
  s.ready = started && (p?.ready ?? true);
}

/** Field order as the API server serializes a ContainerStatus. */
function ordered(s: ContainerStatus): ContainerStatus {
  const out: ContainerStatus = {
    name: s.name,
    state: s.state ?? {},
    lastState: s.lastState ?? {},
    ready: s.ready,
    restartCount: s.restartCount,
    image: s.image,
    imageID: s.imageID ?? '',
  };
  if (s.containerID) out.containerID = s.containerID;
  if (s.started !== undefined) out.started = s.started;
  if (s.resources) out.resources = s.resources;
  if (s.volumeMounts) out.volumeMounts = s.volumeMounts;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conditions (status/generate.go)

export type Cond = { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string };

function podReadyToStartContainersCondition(pod: Pod, runtime: RuntimePodStatus): Cond {
  return { type: 'PodReadyToStartContainers', status: podSandboxChanged(pod, runtime).changed ? 'False' : 'True' };
}

function hasAnyRegularContainerStarted(spec: PodSpec | undefined, statuses: readonly ContainerStatus[]): boolean {
  const names = new Set((spec?.containers ?? []).map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (!!s.state?.running || !!s.state?.terminated));
}

function joinMessages(unknown: string[], other: string[], otherLabel: string): string {
  const parts: string[] = [];
  if (unknown.length > 0) parts.push(`containers with unknown status: ${goList(unknown)}`);
  if (other.length > 0) parts.push(`containers with ${otherLabel} status: ${goList(other)}`);
  return parts.join(', ');
}

export function podInitializedCondition(spec: PodSpec | undefined, statuses: readonly ContainerStatus[], phase: string): Cond {
  const inits = spec?.initContainers ?? [];
  if (statuses.length === 0 && inits.length > 0) return { type: 'Initialized', status: 'False', reason: UnknownContainerStatuses };
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = byName(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (isSidecar(c) ? s.started !== true : !s.ready) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'Initialized', status: 'True', reason: PodCompleted };
  if (hasAnyRegularContainerStarted(spec, statuses)) return { type: 'Initialized', status: 'True' };
  const message = joinMessages(unknown, incomplete, 'incomplete');
  if (message) return { type: 'Initialized', status: 'False', reason: ContainersNotInitialized, message };
  return { type: 'Initialized', status: 'True' };
}

export function containersReadyCondition(spec: PodSpec | undefined, statuses: readonly ContainerStatus[], phase: string): Cond {
  if (statuses.length === 0) return { type: 'ContainersReady', status: 'False', reason: UnknownContainerStatuses };
  const unknown: string[] = [];
  const unready: string[] = [];
  const relevant = [...(spec?.initContainers ?? []).filter(isSidecar), ...(spec?.containers ?? [])];
  for (const c of relevant) {
    const s = byName(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'ContainersReady', status: 'False', reason: PodCompleted };
  if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: PodFailed };
  const message = joinMessages(unknown, unready, 'unready');
  if (message) return { type: 'ContainersReady', status: 'False', reason: ContainersNotReady, message };
  return { type: 'ContainersReady', status: 'True' };
}

export function podReadyCondition(
  spec: PodSpec | undefined,
  conditions: readonly PodCondition[],
  statuses: readonly ContainerStatus[],
  phase: string,
): Cond {
  const cr = containersReadyCondition(spec, statuses, phase);
  if (cr.status !== 'True') return { ...cr, type: 'Ready' };
  const unready: string[] = [];
  for (const gate of spec?.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (!c) unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True') unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  if (unready.length > 0) return { type: 'Ready', status: 'False', reason: ReadinessGatesNotReady, message: unready.join(', ') };
  return { type: 'Ready', status: 'True' };
}

/**
 * NeedToReconcilePodReadiness: the pod has readiness gates and its Ready condition says otherwise
 * than its gates and containers now do (a client set a gate's condition): the kubelet syncs it.
 */
export function needToReconcilePodReadiness(pod: Pod): boolean {
  if (!pod.spec?.readinessGates?.length) return false;
  const st = pod.status ?? {};
  const cur = st.conditions?.find((c) => c.type === 'Ready');
  if (!cur) return false;
  const want = podReadyCondition(pod.spec, st.conditions ?? [], [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])], st.phase ?? '');
  return cur.status !== want.status || (cur.message ?? '') !== (want.message ?? '');
}

const KUBELET_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers']);

/**
 * A condition as written to the status: lastTransitionTime moves only when the status changes
 * (status_manager updateLastTransitionTime; the API server's UpdatePodCondition likewise).
 */
export function stamp(c: Cond, previous: readonly PodCondition[], now: number): PodCondition {
  const old = previous.find((p) => p.type === c.type);
  const out: PodCondition = {
    type: c.type,
    status: c.status,
    // metav1.Time zero value, serialized as null like the API server does.
    lastProbeTime: null as unknown as string,
    lastTransitionTime: old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(now),
  };
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  return out;
}

// ---------------------------------------------------------------------------------------------
// QoS class (v1 qos.ComputePodQOS)

function positiveNano(v: string | number | undefined): bigint {
  if (v === undefined) return 0n;
  const q = parseQuantity(String(v));
  return typeof q === 'string' || q.nano <= 0n ? 0n : q.nano;
}

/** Guaranteed / Burstable / BestEffort from cpu and memory requests and limits (requests default to limits). */
export function computePodQOS(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const c of all) {
    const lim = c.resources?.limits ?? {};
    const req = { ...lim, ...(c.resources?.requests ?? {}) };
    const found = new Set<string>();
    for (const name of ['cpu', 'memory']) {
      const r = positiveNano(req[name]);
      if (r > 0n) requests.set(name, (requests.get(name) ?? 0n) + r);
      const l = positiveNano(lim[name]);
      if (l > 0n) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0n) + l);
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, r] of requests) if (limits.get(name) !== r) guaranteed = false;
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** qos.GetPodQOS: the recorded class, else computed. */
export function podQOSClass(pod: Pod): string {
  return pod.status?.qosClass || computePodQOS(pod);
}

// ---------------------------------------------------------------------------------------------
// The whole status

/**
 * The newest sandbox's IP while it is ready (a hostNetwork pod's are the node's). With no sandbox
 * ready the runtime reports none and the kubelet keeps the IPs the pod had (the PLEG's getPodIPs):
 * a finished pod keeps its IP.
 */
function podIPs(pod: Pod, runtime: RuntimePodStatus, hostIPs: readonly string[]): string[] {
  const newest = runtime.sandboxes[0];
  if (newest && newest.state === 'SANDBOX_READY' && newest.ip) return [newest.ip];
  if (pod.spec?.hostNetwork) return [...hostIPs];
  if (runtime.sandboxes.some((sb) => sb.state === 'SANDBOX_READY')) return [];
  return (pod.status?.podIPs ?? []).map((p) => p.ip ?? '').filter(Boolean);
}

export function generatePodStatus(input: StatusInput): PodStatus {
  const { pod, runtime, now } = input;
  const spec = pod.spec;
  const old = pod.status ?? {};
  const inits = spec?.initContainers ?? [];
  const specOf = (name: string) => [...inits, ...(spec?.containers ?? [])].find((c) => c.name === name);

  const init = convertContainerStatuses(input, inits, old.initContainerStatuses ?? [], true);
  const regular = convertContainerStatuses(input, spec?.containers ?? [], old.containerStatuses ?? [], false);
  for (const s of init) applyProbeFlags(s, specOf(s.name), true, input.probes);
  for (const s of regular) applyProbeFlags(s, specOf(s.name), false, input.probes);

  let phase: string = input.phaseOverride?.phase ?? getPhase(pod, { init, regular }, input.podIsTerminal, hasAnyActiveRegularContainer(pod, runtime));
  // A terminal phase never changes again.
  if (!isTerminalPhase(phase) && isTerminalPhase(old.phase)) phase = old.phase;

  const status: PodStatus = { phase };

  const all = [...init, ...regular];
  const previous = old.conditions ?? [];
  const conditions: PodCondition[] = previous.filter((c) => !KUBELET_CONDITIONS.has(c.type));
  conditions.push(stamp(podReadyToStartContainersCondition(pod, runtime), previous, now));
  conditions.push(stamp(podInitializedCondition(spec, all, phase), previous, now));
  conditions.push(stamp(podReadyCondition(spec, conditions, all, phase), previous, now));
  conditions.push(stamp(containersReadyCondition(spec, all, phase), previous, now));
  const scheduled = previous.find((c) => c.type === 'PodScheduled');
  conditions.push(scheduled ? clone(scheduled) : stamp({ type: 'PodScheduled', status: 'True' }, previous, now));
  status.conditions = conditions;

  if (input.phaseOverride && phase === input.phaseOverride.phase) {
    status.reason = input.phaseOverride.reason;
    status.message = input.phaseOverride.message;
  } else if (phase === old.phase) {
    if (old.message) status.message = old.message;
    if (old.reason) status.reason = old.reason;
  }
  if (old.nominatedNodeName) status.nominatedNodeName = old.nominatedNodeName;

  const hostIPs = input.hostIPs?.length ? input.hostIPs : (old.hostIPs?.flatMap((h) => (h.ip ? [h.ip] : [])) ?? (old.hostIP ? [old.hostIP] : []));
  if (hostIPs.length > 0) {
    status.hostIP = hostIPs[0];
    status.hostIPs = hostIPs.map((ip) => ({ ip }));
  }
  const ips = podIPs(pod, runtime, hostIPs);
  if (ips.length > 0) {
    status.podIP = ips[0];
    status.podIPs = ips.map((ip) => ({ ip }));
  }
  status.startTime = old.startTime || rfc3339(now);
  if (init.length > 0) status.initContainerStatuses = init.map(ordered);
  status.containerStatuses = regular.map(ordered);
  status.qosClass = podQOSClass(pod);
  // Ephemeral containers: converted like regular containers (sorted by name), but no prober flags
  // (ready stays false, no `started`) and no effect on phase, conditions or READY.
  const ephemeral = (spec?.ephemeralContainers ?? []).map(ephemeralContainerSpec);
  if (ephemeral.length > 0) status.ephemeralContainerStatuses = convertContainerStatuses(input, ephemeral, old.ephemeralContainerStatuses ?? [], false).map(ordered);
  return status;
}
