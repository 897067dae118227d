// The embedded scheduler: watches the store for unbound pods, runs the pure filters and score,
// and binds (spec.nodeName + PodScheduled=True + `Scheduled`) or records why not
// (PodScheduled=False `Unschedulable` + `FailedScheduling`). Unschedulable pods are retried when
// nodes change or a pod goes away.
import type { Node, Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { Store } from '../store.js';
import type { EventRecorder } from '../events.js';
import { podRef } from '../events.js';
import { rfc3339, type Clock } from '../clock.js';
import type { Disposable } from '../../runtime/cri.js';
import { schedulePod } from './filters.js';

const isTerminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export class Scheduler implements Disposable {
  private readonly sub: Disposable;
  private queued = false;

  constructor(
    private readonly store: Store,
    private readonly recorder: EventRecorder,
    private readonly clock: Clock,
  ) {
    this.sub = store.watch((e) => {
      if (e.kind === 'Node' || (e.kind === 'Pod' && (e.type === 'ADDED' || e.type === 'DELETED'))) this.queue();
    });
    this.queue();
  }

  private queue(): void {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.scheduleAll();
    });
  }

  private scheduleAll(): void {
    const pods = this.store.list('Pod');
    const pending = pods.filter((p) => !p.spec?.nodeName && !p.metadata?.deletionTimestamp && !isTerminal(p));
    pending.sort((a, b) => (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? ''));
    for (const pod of pending) this.scheduleOne(pod);
  }

  private scheduleOne(pod: Pod): void {
    const nodes: Node[] = this.store.list('Node');
    const byNode = new Map<string, Pod[]>();
    for (const p of this.store.list('Pod')) {
      const n = p.spec?.nodeName;
      if (!n || isTerminal(p)) continue;
      byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const result = schedulePod(pod, nodes, byNode);
    const ns = pod.metadata?.namespace;
    const name = pod.metadata?.name ?? '';
    const now = rfc3339(this.clock.now());
    if ('node' in result) {
      const bound = this.store.update('Pod', ns, name, (p) => {
        p.spec = { ...p.spec!, nodeName: result.node };
        p.status = { ...p.status, phase: p.status?.phase ?? 'Pending', conditions: setScheduled(p.status?.conditions, { type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as undefined, lastTransitionTime: now }) };
      });
      this.recorder.record(podRef(bound), 'Normal', 'Scheduled', `Successfully assigned ${ns}/${name} to ${result.node}`, { component: 'default-scheduler' }, 'Binding');
      return;
    }
    const prev = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (prev?.status === 'False' && prev.message === result.error) return; // nothing new to say
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
  }

  dispose(): void {
    this.sub.dispose();
  }
}

function setScheduled(conds: PodCondition[] | undefined, c: PodCondition): PodCondition[] {
  return [...(conds ?? []).filter((x) => x.type !== 'PodScheduled'), c];
}
