// The prober manager (upstream pkg/kubelet/prober/prober_manager.go, the worker loop of
// pkg/kubelet/prober/worker.go run, and the results caches of pkg/kubelet/prober/results): one
// worker per container × probe type, each on its own ticker (periodSeconds) and manual trigger,
// running the pure state machine of worker.ts around asynchronous handlers. All timing goes
// through the injected Clock; a slow handler holds up only its own worker.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { RuntimeService } from '../../../runtime/cri.js';
import type { Clock, Timer } from '../../clock.js';
import { containerIDString } from '../status.js';
import type { KContainerStatus, ProbeState, RuntimePodStatus } from '../types.js';
import { PROBE_TYPES, probeOf, withProbeDefaults, type DefaultedProbe, type ProbeType } from './defaults.js';
import { probeRunner, type ProbeRunner } from './handlers.js';
import {
  doProbe,
  initialWorkerState,
  recordOutcome,
  type ProbeOutcome,
  type ProbeStatus,
  type Result,
  type ResultUpdate,
  type WorkerInput,
  type WorkerState,
} from './worker.js';

/** One handler run, for the lifecycle panel's timeline. */
export interface ProbeRun {
  /** epoch ms when the handler started. */
  time: number;
  durationMs: number;
  containerId: string;
  result: ProbeStatus;
  output: string;
  /** The prober erred: the run did not count. */
  error?: string;
  /** The worker's verdict for the container after this run (what the kubelet acts on). */
  verdict?: Result;
}

export interface ProbeHistory {
  containerName: string;
  probeType: ProbeType;
  /** Oldest first, at most `historyLimit`. */
  runs: ProbeRun[];
}

/** A verdict change, as the results managers' Updates channel carries it. */
export interface ProbeUpdate {
  containerName: string;
  probeType: ProbeType;
  containerId: string;
  result: Result;
}

export interface WorkerSnapshot {
  containerName: string;
  probeType: ProbeType;
  state: WorkerState;
}

export interface ProberManagerOptions {
  clock: Clock;
  /** For exec probes (ExecSync); unused when `runProbe` is given. */
  runtime?: RuntimeService;
  /** A probe event on the container (Warning Unhealthy / ProbeWarning). */
  onEvent?(pod: Pod, type: 'Warning', reason: string, message: string, containerName: string): void;
  /** A liveness verdict turned Failure, or a startup verdict changed: the kubelet syncs the pod. */
  onLivenessOrStartupVerdict?(uid: string, update: ProbeUpdate): void;
  /** A readiness verdict changed: the kubelet writes the pod's status. */
  onReadinessChanged?(uid: string, update: ProbeUpdate): void;
  /** Fraction of a period for the initial sleep while the kubelet started less than a period ago (default Math.random). */
  random?: () => number;
  /** Runs one probe (default: the real handlers with retries). */
  runProbe?: ProbeRunner;
  /** Probe runs kept per worker (default 100). */
  historyLimit?: number;
  /** A probe run was added to the pod's history. */
  onRun?(uid: string): void;
  /** When the kubelet started (default: when the manager was created). */
  startedAt?: number;
}

/** kubeletRestartGracePeriod: containers started this long before the kubelet were running before it. */
const RESTART_GRACE_MS = 10_000;

const workerKey = (name: string, t: ProbeType) => `${name}\u0000${t}`;

class PodEntry {
  /** The newest instance per container name (from updateRuntime). */
  instances = new Map<string, KContainerStatus>();
  podIP = '';
  statusKnown = false;
  terminating = false;
  removed = false;
  readonly workers = new Map<string, Worker>();
  readonly history = new Map<string, { containerName: string; probeType: ProbeType; runs: ProbeRun[] }>();
  constructor(
    readonly uid: string,
    public pod: Pod,
  ) {}
}

class Worker {
  state: WorkerState = initialWorkerState();
  readonly probe: DefaultedProbe;
  private phase: 'sleeping' | 'probing' | 'waiting' | 'stopped' = 'sleeping';
  private stopRequested = false;
  private manualPending = false;
  private tickPending = false;
  private nextTick = 0;
  private tickTimer?: Timer;
  private sleepTimer?: Timer;

  constructor(
    private readonly m: ProberManager,
    readonly entry: PodEntry,
    readonly container: Container,
    readonly probeType: ProbeType,
    readonly restartableInit: boolean,
  ) {
    this.probe = withProbeDefaults(probeOf(container, probeType)!);
  }

  private get period(): number {
    return this.probe.periodSeconds * 1000;
  }

  get stopped(): boolean {
    return this.phase === 'stopped';
  }

  start(sleepMs: number): void {
    const begin = () => {
      this.sleepTimer = undefined;
      if (this.stopRequested) return this.exit();
      this.nextTick = this.m.clock.now() + this.period;
      this.scheduleTick();
      void this.runOnce();
    };
    if (sleepMs > 0) this.sleepTimer = this.m.clock.setTimeout(begin, sleepMs);
    else queueMicrotask(begin);
  }

  private scheduleTick(): void {
    this.tickTimer?.cancel();
    this.tickTimer = this.m.clock.setTimeout(() => this.onTick(), this.nextTick - this.m.clock.now());
  }

  /** A time.Ticker: one tick kept for a busy receiver, the rest dropped, the period alignment kept. */
  private onTick(): void {
    const now = this.m.clock.now();
    do this.nextTick += this.period;
    while (this.nextTick <= now);
    this.scheduleTick();
    this.tickPending = true;
    this.wake();
  }

  /** manualTriggerCh (buffer of one). */
  trigger(): void {
    if (this.phase === 'stopped' || this.stopRequested) return;
    this.manualPending = true;
    if (this.phase === 'waiting') queueMicrotask(() => this.wake());
  }

  stop(): void {
    this.stopRequested = true;
    if (this.phase === 'waiting' || this.phase === 'sleeping') this.exit();
  }

  /** The loop's select: stop, a manual trigger (resets the ticker), or a tick. */
  private wake(): void {
    if (this.phase !== 'waiting') return;
    if (this.stopRequested) return this.exit();
    if (this.manualPending) {
      this.manualPending = false;
      this.tickPending = false;
      this.nextTick = this.m.clock.now() + this.period;
      this.scheduleTick();
      void this.runOnce();
    } else if (this.tickPending) {
      this.tickPending = false;
      void this.runOnce();
    }
  }

  private async runOnce(): Promise<void> {
    this.phase = 'probing';
    let keepGoing = true;
    try {
      keepGoing = await this.probeOnce();
    } catch {
      // doProbe recovers from panics and keeps the worker going; so does this loop.
    }
    if (!keepGoing || this.entry.removed) return this.exit();
    this.phase = 'waiting';
    this.wake();
  }

  /** One doProbe: the state machine around one handler run. Returns keepGoing. */
  private async probeOnce(): Promise<boolean> {
    const input = this.m.inputFor(this);
    const step = doProbe(this.state, input);
    this.state = step.state;
    this.m.publish(this, step.updates);
    if (step.run) {
      const req = {
        probeType: this.probeType,
        probe: this.probe,
        pod: this.entry.pod,
        container: this.container,
        containerId: this.state.containerId,
        podIP: this.entry.podIP,
      };
      const t0 = this.m.clock.now();
      let outcome: ProbeOutcome;
      try {
        outcome = await this.m.runProbe(req);
      } catch (e) {
        outcome = { result: 'unknown', output: '', error: (e as Error).message };
      }
      if (this.entry.removed) return false;
      const rec = recordOutcome(this.state, input, outcome);
      this.state = rec.state;
      for (const ev of rec.events) this.m.emit(this, ev.type, ev.reason, ev.message);
      this.m.publish(this, rec.updates);
      this.m.record(this, {
        time: t0,
        durationMs: this.m.clock.now() - t0,
        containerId: req.containerId,
        result: outcome.result,
        output: outcome.output,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        ...(this.state.result !== undefined ? { verdict: this.state.result } : {}),
      });
    }
    return step.keepGoing;
  }

  /** The worker ends: its ticker stops, its result is removed, the manager forgets it. */
  private exit(): void {
    if (this.phase === 'stopped') return;
    this.phase = 'stopped';
    this.tickTimer?.cancel();
    this.sleepTimer?.cancel();
    const key = workerKey(this.container.name, this.probeType);
    if (this.entry.workers.get(key) === this) this.entry.workers.delete(key);
  }
}

/**
 * prober.Manager. Wiring: addPod when SyncPod handles the pod (before containers start),
 * updateRuntime with each fresh runtime read, setTerminating when the pod starts terminating,
 * removePod when it is gone; results() for computePodActions, containerFlags() for status.
 */
export class ProberManager {
  readonly clock: Clock;
  readonly runProbe: ProbeRunner;
  private readonly pods = new Map<string, PodEntry>();
  private readonly random: () => number;
  private readonly historyLimit: number;
  private readonly startedAt: number;

  constructor(private readonly opts: ProberManagerOptions) {
    this.clock = opts.clock;
    this.random = opts.random ?? Math.random;
    this.historyLimit = opts.historyLimit ?? 100;
    this.startedAt = opts.startedAt ?? opts.clock.now();
    if (opts.runProbe) this.runProbe = opts.runProbe;
    else if (opts.runtime) this.runProbe = probeRunner({ runtime: opts.runtime, clock: opts.clock });
    else throw new Error('ProberManager needs a runtime or a runProbe');
  }

  /** AddPod: a worker for every probe of every container and sidecar that has none yet. */
  addPod(pod: Pod): void {
    const uid = pod.metadata?.uid ?? '';
    let e = this.pods.get(uid);
    if (!e) {
      e = new PodEntry(uid, pod);
      this.pods.set(uid, e);
    }
    e.pod = pod;
    const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
    const targets = [...(pod.spec?.containers ?? []).map((c) => ({ c, init: false })), ...sidecars.map((c) => ({ c, init: true }))];
    for (const { c, init } of targets) {
      for (const t of PROBE_TYPES) {
        if (!probeOf(c, t)) continue;
        const key = workerKey(c.name, t);
        if (e.workers.has(key)) continue;
        if (e.terminating && t !== 'readiness') continue;
        const w = new Worker(this, e, c, t, init);
        e.workers.set(key, w);
        if (!e.history.has(key)) e.history.set(key, { containerName: c.name, probeType: t, runs: [] });
        // If the kubelet started recently, the workers start at random points of their period.
        const period = w.probe.periodSeconds * 1000;
        const sleep = period > this.clock.now() - this.startedAt ? Math.floor(this.random() * period) : 0;
        w.start(sleep);
      }
    }
  }

  /** The status the workers read: the newest instance per container and the pod IP; the pod for deletion and phase. */
  updateRuntime(pod: Pod, rs: RuntimePodStatus): void {
    const e = this.pods.get(pod.metadata?.uid ?? '');
    if (!e) return;
    e.pod = pod;
    e.statusKnown = true;
    const instances = new Map<string, KContainerStatus>();
    for (const c of rs.containers) if (!instances.has(c.name)) instances.set(c.name, c);
    e.instances = instances;
    const sb = rs.sandboxes[0];
    if (sb?.state === 'SANDBOX_READY') e.podIP = pod.spec?.hostNetwork ? '' : sb.ip;
  }

  /** StopLivenessAndStartup: the pod is terminating; readiness goes on until the containers stop. */
  setTerminating(uid: string): void {
    const e = this.pods.get(uid);
    if (!e) return;
    e.terminating = true;
    for (const w of [...e.workers.values()]) if (w.probeType !== 'readiness') w.stop();
  }

  /** RemovePod: every worker stops; results and history are dropped. */
  removePod(uid: string): void {
    const e = this.pods.get(uid);
    if (!e) return;
    e.removed = true;
    for (const w of [...e.workers.values()]) w.stop();
    this.pods.delete(uid);
  }

  /** The liveness and startup verdicts per container ID, for computePodActions (Unknown left out). */
  results(uid: string): { liveness: Map<string, 'Success' | 'Failure'>; startup: Map<string, 'Success' | 'Failure'> } {
    const out = { liveness: new Map<string, 'Success' | 'Failure'>(), startup: new Map<string, 'Success' | 'Failure'>() };
    for (const w of this.pods.get(uid)?.workers.values() ?? []) {
      if (w.probeType === 'readiness' || !w.state.containerId) continue;
      const r = w.state.result;
      if (r === 'Success' || r === 'Failure') out[w.probeType].set(w.state.containerId, r);
    }
    return out;
  }

  /**
   * UpdatePodStatus: `started` and `ready` per container name (regular containers and sidecars).
   * Like upstream it triggers an immediate readiness run for a started container whose readiness
   * has not succeeded; pass `{ trigger: false }` for a read without that side effect.
   */
  containerFlags(uid: string, opts: { trigger?: boolean } = {}): Map<string, ProbeState> {
    const flags = new Map<string, ProbeState>();
    const e = this.pods.get(uid);
    if (!e) return flags;
    const sidecars = (e.pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
    for (const c of [...(e.pod.spec?.containers ?? []), ...sidecars]) {
      const inst = e.instances.get(c.name);
      const started = this.isStarted(e, c.name, inst);
      let ready = false;
      if (started && inst) {
        const rw = e.workers.get(workerKey(c.name, 'readiness'));
        const mine = rw && rw.state.containerId === inst.id ? rw.state.result : undefined;
        if (mine === 'Success') ready = true;
        else {
          ready = !rw;
          if (rw && opts.trigger !== false) rw.trigger();
          if (this.adopted(inst)) {
            // setReadyStateOnKubeletRestart: a container that outlived a kubelet restart keeps
            // its readiness until probed, as far as the pod's Ready condition says.
            if (!ready && mine === undefined) ready = true;
            if (c.readinessProbe && !podReady(e.pod)) ready = false;
          }
        }
      }
      flags.set(c.name, { started, ready });
    }
    return flags;
  }

  /** The manual readiness trigger for one container (no-op without a readiness worker). */
  triggerReadiness(uid: string, containerName: string): void {
    this.pods.get(uid)?.workers.get(workerKey(containerName, 'readiness'))?.trigger();
  }

  /** The recent probe runs per container and probe type, in worker creation order. */
  history(uid: string): ProbeHistory[] {
    return [...(this.pods.get(uid)?.history.values() ?? [])].map((h) => ({ ...h, runs: [...h.runs] }));
  }

  /** The live workers and their states (debugging, the panel). */
  workers(uid: string): WorkerSnapshot[] {
    return [...(this.pods.get(uid)?.workers.values() ?? [])].map((w) => ({ containerName: w.container.name, probeType: w.probeType, state: { ...w.state } }));
  }

  dispose(): void {
    for (const uid of [...this.pods.keys()]) this.removePod(uid);
  }

  // ---- for the workers ------------------------------------------------------------------------

  /** What doProbe reads: the status manager's view of the pod and the container. */
  inputFor(w: Worker): WorkerInput {
    const e = w.entry;
    const inst = e.instances.get(w.container.name);
    return {
      now: this.clock.now(),
      probeType: w.probeType,
      probe: w.probe,
      podStatusKnown: e.statusKnown,
      podPhase: e.pod.status?.phase,
      deleting: !!e.pod.metadata?.deletionTimestamp,
      restartPolicy: e.pod.spec?.restartPolicy ?? 'Always',
      restartableInit: w.restartableInit,
      restartGraceBefore: this.startedAt - RESTART_GRACE_MS,
      ...(inst && inst.id
        ? { instance: { id: inst.id, state: inst.state, startedAt: inst.startedAt, started: this.isStarted(e, w.container.name, inst) } }
        : {}),
    };
  }

  /** Results-manager updates reach the kubelet as its sync loop would take them. */
  publish(w: Worker, updates: readonly ResultUpdate[]): void {
    if (w.entry.removed) return;
    for (const u of updates) {
      const update: ProbeUpdate = { containerName: w.container.name, probeType: w.probeType, containerId: u.containerId, result: u.result };
      if (w.probeType === 'readiness') this.opts.onReadinessChanged?.(w.entry.uid, update);
      else if (w.probeType === 'startup' || u.result === 'Failure') this.opts.onLivenessOrStartupVerdict?.(w.entry.uid, update);
    }
  }

  emit(w: Worker, type: 'Warning', reason: string, message: string): void {
    if (w.entry.removed) return;
    this.opts.onEvent?.(w.entry.pod, type, reason, message, w.container.name);
  }

  record(w: Worker, run: ProbeRun): void {
    const h = w.entry.history.get(workerKey(w.container.name, w.probeType));
    if (!h) return;
    h.runs.push(run);
    if (h.runs.length > this.historyLimit) h.runs.splice(0, h.runs.length - this.historyLimit);
    this.opts.onRun?.(w.entry.uid);
  }

  /** The container ran before this kubelet started (kubeletRestartGracePeriod). */
  private adopted(inst: KContainerStatus): boolean {
    return inst.state === 'running' && inst.startedAt > 0 && inst.startedAt < this.startedAt - RESTART_GRACE_MS;
  }

  /** isContainerStarted. */
  private isStarted(e: PodEntry, name: string, inst: KContainerStatus | undefined): boolean {
    if (!inst || inst.state !== 'running') return false;
    const sw = e.workers.get(workerKey(name, 'startup'));
    if (sw && sw.state.containerId === inst.id && sw.state.result !== undefined) return sw.state.result === 'Success';
    // ChangeContainerStatusOnKubeletRestart off: a `started` the pod status already shows is kept.
    if (this.adopted(inst) && previouslyStarted(e.pod, name, inst.id)) return true;
    return !sw;
  }
}

function podReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function previouslyStarted(pod: Pod, name: string, id: string): boolean {
  const all = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  return all.some((s) => s.name === name && s.containerID === containerIDString(id) && s.started === true);
}
