// The embedded scheduler (upstream pkg/scheduler: scheduler.go, schedule_one.go, and the
// scheduling queue of backend/queue): it follows the store's watch into its cache (cache.ts) and
// three queues — new pods wait in the active queue in creation order; a pod no node fits waits as
// unschedulable until a node is added or changed, an assigned pod goes away, or a pod is created
// already bound (upstream's MoveAllToActiveOrBackoffQueue on those cluster events); a pod that
// failed on InterPodAffinity or PodTopologySpread also comes back when a placed pod may let it in
// (a pod bound that its affinity or spread selects, a placed pod relabelled, a namespace changed:
// upstream's queueing hints of those plugins), the others stay; a waiting pod a client updates (its
// labels, annotations or spec, as a toleration added) comes back too. A pod moved while its back-off
// runs (1 s after its first failed attempt, doubling to 10 s: podInitialBackoffSeconds and
// podMaxBackoffSeconds) waits in the back-off queue until it ends; a pod unschedulable for 5
// minutes is tried again anyway (podMaxInUnschedulablePodsDuration). It schedules one pod at a time
// with the pure filters and score over the cache's NodeInfos: it binds (spec.nodeName +
// PodScheduled=True + `Scheduled`) or records why not (PodScheduled=False `Unschedulable` +
// `FailedScheduling`).
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { Store } from '../store.js';
import type { EventRecorder } from '../events.js';
import { podRef } from '../events.js';
import { EarliestTimer, rfc3339, type Clock } from '../clock.js';
import type { Disposable } from '../../runtime/cri.js';
import { findNodeDetailed, isTerminalPod, podFacts, truncateMessage, type PodFacts } from './filters.js';
import { SchedulerCache, type CacheChange } from './cache.js';
import { placedPodMayHelp } from './interpod.js';

const waitsForNode = (p: Pod) => !p.spec?.nodeName && !p.metadata?.deletionTimestamp && !isTerminalPod(p);

interface Queued {
  namespace?: string;
  name: string;
  uid: string;
  created: string;
  seq: number;
  /** After a failed attempt: the pod's facts and the plugins that failed on some node. */
  failed?: { facts: PodFacts; plugins: ReadonlySet<string> };
  /** Scheduling attempts that failed so far, and when the last one was made (clock ms). */
  attempts?: number;
  lastTried?: number;
  /** What the pod was when it failed, besides its status (a change of it may let the pod in). */
  podKey?: string;
}

/** A pod without its status and bookkeeping: what upstream's isPodUpdated compares. */
const podKey = (p: Pod) => JSON.stringify([p.metadata?.labels, p.metadata?.annotations, p.spec]);

/** How long a pod may stay unschedulable before it is tried again anyway (podMaxInUnschedulablePodsDuration). */
export const POD_MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;

/** Upstream's podInitialBackoffSeconds and podMaxBackoffSeconds (the scheduler's defaults). */
export const POD_INITIAL_BACKOFF_MS = 1000;
export const POD_MAX_BACKOFF_MS = 10_000;

/** When a pod that failed `attempts` times, the last at `lastTried`, may be tried again (calculateBackoffDuration: 1 s doubling, at most 10 s). */
export function backoffUntil(attempts: number, lastTried: number): number {
  let d = POD_INITIAL_BACKOFF_MS;
  for (let i = 1; i < attempts && d < POD_MAX_BACKOFF_MS; i++) d *= 2;
  return lastTried + Math.min(d, POD_MAX_BACKOFF_MS);
}

/** The plugins whose failures another pod's placement or labels can lift. */
const POD_PLUGINS = ['InterPodAffinity', 'PodTopologySpread'];

export class Scheduler implements Disposable {
  private readonly sub: Disposable;
  private readonly cache: SchedulerCache;
  /** Pods to schedule, by uid (upstream activeQ). */
  private readonly active = new Map<string, Queued>();
  /** Pods no node fitted, by uid, until a cluster event may let them in (unschedulablePods). */
  private readonly unschedulable = new Map<string, Queued>();
  /** Pods a cluster event moved while their back-off runs, by uid (backoffQ): active once it ends. */
  private readonly backoff = new Map<string, Queued>();
  private readonly backoffTimer: EarliestTimer;
  /** When the longest-waiting unschedulable pod is due to be tried again (flushUnschedulablePodsLeftover). */
  private readonly leftoverTimer: EarliestTimer;
  private seq = 0;
  private queued = false;
  private disposed = false;
  /** Where the next cycle starts visiting nodes (upstream nextStartNodeIndex). */
  private nextStartNodeIndex = 0;

  constructor(
    private readonly store: Store,
    private readonly recorder: EventRecorder,
    private readonly clock: Clock,
  ) {
    this.backoffTimer = new EarliestTimer(clock, () => this.flushBackoff());
    this.leftoverTimer = new EarliestTimer(clock, () => this.flushLeftover());
    this.cache = SchedulerCache.of(store.list('Node'), store.list('Pod'), store.list('Namespace'));
    for (const p of store.list('Pod')) if (waitsForNode(p)) this.enqueue(p);
    this.sub = store.watch((e) => {
      const change = this.cache.apply(e);
      if (e.kind === 'Pod') {
        const uid = e.object.metadata?.uid ?? '';
        if (e.type === 'DELETED' || !waitsForNode(e.object)) {
          this.active.delete(uid);
          this.unschedulable.delete(uid);
          this.backoff.delete(uid);
        } else if (e.type === 'ADDED') this.enqueue(e.object);
        else {
          // A waiting pod updated by a client (not only its status) may fit now (upstream's Update of an unschedulable pod).
          const q = this.unschedulable.get(uid);
          if (q && q.podKey !== podKey(e.object)) {
            this.requeue(uid, q);
            this.schedule();
          }
        }
        // A pod created already bound changes what the others would be told.
        if (change.freed || (e.type === 'ADDED' && e.object.spec?.nodeName)) this.moveAllToActive();
      }
      if (change.nodesChanged) this.moveAllToActive();
      this.moveAfterPodChange(change);
    });
    this.schedule();
  }

  /**
   * A pod placed (bound) may let in a pod that failed on InterPodAffinity (it matches one of the
   * waiting pod's affinity terms) or PodTopologySpread (it matches a constraint in the waiting
   * pod's namespace); a placed pod relabelled or terminating, or a namespace changed, may let in
   * any pod that failed on those plugins. Pods that failed only on other filters stay: a pod more
   * never frees resources, ports or node matches.
   */
  private moveAfterPodChange(change: CacheChange): void {
    if (this.unschedulable.size === 0 || !(change.placed || change.relabelled || change.namespacesChanged)) return;
    let moved = false;
    for (const [uid, q] of this.unschedulable) {
      const f = q.failed;
      if (!f || !POD_PLUGINS.some((p) => f.plugins.has(p))) continue;
      const may = change.relabelled || change.namespacesChanged || (change.placed && placedPodMayHelp(f.facts, f.plugins, change.placed, this.cache.namespaceLabels));
      if (!may) continue;
      this.requeue(uid, q);
      moved = true;
    }
    if (moved) this.schedule();
  }

  /**
   * An unschedulable pod a cluster event may let in leaves the unschedulable pods: to the active
   * queue, or to the back-off queue while its back-off runs (upstream isPodBackingoff).
   */
  private requeue(uid: string, q: Queued): void {
    this.unschedulable.delete(uid);
    const until = q.attempts && q.lastTried !== undefined ? backoffUntil(q.attempts, q.lastTried) : 0;
    if (until <= this.clock.now()) {
      this.active.set(uid, q);
      return;
    }
    this.backoff.set(uid, q);
    if (!this.disposed) this.backoffTimer.arm(until);
  }

  /** Pods whose back-off ended go to the active queue (flushBackoffQCompleted); the timer is set for the next. */
  private flushBackoff(): void {
    const now = this.clock.now();
    let next = Infinity;
    for (const [uid, q] of this.backoff) {
      const until = backoffUntil(q.attempts ?? 0, q.lastTried ?? 0);
      if (until <= now) {
        this.backoff.delete(uid);
        this.active.set(uid, q);
      } else next = Math.min(next, until);
    }
    if (next < Infinity) this.backoffTimer.arm(next);
    if (this.active.size) this.schedule();
  }

  private enqueue(p: Pod): void {
    const uid = p.metadata?.uid ?? '';
    if (this.active.has(uid) || this.unschedulable.has(uid) || this.backoff.has(uid)) return;
    this.active.set(uid, { namespace: p.metadata?.namespace, name: p.metadata?.name ?? '', uid, created: p.metadata?.creationTimestamp ?? '', seq: this.seq++ });
    this.schedule();
  }

  private moveAllToActive(): void {
    if (this.unschedulable.size === 0) return;
    for (const [uid, q] of this.unschedulable) this.requeue(uid, q);
    this.schedule();
  }

  /** Runs the queue on a microtask: a burst of events is scheduled in one pass, oldest pod first. */
  private schedule(): void {
    if (this.queued || this.disposed) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.drain();
    });
  }

  private drain(): void {
    if (this.disposed) return;
    const batch = [...this.active.values()].sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.seq - b.seq));
    this.active.clear();
    for (const q of batch) {
      const pod = this.store.get('Pod', q.namespace, q.name);
      if (!pod || pod.metadata?.uid !== q.uid || !waitsForNode(pod)) continue;
      const failed = this.scheduleOne(pod);
      if (failed) this.unschedulable.set(q.uid, { ...q, failed, attempts: (q.attempts ?? 0) + 1, lastTried: this.clock.now(), podKey: podKey(pod) });
    }
    this.armLeftover();
  }

  /** Pods unschedulable for 5 minutes go back to the queue even without a cluster event. */
  private armLeftover(): void {
    if (this.disposed) return;
    let due = Infinity;
    for (const q of this.unschedulable.values()) due = Math.min(due, (q.lastTried ?? 0) + POD_MAX_IN_UNSCHEDULABLE_MS);
    if (due < Infinity) this.leftoverTimer.arm(due);
  }

  private flushLeftover(): void {
    const now = this.clock.now();
    for (const [uid, q] of this.unschedulable) if ((q.lastTried ?? 0) + POD_MAX_IN_UNSCHEDULABLE_MS <= now) this.requeue(uid, q);
    this.armLeftover();
    this.schedule();
  }

  /** One scheduling cycle; returns, when the pod was not bound, its facts and the plugins that failed. */
  private scheduleOne(pod: Pod): Queued['failed'] {
    const nodes = this.cache.nodes();
    const facts = podFacts(pod);
    const { result, processed, failures } = findNodeDetailed(pod, nodes, this.nextStartNodeIndex, facts, this.cache.snapshot());
    if (nodes.length) this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % nodes.length;
    const ns = pod.metadata?.namespace;
    const name = pod.metadata?.name ?? '';
    const now = rfc3339(this.clock.now());
    if ('node' in result) {
      const bound = this.store.update('Pod', ns, name, (p) => {
        p.spec = { ...p.spec!, nodeName: result.node };
        p.status = { ...p.status, phase: p.status?.phase ?? 'Pending', conditions: setScheduled(p.status?.conditions, { type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as undefined, lastTransitionTime: now }) };
      });
      this.recorder.record(podRef(bound), 'Normal', 'Scheduled', `Successfully assigned ${ns}/${name} to ${result.node}`, { component: 'default-scheduler' }, 'Binding');
      return undefined;
    }
    const plugins = new Set<string>();
    for (const fs of failures.values()) for (const f of fs) if (f.plugin) plugins.add(f.plugin);
    const failed = { facts, plugins };
    const prev = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    // Every failed attempt is an event (the recorder counts repeats); the pod is written only when
    // its condition changes (upstream's updatePod after UpdatePodCondition).
    if (prev?.status === 'False' && prev.reason === 'Unschedulable' && prev.message === result.error) {
      this.recorder.record(podRef(pod), 'Warning', 'FailedScheduling', truncateMessage(result.error), { component: 'default-scheduler' }, 'Scheduling');
      return failed;
    }
    const updated = this.store.update('Pod', ns, name, (p) => {
      p.status = {
        ...p.status,
        phase: 'Pending',
        conditions: setScheduled(p.status?.conditions, {
          type: 'PodScheduled',
          status: 'False',
          lastProbeTime: null as unknown as undefined,
          lastTransitionTime: prev?.status === 'False' ? prev.lastTransitionTime : now,
          reason: 'Unschedulable',
          message: result.error,
        }),
      };
    });
    this.recorder.record(podRef(updated), 'Warning', 'FailedScheduling', truncateMessage(result.error), { component: 'default-scheduler' }, 'Scheduling');
    return failed;
  }

  dispose(): void {
    this.disposed = true;
    this.backoffTimer.cancel();
    this.leftoverTimer.cancel();
    this.sub.dispose();
  }
}

function setScheduled(conds: PodCondition[] | undefined, c: PodCondition): PodCondition[] {
  return [...(conds ?? []).filter((x) => x.type !== 'PodScheduled'), c];
}
