// The embedded kubelet (upstream pkg/kubelet/kubelet.go syncLoop): one pod worker per pod bound to
// a lab node, woken by the store (new pods, deletions), by the runtime's event stream (PLEG), by
// its own timers (back-off expiry, deadlines) and by a slow relist; never by tight polling.
// The rooms: pod-workers.ts (workers), sync-pod.ts (SyncPod), container-lifecycle.ts
// (start/kill, hooks), sandbox.ts, container-gc.ts, termination-message.ts, active-deadline.ts.
import type { Pod } from 'kubernetes-types/core/v1';
import type { Disposable } from '../../runtime/cri.js';
import type { Timer } from '../clock.js';
import { Backoff } from './backoff.js';
import type { KubeletDeps, KubeletShared } from './context.js';
import { PodWorker } from './pod-workers.js';

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
  private readonly workers = new Map<string, PodWorker>();
  private readonly subs: Disposable[] = [];
  private relistTimer?: Timer;
  private closed = false;

  constructor(readonly deps: KubeletDeps) {
    this.crashBackoff = new Backoff(deps.settings.backoffInitialMs, deps.settings.backoffMaxMs);
    this.subs.push(
      deps.store.watch((e) => {
        if (e.kind !== 'Pod') return;
        const uid = e.object.metadata?.uid ?? '';
        if (e.type === 'DELETED') {
          this.workers.get(uid)?.dispose();
          this.workers.delete(uid);
          return;
        }
        if (!e.object.spec?.nodeName || !deps.owns(uid)) return;
        // Our own status writes come back here: only new pods and deletions need a sync.
        const known = this.workers.has(uid);
        if (!known || e.object.metadata?.deletionTimestamp) this.worker(e.object).trigger();
      }),
      deps.runtime.onEvent((e) => {
        if (e.podUid) this.workers.get(e.podUid)?.trigger();
      }),
    );
    for (const p of deps.store.list('Pod')) if (p.spec?.nodeName && deps.owns(p.metadata?.uid ?? '')) this.worker(p).trigger();
    this.scheduleRelist();
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

  workerFor(uid: string): PodWorker | undefined {
    return this.workers.get(uid);
  }

  private scheduleRelist(): void {
    if (this.closed) return;
    this.relistTimer = this.deps.clock.setTimeout(() => {
      for (const w of this.workers.values()) w.trigger();
      this.scheduleRelist();
    }, this.deps.settings.relistIntervalMs);
  }

  /** Resolves when every worker is idle (tests and the CLI's clean exit). */
  async idle(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.idle()));
  }

  dispose(): void {
    this.closed = true;
    this.relistTimer?.cancel();
    for (const s of this.subs) s.dispose();
    for (const w of this.workers.values()) w.dispose();
    this.workers.clear();
  }
}
