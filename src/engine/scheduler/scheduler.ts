// The embedded scheduler (upstream pkg/scheduler: scheduler.go, schedule_one.go, and the
// scheduling queue of backend/queue): it follows the store's watch into its cache (cache.ts) and
// two queues — new pods wait in the active queue in creation order; a pod no node fits waits as
// unschedulable until a node is added or changed or an assigned pod goes away (upstream's
// MoveAllToActiveOrBackoffQueue on those cluster events) — and schedules one pod at a time with the
// pure filters and score over the cache's NodeInfos: it binds (spec.nodeName + PodScheduled=True +
// `Scheduled`) or records why not (PodScheduled=False `Unschedulable` + `FailedScheduling`).
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { Store } from '../store.js';
import type { EventRecorder } from '../events.js';
import { podRef } from '../events.js';
import { rfc3339, type Clock } from '../clock.js';
import type { Disposable } from '../../runtime/cri.js';
import { findNode, isTerminalPod } from './filters.js';
import { SchedulerCache } from './cache.js';

const waitsForNode = (p: Pod) => !p.spec?.nodeName && !p.metadata?.deletionTimestamp && !isTerminalPod(p);

interface Queued {
  namespace?: string;
  name: string;
  uid: string;
  created: string;
  seq: number;
}

export class Scheduler implements Disposable {
  private readonly sub: Disposable;
  private readonly cache: SchedulerCache;
  /** Pods to schedule, by uid (upstream activeQ). */
  private readonly active = new Map<string, Queued>();
  /** Pods no node fitted, by uid, until a cluster event may let them in (unschedulablePods). */
  private readonly unschedulable = new Map<string, Queued>();
  private seq = 0;
  private queued = false;
  /** Where the next cycle starts visiting nodes (upstream nextStartNodeIndex). */
  private nextStartNodeIndex = 0;

  constructor(
    private readonly store: Store,
    private readonly recorder: EventRecorder,
    private readonly clock: Clock,
  ) {
    this.cache = SchedulerCache.of(store.list('Node'), store.list('Pod'));
    for (const p of store.list('Pod')) if (waitsForNode(p)) this.enqueue(p);
    this.sub = store.watch((e) => {
      const { freed, nodesChanged } = this.cache.apply(e);
      if (e.kind === 'Pod') {
        const uid = e.object.metadata?.uid ?? '';
        if (e.type === 'DELETED' || !waitsForNode(e.object)) {
          this.active.delete(uid);
          this.unschedulable.delete(uid);
        } else if (e.type === 'ADDED') this.enqueue(e.object);
        // A pod created already bound changes what the others would be told.
        if (freed || (e.type === 'ADDED' && e.object.spec?.nodeName)) this.moveAllToActive();
      }
      if (nodesChanged) this.moveAllToActive();
    });
    this.schedule();
  }

  private enqueue(p: Pod): void {
    const uid = p.metadata?.uid ?? '';
    if (this.active.has(uid) || this.unschedulable.has(uid)) return;
    this.active.set(uid, { namespace: p.metadata?.namespace, name: p.metadata?.name ?? '', uid, created: p.metadata?.creationTimestamp ?? '', seq: this.seq++ });
    this.schedule();
  }

  private moveAllToActive(): void {
    if (this.unschedulable.size === 0) return;
    for (const [uid, q] of this.unschedulable) this.active.set(uid, q);
    this.unschedulable.clear();
    this.schedule();
  }

  /** Runs the queue on a microtask: a burst of events is scheduled in one pass, oldest pod first. */
  private schedule(): void {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.drain();
    });
  }

  private drain(): void {
    const batch = [...this.active.values()].sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.seq - b.seq));
    this.active.clear();
    for (const q of batch) {
      const pod = this.store.get('Pod', q.namespace, q.name);
      if (!pod || pod.metadata?.uid !== q.uid || !waitsForNode(pod)) continue;
      if (!this.scheduleOne(pod)) this.unschedulable.set(q.uid, q);
    }
  }

  /** One scheduling cycle; returns whether the pod was bound. */
  private scheduleOne(pod: Pod): boolean {
    const nodes = this.cache.nodes();
    const { result, processed } = findNode(pod, nodes, this.nextStartNodeIndex);
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
      return true;
    }
    const prev = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (prev?.status === 'False' && prev.message === result.error) return false; // nothing new to say
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
    this.recorder.record(podRef(updated), 'Warning', 'FailedScheduling', result.error, { component: 'default-scheduler' }, 'Scheduling');
    return false;
  }

  dispose(): void {
    this.sub.dispose();
  }
}

function setScheduled(conds: PodCondition[] | undefined, c: PodCondition): PodCondition[] {
  return [...(conds ?? []).filter((x) => x.type !== 'PodScheduled'), c];
}
