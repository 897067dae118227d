// The embedded kubelet (upstream pkg/kubelet/kubelet.go syncLoop): one pod worker per pod bound to
// a lab node, woken by the store (new pods, deletions), by the runtime's event stream (PLEG), by
// its own timers (back-off expiry, deadlines) and by a slow relist; never by tight polling.
// The rooms: pod-workers.ts (workers), sync-pod.ts (SyncPod), container-lifecycle.ts
// (start/kill, hooks), sandbox.ts, container-gc.ts, termination-message.ts, active-deadline.ts.
import type { Pod } from 'kubernetes-types/core/v1';
import type { Disposable } from '../../runtime/cri.js';
import type { HookRun } from '../api.js';
import type { Timer } from '../clock.js';
import { Backoff } from './backoff.js';
import type { KubeletDeps, KubeletShared } from './context.js';
import { PodWorker } from './pod-workers.js';
import { needToReconcilePodReadiness } from './status.js';
import { ProberManager } from './prober/index.js';
import { VolumeManager, type ObjectLookup, type VolumeFacts } from './volumes/index.js';
import { containerFieldPath, podRef } from '../events.js';
import { isSimulatedNode } from '../../shared/labels.js';
import { nodeHostIPs } from '../node.js';

export type { KubeletDeps } from './context.js';
export { PodWorker } from './pod-workers.js';
export { NODE_IP, podDir, sandboxConfigFor } from './sandbox.js';
export { readRuntimePod, removePodFromRuntime } from './runtime-status.js';
export { readArchivedAttempts, type ArchivedAttempt } from './container-gc.js';

const podKey = (p: Pod) => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`;

export class Kubelet implements Disposable, KubeletShared {
  readonly crashBackoff: Backoff;
  readonly pulls = { backoff: new Backoff(10_000, 300_000), lastError: new Map<string, string>() };
  readonly messageCache = new Map<string, string>();
  readonly hookRuns = new Map<string, HookRun[]>();
  readonly prober: ProberManager;
  readonly volumes: VolumeManager;
  readonly lookup: ObjectLookup;
  private readonly workers = new Map<string, PodWorker>();
  /** How many ephemeral containers each pod's spec had when last seen (a new one needs a sync). */
  private readonly ephemeralSeen = new Map<string, number>();
  private readonly subs: Disposable[] = [];
  private relistTimer?: Timer;
  private closed = false;

  constructor(readonly deps: KubeletDeps) {
    this.crashBackoff = new Backoff(deps.settings.backoffInitialMs, deps.settings.backoffMaxMs);
    const host = (pod: Pod) => ({ component: 'kubelet' as const, host: pod.spec?.nodeName });
    this.lookup = {
      configMap: (ns, name) => deps.store.get('ConfigMap', ns, name),
      secret: (ns, name) => deps.store.get('Secret', ns, name),
    };
    this.prober = new ProberManager({
      clock: deps.clock,
      runtime: deps.runtime,
      random: deps.random,
      onEvent: (pod, type, reason, message, name) => deps.recorder.record(podRef(pod, containerFieldPath(pod, name)), type, reason, message, host(pod)),
      onLivenessOrStartupVerdict: (uid) => this.workers.get(uid)?.trigger(),
      onReadinessChanged: (uid) => this.workers.get(uid)?.trigger(),
      onRun: (uid) => deps.onDebugChanged?.(uid),
    });
    this.volumes = new VolumeManager({
      stateDir: deps.settings.stateDir,
      clock: deps.clock,
      runtime: deps.runtime,
      lab: deps.settings.stateDir,
      recordEvent: (pod, type, reason, message) => deps.recorder.record(podRef(pod), type, reason, message, host(pod)),
      onVolumesReady: (uid) => this.workers.get(uid)?.trigger(),
    });
    this.subs.push(
      deps.store.watch((e) => {
        // A ConfigMap's or Secret's change syncs no pod (the watch-based manager only updates its
        // cache): a pod waiting for one retries on its own (a sync error's 10 s, the volume
        // reconciler's back-off), and mounted copies refresh at the pod's next sync.
        if (e.kind !== 'Pod') return;
        const uid = e.object.metadata?.uid ?? '';
        if (e.type === 'DELETED') {
          const w = this.workers.get(uid);
          const forget = () => {
            w?.dispose();
            if (this.workers.get(uid) === w) this.workers.delete(uid);
            this.prober.removePod(uid);
            this.hookRuns.delete(uid);
            this.ephemeralSeen.delete(uid);
          };
          // Removed from the API before the worker finished it (forced deletion): kill first. A
          // graceless delete leaves no deletion grace to go by, so a termination under way goes
          // on with the spec's grace when that is shorter (calculateEffectiveGracePeriod).
          w?.shortenGrace({ ...e.object, metadata: { ...e.object.metadata, deletionGracePeriodSeconds: undefined } });
          if (w && !w.terminated) void w.killRemoved(e.object).then(forget, (err: Error) => (deps.log(`${w.key}: kill on removal: ${err.message}`), forget()));
          else forget();
          return;
        }
        if (!this.runsOnLabNode(e.object) || !deps.owns(uid)) return;
        // Our own status writes come back here: only new pods, deletions and added ephemeral
        // containers (the pods/ephemeralcontainers subresource) need a sync.
        const known = this.workers.has(uid);
        const ephemeral = e.object.spec?.ephemeralContainers?.length ?? 0;
        const added = ephemeral !== (this.ephemeralSeen.get(uid) ?? 0);
        this.ephemeralSeen.set(uid, ephemeral);
        if (e.object.metadata?.deletionTimestamp) this.workers.get(uid)?.shortenGrace(e.object);
        // (HandlePodReconcile: a readiness gate's condition changed by a client)
        if (!known || added || e.object.metadata?.deletionTimestamp || needToReconcilePodReadiness(e.object)) this.worker(e.object).trigger();
      }),
      deps.runtime.onEvent((e) => {
        // PLEG: only container lifecycle changes wake a pod (not the exec sessions of probes and hooks).
        if (e.podUid && e.action !== 'other') {
          this.workers.get(e.podUid)?.trigger();
          deps.onDebugChanged?.(e.podUid);
        }
      }),
    );
    for (const p of deps.store.list('Pod')) if (this.runsOnLabNode(p) && deps.owns(p.metadata?.uid ?? '')) this.worker(p).trigger();
    this.scheduleRelist();
  }

  /**
   * A pod bound to one of the lab's Docker-backed nodes (a pod bound to a node nobody runs stays
   * Pending, as on a cluster; a simulated node's pods are the simulated kubelet's).
   */
  private runsOnLabNode(pod: Pod): boolean {
    const node = pod.spec?.nodeName;
    const n = node ? this.deps.store.get('Node', undefined, node) : undefined;
    return !!n && !isSimulatedNode(n);
  }

  private worker(pod: Pod): PodWorker {
    const uid = pod.metadata?.uid ?? '';
    let w = this.workers.get(uid);
    if (!w) {
      w = new PodWorker(this, podKey(pod), uid);
      this.workers.set(uid, w);
    }
    return w;
  }

  nodeFacts(pod: Pod): VolumeFacts {
    const node = pod.spec?.nodeName ? this.deps.store.get('Node', undefined, pod.spec.nodeName) : undefined;
    return { nodeAllocatable: { ...(node?.status?.allocatable ?? {}) } as Record<string, string> };
  }

  hostIPs(pod: Pod): string[] {
    return nodeHostIPs(pod.spec?.nodeName ? this.deps.store.get('Node', undefined, pod.spec.nodeName) : undefined);
  }

  workerFor(uid: string): PodWorker | undefined {
    return this.workers.get(uid);
  }

  private scheduleRelist(): void {
    if (this.closed) return;
    this.relistTimer = this.deps.clock.setTimeout(() => {
      for (const w of this.workers.values()) w.trigger('relist');
      this.scheduleRelist();
    }, this.deps.settings.relistIntervalMs);
  }

  /** Resolves when every worker is idle, those of a disposed kubelet included (tests, close, the CLI's clean exit). */
  async idle(): Promise<void> {
    await Promise.all([...this.workers.values(), ...this.retired].map((w) => w.idle()));
  }

  /** The workers at dispose: a sync they began still runs, and idle() waits for it. */
  private retired: PodWorker[] = [];

  dispose(): void {
    this.closed = true;
    this.relistTimer?.cancel();
    for (const s of this.subs) s.dispose();
    for (const w of this.workers.values()) w.dispose();
    this.retired = [...this.workers.values()];
    this.workers.clear();
    this.prober.dispose();
    this.volumes.dispose();
  }
}
