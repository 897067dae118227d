// The lifecycle panel's view model, built on the host from what the engine reports (watch events
// for the pod and its events, plus debugInfo). Pure: no `vscode`, no I/O, time comes in as `now`.
// The host (manager.ts), the webview tests and scripts/record-fixture.ts all go through these
// functions, so a recorded event stream replays exactly as the live panel would show it.
import type {
  Container,
  ContainerState,
  ContainerStateTerminated,
  ContainerStatus,
  EnvVar,
  Event as KEvent,
  Pod,
  PodCondition,
} from 'kubernetes-types/core/v1';
import type { ContainerAttempt, HookRun, PodDebugInfo, WatchEvent } from '../../engine/api.js';
import { podStatusText, readyText } from '../../engine/printer.js';
import { handlerText } from '../../engine/describe.js';
import { describeEnvironment, expand as expandVars, type EnvVarView, type ObjectLookup, type PodRuntimeFacts } from '../../engine/kubelet/env.js';
import type {
  AttemptView,
  ConditionView,
  ContainerKind,
  ContainerView,
  EnvView,
  EventView,
  HeaderView,
  HookView,
  NoticeView,
  PanelModel,
  ProbeType,
  ReadyMark,
  StateView,
  TimelineBar,
  TimelineLane,
  TimelineMark,
  TimelineView,
} from '../../shared/protocol.js';
import { runtimeId } from '../manifest.js';
import { noticeViews } from './notices.js';
import { mergeHistory, reconstructHistory, type StatusMark } from './history.js';
import { STRIP_ORDER, laneMarks, mergeProbeRuns, probeViews, recordReady, type ProbeRunsSeen } from './probes.js';

export { laneMarks, probeViews };

// ---------------------------------------------------------------------------------------------
// Observation: what the host has seen of one pod so far (a reducer over the engine's watch stream).

export type { StatusMark };

export interface PodObservation {
  namespace: string;
  name: string;
  uid?: string;
  pod?: Pod;
  /** The pod was deleted from the store; `pod` keeps its last state. */
gone: boolean;
  /** When the deletion was seen (host clock). */
  goneAt?: number;
  /** Events whose involvedObject is this pod, keyed by event uid (or name). */
  events: Record<string, KEvent>;
  debug?: PodDebugInfo;
  /**
   * The kubelet's last debug info of this pod, kept when it went away (with the pod, or for a
   * moment, before the pod's own deletion arrives): what it recorded (sandboxes, attempts,
   * step-mode waits, hook runs) is the pod's history still.
   * What only a live kubelet has (back-off, a step-mode hold, the debug actions) is read from
   * `debug` alone.
   */
  lastDebug?: PodDebugInfo;
  /**
   * Every container instance seen in debug info, by id. The runtime keeps only the newest and the
   * previous instance of a container (as the kubelet's GC does); the panel still shows older runs.
   */
  attemptsSeen: Record<string, ContainerAttempt>;
  /** The lab's ConfigMaps and Secrets, for the environment's values (absent: sources only). */
  lookup?: ObjectLookup;
  /** Phase and kubectl STATUS changes in the order the host saw them. */
  history: StatusMark[];
  /** Every probe run seen in debug info (the prober keeps only its last 100 per probe). */
  probeRuns: ProbeRunsSeen;
  /** The pod's Ready condition each time its status changed. */
  readyHistory: readonly ReadyMark[];
  /** The names of the lab's simulated nodes (a pod bound to one gets a notice saying so). */
  simulatedNodes?: readonly string[];
  /** Why the API client's connection is lost (it retries); the pod is as last seen meanwhile. */
  connectionLost?: string;
  connectionTo?: 'lab server' | 'cluster';
}

export function newObservation(namespace: string, name: string): PodObservation {
  return { namespace, name, gone: false, events: {}, attemptsSeen: {}, history: [], probeRuns: {}, readyHistory: [] };
}

export function parseTime(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
}

function eventKey(e: KEvent): string {
  return e.metadata?.uid ?? e.metadata?.name ?? `${e.reason ?? ''}|${e.message ?? ''}|${e.involvedObject?.fieldPath ?? ''}`;
}

/** Whether a watch event concerns the observed pod (the pod itself, or an event about it). */
export function concerns(obs: PodObservation, e: WatchEvent): boolean {
  if (e.kind === 'Pod') {
    const m = e.object.metadata;
    return m?.name === obs.name && (m?.namespace ?? 'default') === obs.namespace;
  }
  if (e.kind === 'Event') {
    const io = e.object.involvedObject;
    if (!io || (io.kind !== undefined && io.kind !== 'Pod')) return false;
    if (io.name !== obs.name || (io.namespace ?? 'default') !== obs.namespace) return false;
    // Events of an earlier pod with the same name do not belong here.
    return obs.uid === undefined || io.uid === undefined || io.uid === obs.uid;
  }
  return false;
}

function recordStatus(history: StatusMark[], pod: Pod, now: number): StatusMark[] {
  const phase = pod.status?.phase ?? 'Pending';
  const status = podStatusText(pod);
  const last = history[history.length - 1];
  if (last && last.phase === phase && last.status === status) return history;
  // What came before the first sight is rebuilt from the server's data (history.ts) when the timeline is drawn.
  return [...history, { at: now, phase, status }];
}

/** Folds one watch event into the observation. Returns the same object when the event is unrelated. */
export function observe(obs: PodObservation, e: WatchEvent, now: number): PodObservation {
  if (!concerns(obs, e)) return obs;
  if (e.kind === 'Pod') {
    const pod = e.object;
    const uid = pod.metadata?.uid;
    if (e.type === 'DELETED') return { ...obs, pod, gone: true, goneAt: obs.goneAt ?? now };
    let base = obs;
    if (obs.uid !== undefined && uid !== undefined && uid !== obs.uid) {
      // A new pod with the same name: start over.
      base = { ...newObservation(obs.namespace, obs.name) };
    }
    const events: Record<string, KEvent> = {};
    for (const [k, ev] of Object.entries(base.events)) {
      const evUid = ev.involvedObject?.uid;
      if (uid === undefined || evUid === undefined || evUid === uid) events[k] = ev;
    }
    const known = base.debug ?? base.lastDebug;
    const stale = known && uid !== undefined && known.uid !== uid;
    const debug = stale ? undefined : base.debug;
    const lastDebug = stale ? undefined : base.lastDebug;
    const attemptsSeen = stale ? {} : base.attemptsSeen;
    const probeRuns = stale ? {} : base.probeRuns;
    return {
      ...base,
      uid: uid ?? base.uid,
      pod,
      gone: false,
      events,
      debug,
      lastDebug,
      attemptsSeen,
      probeRuns,
      history: recordStatus(base.history, pod, now),
      readyHistory: recordReady(base.readyHistory, pod, now),
    };
  }
  if (e.kind === 'Event') {
    const events = { ...obs.events };
    const k = eventKey(e.object);
    if (e.type === 'DELETED') delete events[k];
    else events[k] = e.object;
    return { ...obs, events };
  }
  return obs;
}

/** Seeds the observation with events listed from the store (for a panel opened after the fact). */
export function withEvents(obs: PodObservation, list: KEvent[]): PodObservation {
  let out = obs;
  for (const ev of list) out = observe(out, { type: 'ADDED', kind: 'Event', object: ev }, 0);
  return out;
}

export function withDebug(obs: PodObservation, debug: PodDebugInfo | undefined): PodObservation {
  if (debug && obs.uid !== undefined && debug.uid !== obs.uid) return obs;
  const attemptsSeen = { ...obs.attemptsSeen };
  for (const a of debug?.attempts ?? []) attemptsSeen[a.id] = a;
  return { ...obs, debug, lastDebug: debug ?? obs.lastDebug, attemptsSeen, probeRuns: mergeProbeRuns(obs.probeRuns, debug) };
}

// ---------------------------------------------------------------------------------------------
// The environment as the container sees it: the kubelet's own resolver (src/engine/kubelet/env.ts),
// with kubectl describe's wording for where a value comes from.

export { expandVars };

const NO_OBJECTS: ObjectLookup = { configMap: () => undefined, secret: () => undefined };

function sourceText(v: EnvVarView): string | undefined {
  const s = v.source;
  switch (s.kind) {
    case 'value':
    case 'expanded':
      return undefined;
    case 'fieldRef':
      return `(${s.apiVersion}:${s.fieldPath})`;
    case 'resourceFieldRef': {
      const where = s.containerName ? `${s.containerName} (${s.resource})` : `(${s.resource})`;
      return v.unknown ? `${v.unknown} ${where}` : where;
    }
    case 'configMapKeyRef':
      return `<set to the key '${s.key}' of config map '${s.name}'>  Optional: ${s.optional}`;
    case 'secretKeyRef':
      return `<set to the key '${s.key}' in secret '${s.name}'>  Optional: ${s.optional}`;
    case 'envFrom':
      return `${s.from === 'configMap' ? 'config map' : 'secret'} ${s.name}${s.prefix ? ` (prefix ${s.prefix})` : ''}`;
    case 'fileKeyRef':
      return `<set to the key '${s.key}' in file '${s.path}' of volume '${s.volumeName}'>  Optional: ${s.optional}`;
  }
}

/** The facts a view has of a pod: its status's IPs and node (the node's allocatable is unknown). */
function statusFacts(pod: Pod): PodRuntimeFacts {
  const st = pod.status ?? {};
  const podIPs = (st.podIPs ?? []).map((p) => p.ip).filter((ip): ip is string => !!ip);
  const hostIPs = (st.hostIPs ?? []).map((p) => p.ip).filter((ip): ip is string => !!ip);
  return {
    podIP: st.podIP ?? '',
    hostIP: st.hostIP ?? '',
    ...(podIPs.length ? { podIPs } : {}),
    ...(hostIPs.length ? { hostIPs } : {}),
    nodeName: pod.spec?.nodeName ?? '',
  };
}

/**
 * The container's environment as it will see it (the kubelet's resolver over the lab's objects
 * and the pod's status), each variable with its source in kubectl describe's wording; Secret
 * values marked; a variable whose object is missing has no value and carries the kubelet's error.
 */
export function resolveEnv(pod: Pod, c: Container, lookup: ObjectLookup = NO_OBJECTS): EnvView[] {
  return describeEnvironment(pod, c, statusFacts(pod), lookup).map((v) => {
    const out: EnvView = { name: v.name };
    if (v.value !== undefined) out.value = v.value;
    const src = sourceText(v);
    if (src) out.source = src;
    if (v.secret) out.secret = true;
    if (v.error) out.error = v.error;
    return out;
  });
}

/** kubectl describe's `Environment Variables from:` line for one source (two spaces for its tabs). */
export function envFromText(f: NonNullable<Container['envFrom']>[number]): string {
  const [name, kind, optional] = f.configMapRef
    ? [f.configMapRef.name ?? '', 'ConfigMap', f.configMapRef.optional === true]
    : [f.secretRef?.name ?? '', 'Secret', f.secretRef?.optional === true];
  return `${name}  ${kind}${f.prefix ? ` with prefix '${f.prefix}'` : ''}  Optional: ${optional}`;
}

// ---------------------------------------------------------------------------------------------
// Building the view model.

function stateView(s: ContainerState | undefined): StateView {
  if (s?.running) return { kind: 'running', startedAt: parseTime(s.running.startedAt) };
  if (s?.terminated) {
    const t = s.terminated;
    return {
      kind: 'terminated',
      reason: t.reason ?? '',
      message: t.message ?? '',
      exitCode: t.exitCode,
      signal: t.signal,
      startedAt: parseTime(t.startedAt),
      finishedAt: parseTime(t.finishedAt),
      containerId: t.containerID ?? '',
    };
  }
  if (s?.waiting) return { kind: 'waiting', reason: s.waiting.reason ?? '', message: s.waiting.message ?? '' };
  return { kind: 'none' };
}

/** The five conditions in the order kubectl describe lists them for a kubelet-managed pod. */
export const CONDITION_TYPES = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'] as const;

function conditionViews(conds: PodCondition[] | undefined): ConditionView[] {
  const list = conds ?? [];
  const views: ConditionView[] = CONDITION_TYPES.map((type) => {
    const c = list.find((x) => x.type === type);
    return {
      type,
      status: c?.status ?? '',
      reason: c?.reason ?? '',
      message: c?.message ?? '',
      lastTransitionAt: parseTime(c?.lastTransitionTime),
    };
  });
  // Conditions set by others (readiness gates, DisruptionTarget, …) follow.
  for (const c of list) {
    if ((CONDITION_TYPES as readonly string[]).includes(c.type)) continue;
    views.push({ type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '', lastTransitionAt: parseTime(c.lastTransitionTime) });
  }
  return views;
}

/**
 * Every attempt the archive has seen of a container. The archive and the pod's status come on
 * separate streams: an instance the status already reports terminated is shown so (its exit code,
 * reason and end from the status), never running beside a pod that says it ended.
 */
function attemptsOf(obs: PodObservation, name: string, st: ContainerStatus | undefined): AttemptView[] {
  // (the pod deleted: what the kubelet had last; the panel keeps the logs it read of them)
  const debug = obs.debug ?? obs.lastDebug;
  if (!debug) return [];
  const present = new Set(debug.attempts.map((a) => a.id));
  const ended = new Map<string, ContainerStateTerminated>();
  for (const t of [st?.lastState?.terminated, st?.state?.terminated]) {
    const id = runtimeId(t?.containerID);
    if (t && id) ended.set(id, t);
  }
  return Object.values(obs.attemptsSeen)
    .filter((a) => a.containerName === name)
    .sort((a, b) => a.attempt - b.attempt || a.createdAt - b.createdAt)
    .map((a) => {
      const t = a.state === 'exited' ? undefined : ended.get(a.id);
      return {
        ...(present.has(a.id) ? {} : { removed: true }),
        attempt: a.attempt,
        containerId: a.id,
        state: t ? 'exited' : a.state,
        exitCode: t ? t.exitCode : a.exitCode,
        reason: t ? t.reason : a.reason,
        createdAt: a.createdAt,
        startedAt: a.startedAt ?? parseTime(t?.startedAt),
        finishedAt: t ? parseTime(t.finishedAt) : a.finishedAt,
      };
    });
}

function exitedNonZero(s: StateView): boolean {
  return s.kind === 'terminated' && s.exitCode !== 0;
}

function containerView(
  obs: PodObservation,
  pod: Pod,
  c: Container,
  kind: ContainerKind,
  index: number,
  st: ContainerStatus | undefined,
  now: number,
): ContainerView {
  const debug = obs.debug;
  const state = stateView(st?.state);
  const lastState = stateView(st?.lastState);
  const env = resolveEnv(pod, c, obs.lookup);
  const known = new Map(env.filter((e) => e.value !== undefined).map((e) => [e.name, e.value!] as const));
  const lookup = (n: string) => known.get(n);
  const bo = debug?.backoff[c.name];
  const failed =
    kind === 'init' && (exitedNonZero(state) || (state.kind === 'waiting' && exitedNonZero(lastState)));
  return {
    name: c.name,
    kind,
    index,
    image: c.image ?? '',
    imageID: st?.imageID ?? '',
    containerID: st?.containerID ?? '',
    state,
    lastState,
    restartCount: st?.restartCount ?? 0,
    started: st?.started,
    ready: st?.ready ?? false,
    command: (c.command ?? []).map((s) => expandVars(s, lookup)),
    args: (c.args ?? []).map((s) => expandVars(s, lookup)),
    env,
    envFrom: (c.envFrom ?? []).map(envFromText),
    workingDir: c.workingDir ?? '',
    attempts: attemptsOf(obs, c.name, st),
    backoff: bo && bo.until > now ? { until: bo.until, delayMs: bo.delayMs } : undefined,
    failed,
    stepWaiting: debug?.stepWaitingFor === c.name,
    probes: probeViews(c, obs.probeRuns, st),
    hooks: hookViews(c, (obs.debug ?? obs.lastDebug)?.hooks),
  };
}

function containerViews(obs: PodObservation, pod: Pod, now: number): ContainerView[] {
  const out: ContainerView[] = [];
  const spec = pod.spec;
  const initStatuses = pod.status?.initContainerStatuses ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  (spec?.initContainers ?? []).forEach((c, i) => {
    const kind: ContainerKind = c.restartPolicy === 'Always' ? 'sidecar' : 'init';
    out.push(containerView(obs, pod, c, kind, i, initStatuses.find((s) => s.name === c.name), now));
  });
  (spec?.containers ?? []).forEach((c, i) => {
    out.push(containerView(obs, pod, c, 'app', i, statuses.find((s) => s.name === c.name), now));
  });
  return out;
}

function eventViews(events: Record<string, KEvent>): EventView[] {
  const views = Object.entries(events).map(([key, e]): EventView => {
    const firstAt = parseTime(e.firstTimestamp) ?? parseTime(e.eventTime) ?? parseTime(e.metadata?.creationTimestamp);
    const lastAt = parseTime(e.lastTimestamp) ?? parseTime(e.series?.lastObservedTime) ?? firstAt;
    return {
      key,
      type: e.type ?? 'Normal',
      reason: e.reason ?? '',
      message: e.message ?? '',
      count: e.count ?? e.series?.count ?? 1,
      firstAt,
      lastAt,
      source: e.source?.component || e.reportingComponent || '',
      fieldPath: e.involvedObject?.fieldPath ?? '',
    };
  });
  // kubectl describe sorts by last timestamp (then first timestamp, to keep same-second order stable).
  return views.sort((a, b) => (a.lastAt ?? 0) - (b.lastAt ?? 0) || (a.firstAt ?? 0) - (b.firstAt ?? 0));
}

function headerView(obs: PodObservation, pod: Pod, containers: ContainerView[]): HeaderView {
  const st = pod.status ?? {};
  let restarts = 0;
  let lastRestartAt: number | undefined;
  for (const c of containers) {
    restarts += c.restartCount;
    if (c.restartCount > 0 && c.lastState.kind === 'terminated' && c.lastState.finishedAt !== undefined) {
      lastRestartAt = Math.max(lastRestartAt ?? 0, c.lastState.finishedAt);
    }
  }
  return {
    namespace: obs.namespace,
    name: obs.name,
    uid: pod.metadata?.uid ?? '',
    status: podStatusText(pod),
    phase: st.phase ?? 'Pending',
    ready: readyText(pod),
    restarts,
    lastRestartAt,
    node: pod.spec?.nodeName ?? '',
    podIP: st.podIP ?? '',
    hostIP: st.hostIP ?? '',
    qosClass: st.qosClass ?? '',
    restartPolicy: pod.spec?.restartPolicy ?? 'Always',
    createdAt: parseTime(pod.metadata?.creationTimestamp),
    deletingAt: parseTime(pod.metadata?.deletionTimestamp),
    gone: obs.gone,
    ...(obs.goneAt !== undefined ? { goneAt: obs.goneAt } : {}),
    ...(obs.connectionTo === 'cluster' ? { cluster: true } : {}),
    reason: st.reason,
    message: st.message,
    ...(obs.connectionLost !== undefined ? { connectionLost: obs.connectionLost, connectionTo: obs.connectionTo ?? 'cluster' } : {}),
  };
}

function runBar(key: string, a: AttemptView): TimelineBar {
  const outcome =
    a.state === 'running' ? 'running' : a.state === 'created' ? 'created' : a.state === 'exited' ? (a.exitCode === 0 ? 'succeeded' : 'failed') : 'unknown';
  const label =
    a.state === 'exited' ? `#${a.attempt} ${a.reason ?? ''} (exit ${a.exitCode ?? '?'})`.replace('  ', ' ') : `#${a.attempt} ${a.state}`;
  return {
    key,
    kind: 'run',
    label,
    start: a.startedAt ?? a.createdAt,
    end: a.state === 'exited' ? (a.finishedAt ?? a.startedAt ?? a.createdAt) : a.state === 'unknown' ? (a.finishedAt ?? a.createdAt) : undefined,
    outcome,
    attempt: a.attempt,
    exitCode: a.exitCode,
    reason: a.reason,
  };
}

/** Attempts as the pod status alone tells them (when the engine has no debug info): lastState and state. */
function attemptsFromStatus(c: ContainerView): AttemptView[] {
  const out: AttemptView[] = [];
  const fromState = (s: StateView, attempt: number): AttemptView | undefined => {
    if (s.kind === 'terminated' && s.startedAt !== undefined)
      return { attempt, containerId: s.containerId, state: 'exited', exitCode: s.exitCode, reason: s.reason, createdAt: s.startedAt, startedAt: s.startedAt, finishedAt: s.finishedAt };
    if (s.kind === 'running' && s.startedAt !== undefined)
      return { attempt, containerId: c.containerID, state: 'running', createdAt: s.startedAt, startedAt: s.startedAt };
    return undefined;
  };
  const last = fromState(c.lastState, Math.max(0, c.restartCount - 1));
  const cur = fromState(c.state, c.restartCount);
  if (last) out.push(last);
  if (cur) out.push(cur);
  return out;
}

function timelineView(obs: PodObservation, pod: Pod, containers: ContainerView[], events: EventView[], now: number): TimelineView {
  const lanes: TimelineLane[] = [];
  // the history the kubelet recorded, kept after the pod was deleted
  const debug = obs.debug ?? obs.lastDebug;

  // The sandbox: one bar per sandbox attempt.
  const sandboxBars: TimelineBar[] = [];
  const sandboxes = (debug?.sandboxes ?? []).slice().sort((a, b) => a.attempt - b.attempt || a.createdAt - b.createdAt);
  const lastExit = Math.max(0, ...(debug?.attempts ?? []).map((a) => a.finishedAt ?? 0));
  sandboxes.forEach((s, i) => {
    const next = sandboxes[i + 1];
    const end = next ? next.createdAt : s.state === 'ready' ? undefined : Math.max(s.createdAt, lastExit);
    sandboxBars.push({
      key: `sandbox:${s.id}`,
      kind: 'run',
      label: `sandbox #${s.attempt}${s.ip ? ` ${s.ip}` : ''}`,
      start: s.createdAt,
      end,
      outcome: end === undefined ? 'running' : 'succeeded',
      attempt: s.attempt,
    });
  });
  if (sandboxes.length === 0) {
    const ready = pod.status?.conditions?.find((c) => c.type === 'PodReadyToStartContainers' && c.status === 'True');
    const at = parseTime(ready?.lastTransitionTime);
    if (at !== undefined) sandboxBars.push({ key: 'sandbox:status', kind: 'run', label: 'sandbox', start: at, end: undefined, outcome: 'running' });
  }
  lanes.push({ key: 'sandbox', label: 'sandbox (pause)', kind: 'sandbox', bars: sandboxBars });

  // Containers in spec order: init and sidecars first, then app containers.
  let prevInitEnd: number | undefined = sandboxBars[sandboxBars.length - 1]?.start;
  for (const c of containers) {
    const attempts = c.attempts.length > 0 ? c.attempts : attemptsFromStatus(c);
    const bars = attempts.map((a) => runBar(`${c.name}:${a.containerId || a.attempt}`, a));
    const lastAttempt = attempts[attempts.length - 1];
    // a pod deleted during a back-off: the wait it was in, up to the deletion
    const backoff = c.backoff ?? (obs.gone ? obs.lastDebug?.backoff[c.name] : undefined);
    if (backoff && lastAttempt?.finishedAt !== undefined) {
      bars.push({
        key: `${c.name}:backoff`,
        kind: 'backoff',
        label: `back-off ${Math.round(backoff.delayMs / 1000)}s`,
        start: lastAttempt.finishedAt,
        end: c.backoff ? backoff.until : Math.max(lastAttempt.finishedAt, Math.min(backoff.until, obs.goneAt ?? backoff.until)),
        outcome: 'unknown',
      });
    }
    // step mode's waits as the kubelet kept them (they stay drawn after the pod went on); a server
    // without that record: the current wait, from the previous init container's end
    const waits = (debug?.stepWaits ?? []).filter((w) => w.container === c.name);
    waits.forEach((w, i) =>
      bars.push({ key: `${c.name}:step:${i}`, kind: 'stepwait', label: w.until === undefined ? 'waiting for Continue (step mode)' : 'waited for Continue (step mode)', start: w.from, end: w.until, outcome: 'unknown' }),
    );
    if (c.stepWaiting && !debug?.stepWaits) {
      bars.push({ key: `${c.name}:step`, kind: 'stepwait', label: 'waiting for Continue (step mode)', start: prevInitEnd ?? now, end: undefined, outcome: 'unknown' });
    }
    if (c.state.kind === 'waiting' && c.state.reason === 'CreateContainerConfigError') {
      const cs = c.state;
      const tries = events.filter((e) => e.reason === 'Failed' && e.fieldPath.endsWith(`{${c.name}}`) && e.message === `Error: ${cs.message}`);
      const since = Math.min(...tries.map((e) => e.firstAt ?? Number.POSITIVE_INFINITY));
      if (Number.isFinite(since)) bars.push({ key: `${c.name}:config`, kind: 'waiting', label: cs.reason, start: since, end: undefined, outcome: 'failed', reason: cs.reason });
    }
    if (c.kind !== 'app') {
      const ends = attempts.map((a) => a.finishedAt ?? a.startedAt ?? a.createdAt);
      if (ends.length) prevInitEnd = Math.max(...ends);
    }
    const marks = laneMarks(c.name, obs.probeRuns, debug?.hooks);
    const probes = STRIP_ORDER.filter((t: ProbeType) => c.probes.some((p) => p.type.toLowerCase() === t));
    lanes.push({ key: `container:${c.name}`, label: c.name, kind: c.kind, bars, ...(marks.length ? { marks } : {}), ...(probes.length ? { probes } : {}) });
  }

  // A deleted pod's runs ended with it: a bar the record left open (a sandbox still ready, a
  // container still running, a force deletion's) ends at the deletion.
  if (obs.gone && obs.goneAt !== undefined) {
    const goneAt = obs.goneAt;
    for (const l of lanes) l.bars = l.bars.map((b) => (b.end === undefined ? { ...b, end: Math.max(b.start, goneAt) } : b));
  }

  const phases: TimelineMark[] = [];
  let prevPhase: string | undefined;
  const attemptsByName = new Map(containers.map((c) => [c.name, c.attempts.length > 0 ? c.attempts : attemptsFromStatus(c)]));
  const history = obs.pod ? mergeHistory(reconstructHistory(pod, attemptsByName, obs.history[0]?.at ?? now, events), obs.history) : obs.history;
  for (const m of history) {
    const kind = m.phase !== prevPhase ? 'phase' : 'status';
    phases.push({ at: m.at, label: kind === 'phase' ? m.phase : m.status, detail: `phase ${m.phase}, STATUS ${m.status}`, kind });
    prevPhase = m.phase;
  }

  const eventMarks: TimelineMark[] = [];
  for (const e of events) {
    const kind = e.type === 'Warning' ? 'Warning' : 'Normal';
    const detail = `${e.reason}: ${e.message}`;
    if (e.firstAt !== undefined) eventMarks.push({ at: e.firstAt, label: e.reason, detail, kind });
    if (e.lastAt !== undefined && e.count > 1 && e.lastAt !== e.firstAt)
      eventMarks.push({ at: e.lastAt, label: `${e.reason} ×${e.count}`, detail, kind });
  }
  eventMarks.sort((a, b) => a.at - b.at);

  const times: number[] = [];
  const created = parseTime(pod.metadata?.creationTimestamp);
  if (created !== undefined) times.push(created);
  for (const l of lanes) for (const b of l.bars) times.push(b.start, ...(b.end !== undefined ? [b.end] : []));
  for (const m of phases) times.push(m.at);
  for (const m of eventMarks) times.push(m.at);
  for (const l of lanes) for (const m of l.marks ?? []) times.push(m.at, ...(m.end !== undefined ? [m.end] : []));
  for (const r of obs.readyHistory) times.push(r.at);
  const start = times.length ? Math.min(...times) : now;
  // The webview extends a live pod's axis to its own clock.
  const end = Math.max(start, ...times);
  return { start, end, lanes, phases, events: eventMarks, ...(obs.readyHistory.length ? { ready: [...obs.readyHistory] } : {}) };
}

/** A pod bound to a simulated node: say that nothing runs, once, above everything else. */
function simulatedNotice(obs: PodObservation, pod: Pod): NoticeView[] {
  const node = pod.spec?.nodeName;
  if (!node || !obs.simulatedNodes?.includes(node)) return [];
  return [
    {
      key: 'simulated',
      kind: 'simulated',
      title: `Simulated: node ${node} runs no containers`,
      message: `node ${node} is a simulated node (annotation lab.podlab.dev/simulated: "true")`,
      references: [],
      explain:
        'The scheduler placed this pod as on any node, but no container was started: the simulated kubelet writes the statuses the kubelet would (ContainerCreating, then Running, and any configured exit with its restarts and back-off). Probes and hooks are not run, there are no logs and no shell, and the kubelet records no events.',
    },
  ];
}

/** The whole view model for the panel, at host time `now`. */
export function buildPanelModel(obs: PodObservation, now: number): PanelModel {
  const pod: Pod = obs.pod ?? { metadata: { name: obs.name, namespace: obs.namespace }, spec: { containers: [] } };
  const containers = containerViews(obs, pod, now);
  const events = eventViews(obs.events);
  // A pod seen and deleted keeps its last known state; one never seen has none: it is said missing.
  const header = obs.pod
    ? headerView(obs, pod, containers)
    : { ...headerView(obs, pod, containers), status: obs.gone ? 'Unknown' : 'NotFound', phase: '', ...(obs.gone ? {} : { missing: true }) };
  return {
    now,
    header,
    conditions: conditionViews(pod.status?.conditions),
    containers,
    events,
    timeline: timelineView(obs, pod, containers, events, now),
    debug: { stepWaitingFor: obs.debug?.stepWaitingFor, available: obs.debug !== undefined },
    notices: obs.pod ? [...simulatedNotice(obs, pod), ...noticeViews(pod, events, obs.connectionTo === 'cluster' ? 'cluster' : 'lab')] : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Update pacing by flow control: a window of `window` unacknowledged updates. An update goes out at
// once while fewer are in flight; beyond that it waits for the webview's `rendered`, so a burst (a
// pod starting: Scheduled, Pulled, Created, Started within milliseconds) or a storm is folded into
// as many posts as the webview can paint, and no event waits for a rate window. An
// acknowledgement that never comes (the webview hidden or reloading) holds a slot `ackTimeoutMs`.

/** How long to wait before posting pending changes, given when the unacknowledged posts went out. */
export function postDelay(unacked: readonly number[], now: number, window = 1, ackTimeoutMs = 250): number {
  const live = unacked.filter((at) => at + ackTimeoutMs > now).sort((a, b) => a - b);
  if (live.length < window) return 0;
  return live[live.length - window]! + ackTimeoutMs - now;
}

/** Whether a container id is the container's current or previous instance in the pod's status. */
export function instanceOf(pod: Pod | undefined, container: string, containerId: string): 'current' | 'previous' | undefined {
  const cs = [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])].find((c) => c.name === container);
  const same = (full: string | undefined) => !!full && !!containerId && (full === containerId || full.endsWith(`://${containerId}`) || containerId.endsWith(`://${full}`));
  if (same(cs?.containerID) || same(cs?.state?.terminated?.containerID)) return 'current';
  if (same(cs?.lastState?.terminated?.containerID)) return 'previous';
  return undefined;
}

/** The container's hooks with the latest recorded run of each. */
export function hookViews(c: Container, runs: readonly HookRun[] | undefined): HookView[] {
  const out: HookView[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = c.lifecycle?.[hook];
    if (!h) continue;
    const last = [...(runs ?? [])].reverse().find((r) => r.containerName === c.name && r.hook === hook);
    out.push({
      hook,
      handler: handlerText(h),
      ...(last
        ? { last: { at: last.startedAt, ...(last.finishedAt !== undefined ? { durationMs: last.finishedAt - last.startedAt } : {}), ...(last.error ? { error: last.error } : {}) } }
        : {}),
    });
  }
  return out;
}
