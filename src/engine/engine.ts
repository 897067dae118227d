// The engine: an API store, the scheduler and the kubelet wired over one runtime (the rooms are
// store.ts with its journal, scheduler/, kubelet/, node.ts and checkpoint.ts). One engine runs per
// lab (state directory): the lab server (src/server/) holds it, and every shell is a client of the
// server. At start it loads the persisted store and adopts from the runtime the lab's pods the
// store lacks (the sandbox keeps the manifest), so a restarted server loses nothing.
import { mkdirSync, statfsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { defaultStateDir } from '../shared/state-dir.js';
import { join } from 'node:path';
import type { Event as KEvent, Node, Pod, PodStatus } from 'kubernetes-types/core/v1';
import type { Disposable, LogLines, PullProgress, RuntimeService } from '../runtime/cri.js';
import type { ApplyResult, ConfigObject, ConfigObjectKind, ConfigObjectOf, EngineApi, EngineSettings, PodDebugInfo, WatchEvent } from './api.js';
import { ConfigObjectFiles } from './config-persistence.js';
import { Store } from './store.js';
import { EventRecorder } from './events.js';
import { realClock, rfc3339, type Clock } from './clock.js';
import { Scheduler } from './scheduler/scheduler.js';
import { SimulatedKubelet } from './simulated/kubelet.js';
import { isSimulatedNode, runtimeId, simulatedPodRefusal } from '../shared/labels.js';
import { podContainerNames } from '../shared/pod-containers.js';
import { archivedLogs } from './kubelet/container-gc.js';
import { computePodQOS } from './kubelet/status.js';
import { Kubelet, NODE_IP, readArchivedAttempts, readRuntimePod, removePodFromRuntime } from './kubelet/kubelet.js';
import { withNodeAddresses, withTransitionTimesOf, defaultNode, unschedulableTaints, DEFAULT_NODE_NAME } from './node.js';
import { adoptFromRuntime } from './checkpoint.js';
import { EVENT_TTL_MS, StoreJournal } from './journal.js';
import { applyPodDefaults } from '../validation/defaults.js';
import { mutableCopy } from './mutable.js';
import { PodUIDLabel } from '../shared/labels.js';
import { klona } from 'klona/json';

export interface EngineOptions {
  runtime: RuntimeService;
  settings?: Partial<EngineSettings>;
  clock?: Clock;
  log?: (line: string) => void;
  /** Randomness for the kubelet (probe workers' initial sleep); tests inject a fixed one. */
  random?: () => number;
}

export { defaultStateDir };

export function defaultSettings(): EngineSettings {
  return {
    sandboxImage: 'registry.k8s.io/pause:3.10',
    backoffInitialMs: 10_000,
    backoffMaxMs: 300_000,
    nodes: [],
    stepMode: false,
    relistIntervalMs: 10_000,
    stateDir: defaultStateDir(),
  };
}

export { DEFAULT_NODE_NAME };

const nsName = (p: Pod) => [p.metadata?.namespace ?? 'default', p.metadata?.name ?? ''] as const;

/** The container has no running instance to exec in or attach to (the kubelet's findContainer finds none). */
export class ContainerNotRunningError extends Error {
  constructor(readonly container: string) {
    super(`container ${container} is not running`);
  }
}

/** The kubelet's nodeStatusReportFrequency. */
const NODE_STATUS_REPORT_MS = 5 * 60_000;

/** The status a created pod starts with (the pod strategy's PrepareForCreate): Pending, and its QoS class. */
export function createdPodStatus(pod: Pod): PodStatus {
  return { phase: 'Pending', qosClass: computePodQOS(pod) };
}

export class Engine implements EngineApi {
  readonly settings: EngineSettings;
  readonly store: Store;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private scheduler?: Scheduler;
  kubelet?: Kubelet;
  /** The kubelet of the simulated nodes (no containers; src/engine/simulated/). */
  simulated?: SimulatedKubelet;
  private readonly pullListeners = new Set<(p: PullProgress & { pod: string }) => void>();
  private readonly stepListeners = new Set<(podKey: string, container: string) => void>();
  private readonly debugListeners = new Set<(uid: string) => void>();
  private journal?: StoreJournal;
  private readonly subs: Disposable[] = [];
  private readonly log: (line: string) => void;
  /** ConfigMaps and Secrets: files of the lab, mirrored into the store (config-persistence.ts). */
  private configObjects?: ConfigObjectFiles;

  private constructor(
    readonly runtime: RuntimeService,
    private readonly opts: EngineOptions,
  ) {
    this.settings = { ...defaultSettings(), ...opts.settings };
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? (() => undefined);
    this.store = new Store(this.clock);
    this.recorder = new EventRecorder(this.store, this.clock, () => undefined);
  }

  static async start(opts: EngineOptions): Promise<Engine> {
    const e = new Engine(opts.runtime, opts);
    await e.init();
    return e;
  }

  private async init(): Promise<void> {
    mkdirSync(join(this.settings.stateDir, 'pods'), { recursive: true });
    // The persisted store first (pods, events, nodes with their resourceVersions).
    this.journal = new StoreJournal(this.store, StoreJournal.dirFor(this.settings.stateDir), this.clock.now(), this.log);
    // The Docker host's size (for the default node) and the lab's pods the store lacks, asked for together.
    const [nodes] = await Promise.all([
      this.runtime
        .version()
        .then((v) =>
          this.settings.nodes.length ? this.settings.nodes.map((n) => (isSimulatedNode(n) ? n : withNodeAddresses(n, v.nodeIP || NODE_IP))) : [defaultNode(v, this.clock.now(), { rootFsBytes: rootFsBytes(this.settings.stateDir) })],
        ),
      adoptFromRuntime({ runtime: this.runtime, store: this.store, stateDir: this.settings.stateDir, now: this.clock.now(), log: this.log }),
    ]);
    this.syncNodes(nodes);
    this.taintCordonedNodes();
    // Loaded before the kubelet starts, so a pod's first sync finds the objects it references.
    this.startConfigObjects();
    this.scheduler = new Scheduler(this.store, this.recorder, this.clock);
    this.kubelet = this.newKubelet();
    this.simulated = new SimulatedKubelet({ store: this.store, clock: this.clock, backoffInitialMs: this.settings.backoffInitialMs, backoffMaxMs: this.settings.backoffMaxMs, log: this.log });
    this.sweepEvents();
    this.postNodeStatus();
  }

  /** The node lifecycle controller's tainting of cordoned nodes (unschedulableTaints), now and on each node change. */
  private taintCordonedNodes(): void {
    const pass = (name: string) => {
      if (this.closing) return;
      const n = this.store.get('Node', undefined, name);
      const taints = n && unschedulableTaints(n, this.clock.now());
      if (!taints) return;
      this.store.update('Node', undefined, name, (o) => {
        const { taints: _old, ...rest } = o.spec ?? {};
        (o as { spec?: Node['spec'] }).spec = taints.length ? { ...rest, taints } : rest;
      });
    };
    for (const n of this.store.list('Node')) pass(n.metadata?.name ?? '');
    this.subs.push(
      this.store.watch((e) => {
        // (after the write that changed the node, as the controller's own update follows it)
        if (e.kind === 'Node' && e.type !== 'DELETED') queueMicrotask(() => pass(e.object.metadata?.name ?? ''));
      }),
    );
  }

  private sweepTimer?: { cancel(): void };
  private nodeStatusTimer?: { cancel(): void };

  /**
   * nodeStatusReportFrequency: the kubelet posts its node's status every 5 minutes even when nothing
   * changed, so the conditions' heartbeats move (their transition times stay).
   */
  private postNodeStatus(): void {
    this.nodeStatusTimer = this.clock.setTimeout(() => {
      const time = rfc3339(this.clock.now());
      for (const n of this.store.list('Node')) {
        if (isSimulatedNode(n) || !n.status?.conditions?.length) continue;
        this.store.update('Node', undefined, n.metadata?.name ?? '', (o) => {
          for (const c of o.status?.conditions ?? []) c.lastHeartbeatTime = time;
        });
      }
      this.postNodeStatus();
    }, NODE_STATUS_REPORT_MS);
  }

  /** The API server's event TTL (etcd leases): an event leaves the store an hour after its last occurrence. */
  private sweepEvents(): void {
    const now = this.clock.now();
    for (const e of this.store.list('Event')) {
      const t = Date.parse(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '');
      if (Number.isFinite(t) && now - t >= EVENT_TTL_MS) this.store.delete('Event', e.metadata?.namespace, e.metadata?.name ?? '');
    }
    this.sweepTimer = this.clock.setTimeout(() => this.sweepEvents(), 60_000);
  }

  /** The lab's nodes as configured now: kept (uid, creation time) when unchanged in name, replaced otherwise. */
  private syncNodes(nodes: Node[]): void {
    const want = new Set(nodes.map((n) => n.metadata?.name ?? ''));
    // Simulated nodes are the user's objects (made through the API), not settings: they stay.
    for (const n of this.store.list('Node')) if (!want.has(n.metadata?.name ?? '') && !isSimulatedNode(n)) this.store.delete('Node', undefined, n.metadata?.name ?? '');
    for (const registered of nodes) {
      const cur = this.store.get('Node', undefined, registered.metadata?.name ?? '');
      const n = withTransitionTimesOf(cur, registered);
      if (!cur) this.store.create('Node', n);
      else if (JSON.stringify({ ...cur.spec, x: cur.status }) !== JSON.stringify({ ...n.spec, x: n.status }) || JSON.stringify(cur.metadata?.labels) !== JSON.stringify(n.metadata?.labels)) {
        this.store.update('Node', undefined, n.metadata?.name ?? '', (o) => {
          Object.assign(o, mutableCopy({ spec: n.spec, status: n.status }));
          o.metadata = { ...o.metadata, labels: { ...n.metadata?.labels }, annotations: { ...n.metadata?.annotations } };
        });
      }
    }
  }

  private newKubelet(): Kubelet {
    return new Kubelet({
      runtime: this.runtime,
      store: this.store,
      recorder: this.recorder,
      clock: this.clock,
      settings: this.settings,
      log: this.log,
      onPullProgress: (p) => this.pullListeners.forEach((l) => l(p)),
      owns: () => true,
      onStepWaiting: (key, container) => this.stepListeners.forEach((l) => l(key, container)),
      onDebugChanged: (uid) => this.debugListeners.forEach((l) => l(uid)),
      random: this.opts.random,
    });
  }

  // ---- ConfigMaps and Secrets (files of the lab) -------------------------------------------

  private startConfigObjects(): void {
    this.configObjects = new ConfigObjectFiles({ stateDir: this.settings.stateDir, store: this.store, clock: this.clock, log: this.log, rescanIntervalMs: this.settings.relistIntervalMs });
    this.configObjects.start();
  }

  private get configFiles(): ConfigObjectFiles {
    if (!this.configObjects) throw new Error('the engine has not started');
    return this.configObjects;
  }

  async applyObject<O extends ConfigObject>(obj: O): Promise<ApplyResult<O>> {
    return this.configFiles.apply(obj);
  }

  getObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): ConfigObjectOf<K> | undefined {
    return this.configFiles.get(kind, namespace, name);
  }

  listObjects<K extends ConfigObjectKind>(kind: K): ConfigObjectOf<K>[] {
    return this.configFiles.list(kind);
  }

  async deleteObject<K extends ConfigObjectKind>(kind: K, namespace: string, name: string): Promise<ConfigObjectOf<K>> {
    return this.configFiles.delete(kind, namespace, name);
  }

  // ---- EngineApi -------------------------------------------------------------------------

  async createPod(input: Pod, opts: { stepMode?: boolean } = {}): Promise<Pod> {
    const pod = mutableCopy(applyPodDefaults(klona(input)));
    pod.metadata = { ...pod.metadata, namespace: pod.metadata?.namespace ?? 'default' };
    delete pod.metadata.uid;
    delete pod.metadata.resourceVersion;
    delete pod.metadata.creationTimestamp;
    // (the pod strategy's PrepareForCreate: the first generation, whatever the body said)
    pod.metadata.generation = 1;
    pod.status = createdPodStatus(pod);
    const uid = randomUUID();
    pod.metadata.uid = uid;
    const created = this.store.create('Pod', pod as Pod);
    if (opts.stepMode !== undefined) {
      // The worker exists once the pod is bound; set step mode as soon as it does.
      const set = () => {
        const w = this.kubelet?.workerFor(uid);
        if (w) w.stepMode = opts.stepMode;
        return !!w;
      };
      if (!set()) {
        const sub = this.store.watch(() => {
          if (set()) sub.dispose();
        });
      }
    }
    return created;
  }

  /**
   * The API server's deletion of a pod (BeforeDelete with the pod strategy's CheckGracefulDelete).
   * A first deletion: an unscheduled or finished pod, or a grace period of 0 (kubectl's --force),
   * leaves the store at once (the kubelet then kills what runs); otherwise the pod gets its
   * deletionTimestamp and the kubelet terminates it (a negative grace counts as 1, here and below). A pod already
   * terminating takes only a shorter grace: its deletion moves that much earlier (never before
   * now: then it is now, with a grace of 1), and a grace of 0 removes it. Returns the object as the
   * DELETE response shows it, and whether it is gone already.
   */
  beginDeletion(namespace: string, name: string, grace?: number): { pod: Pod; gone: boolean } {
    const pod = this.store.get('Pod', namespace, name);
    if (!pod) throw new Error(`pods "${name}" not found`);
    // (BeforeDelete takes a negative grace as 1, before anything else)
    if (grace !== undefined && grace < 0) grace = 1;
    const remove = () => ({ pod: this.store.delete('Pod', namespace, name) ?? pod, gone: true });
    const meta = pod.metadata;
    if (meta?.deletionTimestamp) {
      const current = meta.deletionGracePeriodSeconds;
      if (!current) return remove();
      if (grace === undefined || grace >= current) return { pod, gone: false };
      // (a grace of 0 ends as a graceless delete)
      if (grace === 0) return remove();
      let at = Date.parse(meta.deletionTimestamp) - current * 1000 + grace * 1000;
      let period = grace;
      const now = this.clock.now();
      if (at < now) {
        at = now;
        period = 1;
      }
      const shortened = this.store.update('Pod', namespace, name, (p) => {
        p.metadata = { ...p.metadata, deletionTimestamp: rfc3339(at), deletionGracePeriodSeconds: period };
      });
      return { pod: shortened, gone: false };
    }
    let g = grace ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (!pod.spec?.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') g = 0;
    if (g < 0) g = 1;
    if (g === 0) return remove();
    const marked = this.store.update('Pod', namespace, name, (p) => {
      // (BeforeDelete: an object with a generation counts one more)
      const generation = p.metadata?.generation;
      p.metadata = { ...p.metadata, deletionTimestamp: rfc3339(this.clock.now() + g * 1000), deletionGracePeriodSeconds: g, ...(generation ? { generation: generation + 1 } : {}) };
    });
    return { pod: marked, gone: false };
  }

  private waitGone(uid: string, ns: string, name: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.store.get('Pod', ns, name)) return resolve();
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`timed out waiting for pod "${name}" to be deleted`));
      }, timeoutMs);
      const sub = this.store.watch((e) => {
        if (e.kind === 'Pod' && e.type === 'DELETED' && e.object.metadata?.uid === uid) {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    });
  }

  async deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<void> {
    const pod = this.store.get('Pod', namespace, name);
    if (!pod) throw new Error(`pods "${name}" not found`);
    const uid = pod.metadata?.uid ?? '';
    const grace = gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    const timeout = (Math.max(grace, 2) + 60) * 1000;
    const gone = this.waitGone(uid, namespace, name, timeout);
    this.beginDeletion(namespace, name, grace === 0 ? 1 : grace);
    return gone;
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.store.get('Pod', namespace, name);
  }

  listPods(): Pod[] {
    return this.store.list('Pod');
  }

  listEvents(filter: { uid?: string } = {}): KEvent[] {
    const all = this.store.list('Event');
    return filter.uid ? all.filter((e) => e.involvedObject.uid === filter.uid) : all;
  }

  listNodes(): Node[] {
    return this.store.list('Node');
  }

  watch(listener: (e: WatchEvent) => void): Disposable {
    return this.store.watch(listener);
  }

  private async instances(namespace: string, name: string, container?: string) {
    const pod = this.store.get('Pod', namespace, name);
    if (!pod) throw new Error(`pods "${name}" not found`);
    const rs = await readRuntimePod(this.runtime, pod, async (c) => c.message);
    return { pod, rs, list: container ? rs.containers.filter((c) => c.name === container) : rs.containers };
  }

  /** The lines of a log (`unterminated`: the container wrote no newline after the last). */
  async logs(namespace: string, name: string, container: string, opts: { previous?: boolean; tail?: number; timestamps?: boolean } = {}): Promise<LogLines> {
    return this.runtime.containerLogs(await this.logInstance(namespace, name, container, opts.previous), { tail: opts.tail, timestamps: opts.timestamps });
  }

  /** The container instance `kubectl logs` reads: the current one, or the previous with `--previous` (kubectl's errors otherwise). */
  private async logInstance(namespace: string, name: string, container: string, previous?: boolean): Promise<string> {
    // A simulated pod has nothing in the runtime: say so before asking it.
    this.refuseSimulated(namespace, name, 'have no logs');
    const pod = this.store.get('Pod', namespace, name);
    if (!pod) throw new Error(`pods "${name}" not found`);
    if (!podContainerNames(pod).includes(container)) throw new Error(`container ${container} is not valid for pod ${name}`);
    // (an instance the status names is one the runtime keeps: the container GC keeps the newest two)
    const chosen = logContainerId(pod, container, previous === true);
    if ('error' in chosen) throw new Error(chosen.error);
    return chosen.id;
  }

  async followLogs(
    namespace: string,
    name: string,
    container: string,
    onLine: (line: string, unterminated?: boolean) => void,
    opts: { previous?: boolean; tail?: number; timestamps?: boolean; onEnd?: () => void } = {},
  ): Promise<Disposable> {
    const id = await this.logInstance(namespace, name, container, opts.previous);
    return this.runtime.followContainerLogs(id, { onLine, tail: opts.tail, timestamps: opts.timestamps, onEnd: opts.onEnd });
  }

  async attemptLogs(containerId: string, tail?: number, timestamps = false): Promise<string[]> {
    try {
      return await this.runtime.containerLogs(containerId, { tail, timestamps });
    } catch (e) {
      // Removed by the container GC: the archive keeps its log tail.
      for (const p of this.store.list('Pod')) {
        const a = readArchivedAttempts(this.settings.stateDir, p.metadata?.uid ?? '').find((x) => x.id === containerId);
        if (a) return archivedLogs(a, { tail, timestamps });
      }
      throw e;
    }
  }

  async debugInfo(namespace: string, name: string): Promise<PodDebugInfo | undefined> {
    const pod = this.store.get('Pod', namespace, name);
    if (!pod) return undefined;
    const { rs } = await this.instances(namespace, name);
    const kubelet = this.kubelet?.workerFor(pod.metadata?.uid ?? '')?.debugState();
    return {
      uid: pod.metadata?.uid ?? '',
      sandboxes: rs.sandboxes.map((s) => ({ id: s.id, attempt: s.metadata.attempt, state: s.state === 'SANDBOX_READY' ? 'ready' : 'notready', createdAt: s.createdAt, ip: s.ip })),
      attempts: [
        ...readArchivedAttempts(this.settings.stateDir, pod.metadata?.uid ?? '').map((a) => ({
          containerName: a.name,
          attempt: a.restartCount,
          id: a.id,
          state: 'exited' as const,
          exitCode: a.exitCode,
          reason: a.reason || undefined,
          createdAt: a.createdAt,
          startedAt: a.startedAt || undefined,
          finishedAt: a.finishedAt || undefined,
        })),
        ...rs.containers.map((c) => ({
          containerName: c.name,
          attempt: c.restartCount,
          id: c.id,
          state: c.state,
          exitCode: c.state === 'exited' ? c.exitCode : undefined,
          reason: c.reason || undefined,
          createdAt: c.createdAt,
          startedAt: c.startedAt || undefined,
          finishedAt: c.finishedAt || undefined,
        })),
      ].sort((a, b) => a.createdAt - b.createdAt),
      backoff: kubelet?.backoff ?? {},
      stepWaitingFor: kubelet?.stepWaitingFor,
      stepWaits: kubelet?.stepWaits ?? [],
      probes: this.kubelet?.prober.history(pod.metadata?.uid ?? '') ?? [],
      hooks: [...(this.kubelet?.hookRuns.get(pod.metadata?.uid ?? '') ?? [])].map((h) => ({ ...h })),
    };
  }

  watchDebug(namespace: string, name: string, listener: (info: PodDebugInfo | undefined) => void): Disposable {
    let closed = false;
    let busy = false;
    let dirty = true;
    let last: string | undefined;
    // One read at a time: changes that arrive during a read make one more read, so a burst of
    // kubelet changes costs one or two runtime round trips, and nothing is missed.
    const pump = async () => {
      if (busy || closed) return;
      busy = true;
      try {
        while (dirty && !closed) {
          dirty = false;
          let info: PodDebugInfo | undefined;
          try {
            info = await this.debugInfo(namespace, name);
          } catch (e) {
            this.log(`debug watch of ${namespace}/${name}: ${(e as Error).message}`);
            continue;
          }
          const json = JSON.stringify(info ?? null);
          if (closed || json === last) continue;
          last = json;
          try {
            listener(info);
          } catch {
            // a listener's failure is not the engine's
          }
        }
      } finally {
        busy = false;
      }
    };
    const poke = () => {
      dirty = true;
      void pump();
    };
    const onChange = (uid: string) => {
      if (uid && uid === this.store.get('Pod', namespace, name)?.metadata?.uid) poke();
    };
    this.debugListeners.add(onChange);
    const sub = this.store.watch((e) => {
      if (e.kind === 'Pod' && e.type !== 'MODIFIED' && e.object.metadata?.name === name && (e.object.metadata?.namespace ?? 'default') === namespace) poke();
    });
    poke();
    return {
      dispose: () => {
        closed = true;
        this.debugListeners.delete(onChange);
        sub.dispose();
      },
    };
  }

  /** The simulated node a pod is bound to, if it is. */
  simulatedNodeOf(namespace: string, name: string): string | undefined {
    const node = this.store.get('Pod', namespace, name)?.spec?.nodeName;
    return node && isSimulatedNode(this.store.get('Node', undefined, node)) ? node : undefined;
  }

  private refuseSimulated(namespace: string, name: string, what: Parameters<typeof simulatedPodRefusal>[2]): void {
    const node = this.simulatedNodeOf(namespace, name);
    if (node) throw new Error(simulatedPodRefusal(name, node, what));
  }

  /** The id of the container's running instance (exec, attach), or kubectl's error. */
  async runningContainer(namespace: string, name: string, container: string, purpose: 'exec' | 'attach' = 'exec'): Promise<string> {
    this.refuseSimulated(namespace, name, purpose === 'exec' ? 'cannot run commands' : 'cannot be attached to');
    const { list, pod } = await this.instances(namespace, name, container);
    if (!podContainerNames(pod).includes(container)) throw new Error(`container ${container} is not valid for pod ${name}`);
    const running = list.find((c) => c.state === 'running');
    if (!running) throw new ContainerNotRunningError(container);
    return running.id;
  }

  async exec(namespace: string, name: string, container: string, cmd: string[]) {
    return this.runtime.execSync(await this.runningContainer(namespace, name, container), cmd, 30);
  }

  continueStep(namespace: string, name: string): void {
    const uid = this.store.get('Pod', namespace, name)?.metadata?.uid ?? '';
    this.kubelet?.workerFor(uid)?.continueStep();
  }

  restartNow(namespace: string, name: string, container: string): void {
    const uid = this.store.get('Pod', namespace, name)?.metadata?.uid ?? '';
    this.kubelet?.workerFor(uid)?.restartNow(container);
  }

  /** Step mode: told when a pod's kubelet holds an init container until continueStep. */
  onStepWaiting(listener: (podKey: string, container: string) => void): Disposable {
    this.stepListeners.add(listener);
    return { dispose: () => this.stepListeners.delete(listener) };
  }

  onPullProgress(listener: (p: PullProgress & { pod: string }) => void): Disposable {
    this.pullListeners.add(listener);
    return { dispose: () => this.pullListeners.delete(listener) };
  }

  /** Removes every lab container of pods nobody else owns, without the kubelet's ceremony (cleanup). */
  async forceRemoveAll(): Promise<void> {
    for (const p of this.store.list('Pod')) {
      const rs = await readRuntimePod(this.runtime, p, async () => '');
      await removePodFromRuntime(this.runtime, rs);
    }
  }

  async idle(): Promise<void> {
    await this.kubelet?.idle();
  }

  /** Set by close(): the node tainting's queued passes do nothing more. */
  private closing = false;

  async close(): Promise<void> {
    this.closing = true;
    this.sweepTimer?.cancel();
    this.nodeStatusTimer?.cancel();
    this.configObjects?.dispose();
    this.scheduler?.dispose();
    this.simulated?.dispose();
    this.kubelet?.dispose();
    await this.kubelet?.idle();
    for (const s of this.subs) s.dispose();
    this.journal?.close();
    this.runtime.close();
  }
}

/**
 * The instance `kubectl logs` reads, from the pod's status as the kubelet's
 * validateContainerLogStatus chooses it: with --previous the last terminated one; else the running
 * one, the terminated one (or, without its ID, the last terminated), the last terminated one (a
 * container waiting to restart), or kubectl's error for a container that never ran.
 */
export function logContainerId(pod: Pod, container: string, previous: boolean): { id: string } | { error: string } {
  const s = pod.status;
  const st = [...(s?.containerStatuses ?? []), ...(s?.initContainerStatuses ?? []), ...(s?.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
  const name = pod.metadata?.name ?? '';
  const idOf = (containerID: string | undefined) => {
    const id = runtimeId(containerID);
    return id === undefined ? undefined : { id };
  };
  const terminatedError = { error: `container "${container}" in pod "${name}" is terminated` };
  const noLogsYet = { error: `container "${container}" in pod "${name}" is waiting to start - no logs yet` };
  const lastId = idOf(st?.lastState?.terminated?.containerID);
  if (!st) return { error: waitingToStartMessage(pod, container) };
  if (previous) return lastId ?? { error: `previous terminated container "${container}" in pod "${name}" not found` };
  if (st.state?.running) return idOf(st.containerID) ?? noLogsYet;
  if (st.state?.terminated) return idOf(st.state.terminated.containerID) ?? lastId ?? terminatedError;
  if (st.lastState?.terminated) return lastId ?? terminatedError;
  if (st.state?.waiting) return { error: waitingToStartMessage(pod, container) };
  return noLogsYet;
}

/**
 * The kubelet's answer to a log request for a container with no instance yet
 * (validateContainerLogStatus, pkg/kubelet/kubelet_pods.go): the two image-pull failures in words,
 * any other waiting reason as it is.
 */
export function waitingToStartMessage(pod: Pod, container: string): string {
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  const reason = all.find((s) => s.name === container)?.state?.waiting?.reason ?? 'ContainerCreating';
  const why = reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
  return `container "${container}" in pod "${pod.metadata?.name ?? ''}" is waiting to start: ${why}`;
}

/** The size of the filesystem holding `dir` (the kubelet reports its root directory's as ephemeral-storage); undefined when unknown. */
function rootFsBytes(dir: string): number | undefined {
  try {
    const st = statfsSync(dir);
    return st.blocks * st.bsize;
  } catch {
    return undefined;
  }
}
