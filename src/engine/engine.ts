// The engine: an API store, the scheduler and the kubelet wired over one runtime. It adopts the
// lab's pods from the runtime at start (the sandbox keeps the manifest), so a restarted CLI or
// VS Code loses nothing. Several processes may look at the same pods: exactly one *owns* a pod
// (runs its kubelet worker); the others are read-only and ask the owner to delete.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Event as KEvent, Node, Pod } from 'kubernetes-types/core/v1';
import type { Disposable, PullProgress, RuntimeService } from '../runtime/cri.js';
import type { ApplyResult, ConfigObject, ConfigObjectKind, ConfigObjectOf, EngineApi, EngineSettings, PodDebugInfo, WatchEvent } from './api.js';
import { ConfigObjectFiles } from './config-persistence.js';
import { Store } from './store.js';
import { EventRecorder } from './events.js';
import { realClock, rfc3339, type Clock } from './clock.js';
import { Scheduler } from './scheduler/scheduler.js';
import { Kubelet, podDir, readArchivedAttempts, readRuntimePod, removePodFromRuntime } from './kubelet/kubelet.js';
import { generatePodStatus } from './kubelet/status.js';
import { applyPodDefaults } from '../validation/defaults.js';
import * as L from '../shared/labels.js';
import { mutableCopy, type DeepMutable } from './mutable.js';

export interface EngineOptions {
  runtime: RuntimeService;
  settings?: Partial<EngineSettings>;
  clock?: Clock;
  log?: (line: string) => void;
  /**
   * active: runs the scheduler and kubelet for the pods it owns. passive: a read-only view
   * (the CLI's get/describe/logs), which hands deletions to the owner.
   */
  mode?: 'active' | 'passive';
  /** Which unowned pods an active engine takes over: all of them (the extension), or only those it creates (the CLI). */
  adopt?: 'all' | 'created';
  /** Randomness for the kubelet (probe workers' initial sleep); tests inject a fixed one. */
  random?: () => number;
}

export function defaultStateDir(): string {
  if (process.env.PODLAB_STATE_DIR) return process.env.PODLAB_STATE_DIR;
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'podlab');
}

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

export const DEFAULT_NODE_NAME = 'podlab-node';

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const nsName = (p: Pod) => [p.metadata?.namespace ?? 'default', p.metadata?.name ?? ''] as const;

export class Engine implements EngineApi {
  readonly settings: EngineSettings;
  readonly store: Store;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private scheduler?: Scheduler;
  kubelet?: Kubelet;
  private readonly pullListeners = new Set<(p: PullProgress & { pod: string }) => void>();
  private readonly stepListeners = new Set<(podKey: string, container: string) => void>();
  private readonly owned = new Set<string>();
  private readonly subs: Disposable[] = [];
  private requestWatcher?: FSWatcher;
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
    this.recorder = new EventRecorder(this.store, this.clock, (e) => this.persistEvent(e));
  }

  static async start(opts: EngineOptions): Promise<Engine> {
    const e = new Engine(opts.runtime, opts);
    await e.init();
    return e;
  }

  private get active(): boolean {
    return (this.opts.mode ?? 'active') === 'active';
  }

  private dir(uid: string): string {
    return podDir(this.settings.stateDir, uid);
  }

  private async init(): Promise<void> {
    mkdirSync(join(this.settings.stateDir, 'pods'), { recursive: true });
    mkdirSync(join(this.settings.stateDir, 'requests'), { recursive: true });
    // The Docker host's size (for the default node) and the lab's pods, asked for together.
    const [nodes] = await Promise.all([this.settings.nodes.length ? this.settings.nodes : this.defaultNode().then((n) => [n]), this.adoptFromRuntime()]);
    for (const n of nodes) this.store.create('Node', n);
    // Loaded before the kubelet starts, so a pod's first sync finds the objects it references.
    this.startConfigObjects();
    if (this.active) {
      if (this.opts.adopt === 'all') for (const p of this.store.list('Pod')) this.tryClaim(p.metadata?.uid ?? '');
      this.subs.push(this.store.watch((e) => this.onStoreEvent(e)));
      this.scheduler = new Scheduler(this.store, this.recorder, this.clock);
      this.kubelet = this.newKubelet();
      this.watchRequests();
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
      owns: (uid) => this.owned.has(uid),
      onStepWaiting: (key, container) => this.stepListeners.forEach((l) => l(key, container)),
      random: this.opts.random,
    });
  }

  private async defaultNode(): Promise<Node> {
    const v = await this.runtime.version();
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: DEFAULT_NODE_NAME,
        labels: { 'kubernetes.io/hostname': DEFAULT_NODE_NAME, 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'podlab' },
      },
      spec: {},
      status: {
        capacity: { cpu: String(v.cpus), memory: `${Math.floor(v.memoryBytes / 1024)}Ki`, pods: '110' },
        allocatable: { cpu: String(v.cpus), memory: `${Math.floor(v.memoryBytes / 1024)}Ki`, pods: '110' },
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
        addresses: [
          { type: 'InternalIP', address: '127.0.0.1' },
          { type: 'Hostname', address: DEFAULT_NODE_NAME },
        ],
        nodeInfo: {
          containerRuntimeVersion: `${v.runtimeName}://${v.runtimeVersion}`,
          kubeletVersion: 'podlab',
          kubeProxyVersion: '',
          architecture: process.arch === 'x64' ? 'amd64' : process.arch,
          operatingSystem: 'linux',
          osImage: v.hostname,
          kernelVersion: '',
          bootID: '',
          machineID: '',
          systemUUID: '',
        },
      },
    };
  }

  /** Rebuilds the store from the runtime: one pod per uid, from the newest sandbox's manifest. */
  private async adoptFromRuntime(): Promise<void> {
    const sandboxes = await this.runtime.listPodSandbox({ labelSelector: { [L.ManagedLabel]: 'true', [L.LabLabel]: this.settings.stateDir } });
    const newest = new Map<string, (typeof sandboxes)[number]>();
    for (const sb of sandboxes) {
      const cur = newest.get(sb.metadata.uid);
      if (!cur || sb.metadata.attempt > cur.metadata.attempt) newest.set(sb.metadata.uid, sb);
    }
    for (const sb of newest.values()) {
      if (!sb.podManifest) continue;
      let pod: DeepMutable<Pod>;
      try {
        pod = JSON.parse(sb.podManifest) as DeepMutable<Pod>;
      } catch {
        this.log(`sandbox ${sb.id} carries an unreadable manifest; left alone`);
        continue;
      }
      const uid = pod.metadata?.uid ?? '';
      const saved = this.readJson<Pod['status']>(join(this.dir(uid), 'status.json'));
      const [ns, name] = nsName(pod);
      if (this.store.get('Pod', ns, name)) continue;
      const ownerAlive = this.ownerPid(uid) !== undefined;
      pod.status = saved ?? { phase: 'Pending' };
      if (!ownerAlive || !saved) {
        const rs = await readRuntimePod(this.runtime, pod as Pod, async (c) => c.message);
        pod.status = generatePodStatus({ pod: pod as Pod, runtime: rs, reasonCache: new Map(), podIsTerminal: !!pod.metadata?.deletionTimestamp, now: this.clock.now() });
      }
      this.store.create('Pod', pod as Pod);
      for (const ev of this.readEvents(uid)) {
        if (!this.store.get('Event', ev.metadata.namespace, ev.metadata.name ?? '')) this.store.create('Event', ev);
      }
    }
  }

  private readJson<T>(file: string): T | undefined {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      return undefined;
    }
  }

  private readEvents(uid: string): KEvent[] {
    const file = join(this.dir(uid), 'events.jsonl');
    if (!existsSync(file)) return [];
    const byName = new Map<string, KEvent>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as KEvent;
        byName.set(e.metadata.name ?? '', e);
      } catch {
        // a torn last line: skip it
      }
    }
    return [...byName.values()];
  }

  private persistEvent(e: KEvent): void {
    const uid = e.involvedObject.uid;
    if (!uid || !this.owned.has(uid)) return;
    try {
      mkdirSync(this.dir(uid), { recursive: true });
      appendFileSync(join(this.dir(uid), 'events.jsonl'), `${JSON.stringify(e)}\n`);
    } catch (err) {
      this.log(`cannot persist event: ${(err as Error).message}`);
    }
  }

  private onStoreEvent(e: WatchEvent): void {
    if (e.kind !== 'Pod') return;
    const uid = e.object.metadata?.uid ?? '';
    if (!this.owned.has(uid)) return;
    if (e.type === 'DELETED') {
      this.owned.delete(uid);
      return;
    }
    try {
      mkdirSync(this.dir(uid), { recursive: true });
      writeFileSync(join(this.dir(uid), 'status.json'), JSON.stringify(e.object.status ?? {}));
    } catch {
      // the pod directory is being removed
    }
  }

  private ownerPid(uid: string): number | undefined {
    const file = join(this.dir(uid), 'owner');
    if (!existsSync(file)) return undefined;
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return pidAlive(pid) ? pid : undefined;
  }

  /** Takes ownership of a pod whose owner is gone. */
  private tryClaim(uid: string): boolean {
    if (!uid) return false;
    const pid = this.ownerPid(uid);
    if (pid !== undefined && pid !== process.pid) return false;
    mkdirSync(this.dir(uid), { recursive: true });
    writeFileSync(join(this.dir(uid), 'owner'), String(process.pid));
    this.owned.add(uid);
    return true;
  }

  private release(uid: string): void {
    if (!this.owned.delete(uid)) return;
    const file = join(this.dir(uid), 'owner');
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  }

  /** Deletion requests from other processes arrive as files in <stateDir>/requests. */
  private watchRequests(): void {
    const dir = join(this.settings.stateDir, 'requests');
    const handle = () => {
      for (const f of readdirSync(dir)) {
        const uid = f.replace(/\.json$/, '');
        if (!this.owned.has(uid)) continue;
        const req = this.readJson<{ grace?: number }>(join(dir, f));
        rmSync(join(dir, f), { force: true });
        const pod = this.store.list('Pod').find((p) => p.metadata?.uid === uid);
        if (pod) void this.markDeleted(pod, req?.grace).catch((e) => this.log(`delete: ${(e as Error).message}`));
      }
    };
    try {
      this.requestWatcher = watch(dir, () => handle());
      this.requestWatcher.unref?.();
      handle();
    } catch (e) {
      this.log(`cannot watch ${dir}: ${(e as Error).message}`);
    }
  }

  // ---- ConfigMaps and Secrets (files of the lab; every engine, active or passive) ----------

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
    if (!this.active) throw new Error('this engine is read-only');
    const pod = mutableCopy(applyPodDefaults(structuredClone(input)));
    pod.metadata = { ...pod.metadata, namespace: pod.metadata?.namespace ?? 'default' };
    delete pod.metadata.uid;
    delete pod.metadata.resourceVersion;
    delete pod.metadata.creationTimestamp;
    pod.status = { phase: 'Pending' };
    // The uid is chosen here so the pod is claimed before the scheduler and kubelet see it.
    const uid = randomUUID();
    pod.metadata.uid = uid;
    this.tryClaim(uid);
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

  /** Takes over an adopted pod whose owner is gone (re-attaching after a restart). */
  adopt(namespace: string, name: string): boolean {
    const pod = this.store.get('Pod', namespace, name);
    if (!pod || !this.active) return false;
    const uid = pod.metadata?.uid ?? '';
    if (this.owned.has(uid)) return true;
    if (!this.tryClaim(uid)) return false;
    // Nudge the kubelet: a store update wakes the worker for a pod it now owns.
    this.store.update('Pod', namespace, name, () => undefined);
    return true;
  }

  isOwnedHere(uid: string): boolean {
    return this.owned.has(uid);
  }

  private async markDeleted(pod: Pod, grace?: number): Promise<void> {
    const [ns, name] = nsName(pod);
    const g = grace ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (!pod.spec?.nodeName) {
      this.store.delete('Pod', ns, name);
      return;
    }
    if (pod.metadata?.deletionTimestamp) return;
    this.store.update('Pod', ns, name, (p) => {
      p.metadata = { ...p.metadata, deletionTimestamp: rfc3339(this.clock.now() + g * 1000), deletionGracePeriodSeconds: g };
    });
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
    if (this.owned.has(uid)) {
      const gone = this.waitGone(uid, namespace, name, timeout);
      await this.markDeleted(pod, grace);
      return gone;
    }
    const owner = this.ownerPid(uid);
    if (owner !== undefined && owner !== process.pid) {
      // Another process runs this pod's kubelet: ask it, then wait for the runtime to empty.
      writeFileSync(join(this.settings.stateDir, 'requests', `${uid}.json`), JSON.stringify({ grace }));
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline) {
        const left = await this.runtime.listPodSandbox({ labelSelector: { [L.PodUIDLabel]: uid } });
        if (left.length === 0) {
          this.store.delete('Pod', namespace, name);
          return;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`timed out waiting for pod "${name}" to be deleted`);
    }
    // Nobody owns it: take it over just to terminate it.
    this.tryClaim(uid);
    if (!this.kubelet) this.kubelet = this.newKubelet();
    const gone = this.waitGone(uid, namespace, name, timeout);
    await this.markDeleted(pod, grace);
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

  async logs(namespace: string, name: string, container: string, opts: { previous?: boolean; tail?: number } = {}): Promise<string[]> {
    const { list, pod } = await this.instances(namespace, name, container);
    const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
    if (!names.includes(container)) throw new Error(`container ${container} is not valid for pod ${name}`);
    const inst = list[opts.previous ? 1 : 0];
    if (!inst) {
      if (opts.previous) throw new Error(`previous terminated container "${container}" in pod "${name}" not found`);
      throw new Error(`container "${container}" in pod "${name}" is waiting to start: ${waitingReason(pod, container)}`);
    }
    return this.runtime.containerLogs(inst.id, { tail: opts.tail });
  }

  async followLogs(namespace: string, name: string, container: string, onLine: (line: string) => void): Promise<Disposable> {
    const { list } = await this.instances(namespace, name, container);
    if (!list[0]) throw new Error(`container "${container}" in pod "${name}" has not started yet`);
    return this.runtime.followContainerLogs(list[0].id, { onLine });
  }

  async attemptLogs(containerId: string, tail?: number): Promise<string[]> {
    try {
      return await this.runtime.containerLogs(containerId, { tail });
    } catch (e) {
      // Removed by the container GC: the archive keeps its log tail.
      for (const p of this.store.list('Pod')) {
        const a = readArchivedAttempts(this.settings.stateDir, p.metadata?.uid ?? '').find((x) => x.id === containerId);
        if (a) return tail ? a.logs.slice(-tail) : a.logs;
      }
      throw e;
    }
  }

  async debugInfo(namespace: string, name: string): Promise<PodDebugInfo | undefined> {
    const pod = this.store.get('Pod', namespace, name);
    if (!pod) return undefined;
    const { rs } = await this.instances(namespace, name);
    const w = this.kubelet?.workerFor(pod.metadata?.uid ?? '');
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
      backoff: w?.debugState().backoff ?? {},
      stepWaitingFor: w?.debugState().stepWaitingFor,
    };
  }

  async exec(namespace: string, name: string, container: string, cmd: string[]) {
    const { list } = await this.instances(namespace, name, container);
    const running = list.find((c) => c.state === 'running');
    if (!running) throw new Error(`container ${container} is not running`);
    return this.runtime.execSync(running.id, cmd, 30);
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

  async close(): Promise<void> {
    this.requestWatcher?.close();
    this.configObjects?.dispose();
    this.scheduler?.dispose();
    this.kubelet?.dispose();
    await this.kubelet?.idle();
    for (const s of this.subs) s.dispose();
    for (const uid of [...this.owned]) this.release(uid);
    this.runtime.close();
  }
}

function waitingReason(pod: Pod, container: string): string {
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return all.find((s) => s.name === container)?.state?.waiting?.reason ?? 'ContainerCreating';
}
