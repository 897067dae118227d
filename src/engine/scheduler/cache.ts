// The scheduler's cache: the counterpart of upstream pkg/scheduler/backend/cache (cache.go's
// nodes and podStates, and the snapshot's NodeInfo list). It follows the store's watch events:
// every node with the sums of the non-terminal pods assigned to it (requests, host ports, pod
// count) and those pods' facts by namespace (labels, deletion, inter-pod terms), kept up to date
// one event at a time, so that scheduling a pod visits NodeInfos and never lists pods; and the
// namespaces' labels (for namespaceSelector). A pod assigned to a node the cache has not seen is
// kept aside and counted once its node arrives, as upstream keeps a NodeInfo without a Node.
import { isDeepStrictEqual } from 'node:util';
import type { Namespace, Node, Pod } from 'kubernetes-types/core/v1';
import type { WatchEvent } from '../api.js';
import { accountPod, isTerminalPod, newNodeInfo, podFacts, type NodeInfo, type PodFacts, type Snapshot } from './filters.js';
import { automaticNamespaceLabels, type InterPodFacts, type NamespaceLabels } from './interpod.js';
import type { Labels } from './match.js';

/** What the cache remembers of an assigned pod: where it is counted and what it holds. */
interface PodState {
  node: string;
  facts: PodFacts;
}

/** What one store event changed, for the pods waiting in the queue. */
export interface CacheChange {
  /** A node's pods went down (a pod deleted, finished or moved away): room freed. */
  freed: boolean;
  /** A node was added, changed or deleted. */
  nodesChanged: boolean;
  /** A pod is newly counted on a node (created bound, or bound): its facts. */
  placed?: InterPodFacts;
  /** A counted pod's labels changed, or it started terminating. */
  relabelled?: boolean;
  /** A namespace was added, changed or deleted (namespaceSelector may select differently). */
  namespacesChanged?: boolean;
}

const sameLabels = (a: Labels, b: Labels) => {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (b[k] !== a[k]) return false;
  return true;
};

export class SchedulerCache {
  /** The nodes in the order they arrived (the order nodes are visited in). */
  private list: NodeInfo[] = [];
  private readonly index = new Map<string, number>();
  /** Assigned, non-terminal pods by uid. */
  private readonly pods = new Map<string, PodState>();
  /** Pods counted for a node name: those of a node not (yet) in the cache wait here. */
  private readonly byNode = new Map<string, Set<string>>();
  /** The labels of the namespaces the store holds. */
  private readonly nsLabels = new Map<string, Labels>();
  /** The nodes (in the cache) holding pods with required anti-affinity. */
  private readonly antiNodes = new Set<string>();
  /** The nodes (in the cache) holding pods with any pod affinity or anti-affinity term. */
  private readonly affinityNodes = new Set<string>();

  /** The cache of a store's current objects (a scheduler's start, or a test's uncached comparison). */
  static of(nodes: readonly Node[], pods: readonly Pod[], namespaces: readonly Namespace[] = []): SchedulerCache {
    const c = new SchedulerCache();
    for (const ns of namespaces) c.nsLabels.set(ns.metadata?.name ?? '', ns.metadata?.labels ?? {});
    for (const n of nodes) c.setNode(n);
    for (const p of pods) c.setPod(p);
    return c;
  }

  /** Applies one store event; returns what it changed for waiting pods. */
  apply(e: WatchEvent): CacheChange {
    if (e.kind === 'Node') {
      const before = this.node(e.object.metadata?.name ?? '')?.node;
      if (e.type === 'DELETED') this.removeNode(e.object.metadata?.name ?? '');
      else this.setNode(e.object);
      return { freed: false, nodesChanged: e.type !== 'MODIFIED' || !before || schedulingPropertiesChanged(before, e.object) };
    }
    if (e.kind === 'Namespace') {
      const name = e.object.metadata?.name ?? '';
      if (e.type === 'DELETED') this.nsLabels.delete(name);
      else this.nsLabels.set(name, e.object.metadata?.labels ?? {});
      return { freed: false, nodesChanged: false, namespacesChanged: true };
    }
    if (e.kind !== 'Pod') return { freed: false, nodesChanged: false };
    if (e.type === 'DELETED') return { freed: this.removePod(e.object.metadata?.uid ?? ''), nodesChanged: false };
    return { nodesChanged: false, ...this.setPod(e.object) };
  }

  /**
   * The labels of a namespace, for namespaceSelector; a namespace the store holds no object for
   * has only the label the API server gives every namespace (kubernetes.io/metadata.name).
   */
  readonly namespaceLabels: NamespaceLabels = (namespace) => this.nsLabels.get(namespace) ?? automaticNamespaceLabels(namespace);

  /** What a scheduling cycle reads besides the NodeInfos: namespace labels, and the nodes with pods with (required anti-)affinity terms. */
  snapshot(): Snapshot {
    if (this.affinityNodes.size === 0) return (this.plainSnapshot ??= { namespaces: this.namespaceLabels, withRequiredAntiAffinity: [], withAffinity: [] });
    const infosOf = (names: Set<string>) => [...names].map((name) => this.node(name)!);
    return { namespaces: this.namespaceLabels, withRequiredAntiAffinity: infosOf(this.antiNodes), withAffinity: infosOf(this.affinityNodes) };
  }
  /** The snapshot while no placed pod has pod affinity terms (most cycles): one object, not one per cycle. */
  private plainSnapshot: Snapshot | undefined;

  /** Counts a pod on a node in the cache (`sign` -1 takes it off), keeping the nodes with anti-affinity pods. */
  private account(info: NodeInfo, facts: PodFacts, sign: 1 | -1): void {
    accountPod(info, facts, sign);
    if (info.podsWithRequiredAntiAffinity.size) this.antiNodes.add(info.name);
    else this.antiNodes.delete(info.name);
    if (info.podsWithAffinity.size) this.affinityNodes.add(info.name);
    else this.affinityNodes.delete(info.name);
  }

  /** The NodeInfos, in arrival order. The array is the cache's own: read it, never change it. */
  nodes(): readonly NodeInfo[] {
    return this.list;
  }

  node(name: string): NodeInfo | undefined {
    const i = this.index.get(name);
    return i === undefined ? undefined : this.list[i];
  }

  /** How many pods the cache counts (assigned and not terminal). */
  podCount(): number {
    return this.pods.size;
  }

  private setNode(node: Node): void {
    const name = node.metadata?.name ?? '';
    const i = this.index.get(name);
    if (i !== undefined) {
      // The node changed (labels, taints, allocatable): the sums of its pods stay.
      this.list[i] = newNodeInfo(node, this.list[i]);
      return;
    }
    const info = newNodeInfo(node);
    for (const uid of this.byNode.get(name) ?? []) this.account(info, this.pods.get(uid)!.facts, 1);
    this.index.set(name, this.list.length);
    this.list.push(info);
  }

  private removeNode(name: string): void {
    const i = this.index.get(name);
    if (i === undefined) return;
    this.list.splice(i, 1);
    this.index.delete(name);
    this.antiNodes.delete(name);
    this.affinityNodes.delete(name);
    for (let j = i; j < this.list.length; j++) this.index.set(this.list[j]!.name, j);
    // Its pods stay remembered: they are counted again if the node comes back.
  }

  /** Adds, moves, updates or drops an assigned pod; says whether a node's pods went down (room freed) or what was placed. */
  private setPod(pod: Pod): { freed: boolean; placed?: InterPodFacts; relabelled?: boolean } {
    const uid = pod.metadata?.uid ?? '';
    const node = pod.spec?.nodeName;
    const cur = this.pods.get(uid);
    if (!node || isTerminalPod(pod)) return { freed: cur ? this.removePod(uid) : false };
    let freed = false;
    if (cur) {
      if (cur.node === node) {
        // Requests, ports and terms of a bound pod do not change; its labels and deletion may.
        if (sameLabels(cur.facts.labels, pod.metadata?.labels ?? {}) && cur.facts.terminating === !!pod.metadata?.deletionTimestamp) return { freed: false };
        const facts = podFacts(pod);
        const info = this.node(node);
        if (info) {
          this.account(info, cur.facts, -1);
          this.account(info, facts, 1);
        }
        cur.facts = facts;
        return { freed: false, relabelled: true };
      }
      freed = this.removePod(uid);
    }
    const state: PodState = { node, facts: podFacts(pod) };
    this.pods.set(uid, state);
    let set = this.byNode.get(node);
    if (!set) this.byNode.set(node, (set = new Set()));
    set.add(uid);
    const info = this.node(node);
    if (info) this.account(info, state.facts, 1);
    return { freed, placed: state.facts };
  }

  private removePod(uid: string): boolean {
    const cur = this.pods.get(uid);
    if (!cur) return false;
    this.pods.delete(uid);
    const set = this.byNode.get(cur.node);
    set?.delete(uid);
    if (set && set.size === 0) this.byNode.delete(cur.node);
    const info = this.node(cur.node);
    if (info) this.account(info, cur.facts, -1);
    return true;
  }
}

/**
 * Whether a node update changes what scheduling reads (kube-scheduler's
 * nodeSchedulingPropertiesChange): unschedulable, allocatable, labels, taints, the conditions'
 * statuses by type, annotations. A heartbeat alone does not.
 */
function schedulingPropertiesChanged(a: Node, b: Node): boolean {
  const conditions = (n: Node) => Object.fromEntries((n.status?.conditions ?? []).map((c) => [c.type, c.status]));
  const same = (x: unknown, y: unknown) => isDeepStrictEqual(x ?? null, y ?? null);
  return (
    !same(a.spec?.unschedulable ?? false, b.spec?.unschedulable ?? false) ||
    !same(a.status?.allocatable, b.status?.allocatable) ||
    !same(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
    !same(a.spec?.taints ?? [], b.spec?.taints ?? []) ||
    !same(conditions(a), conditions(b)) ||
    !same(a.metadata?.annotations ?? {}, b.metadata?.annotations ?? {})
  );
}
