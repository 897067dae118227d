// The scheduler's cache: the counterpart of upstream pkg/scheduler/backend/cache (cache.go's
// nodes and podStates, and the snapshot's NodeInfo list). It follows the store's watch events:
// every node with the sums of the non-terminal pods assigned to it (requests, host ports, pod
// count), kept up to date one event at a time, so that scheduling a pod visits NodeInfos and
// never lists pods. A pod assigned to a node the cache has not seen is kept aside and counted once
// its node arrives, as upstream keeps a NodeInfo without a Node.
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { WatchEvent } from '../api.js';
import { accountPod, isTerminalPod, newNodeInfo, podFacts, type NodeInfo, type PodFacts } from './filters.js';

/** What the cache remembers of an assigned pod: where it is counted and what it holds. */
interface PodState {
  node: string;
  facts: PodFacts;
}

export class SchedulerCache {
  /** The nodes in the order they arrived (the order nodes are visited in). */
  private list: NodeInfo[] = [];
  private readonly index = new Map<string, number>();
  /** Assigned, non-terminal pods by uid. */
  private readonly pods = new Map<string, PodState>();
  /** Pods counted for a node name: those of a node not (yet) in the cache wait here. */
  private readonly byNode = new Map<string, Set<string>>();

  /** The cache of a store's current objects (a scheduler's start, or a test's uncached comparison). */
  static of(nodes: readonly Node[], pods: readonly Pod[]): SchedulerCache {
    const c = new SchedulerCache();
    for (const n of nodes) c.setNode(n);
    for (const p of pods) c.setPod(p);
    return c;
  }

  /** Applies one store event; returns what it changed for waiting pods (see `freed`). */
  apply(e: WatchEvent): { freed: boolean; nodesChanged: boolean } {
    if (e.kind === 'Node') {
      if (e.type === 'DELETED') this.removeNode(e.object.metadata?.name ?? '');
      else this.setNode(e.object);
      return { freed: false, nodesChanged: true };
    }
    if (e.kind !== 'Pod') return { freed: false, nodesChanged: false };
    if (e.type === 'DELETED') return { freed: this.removePod(e.object.metadata?.uid ?? ''), nodesChanged: false };
    return { freed: this.setPod(e.object), nodesChanged: false };
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
    for (const uid of this.byNode.get(name) ?? []) accountPod(info, this.pods.get(uid)!.facts, 1);
    this.index.set(name, this.list.length);
    this.list.push(info);
  }

  private removeNode(name: string): void {
    const i = this.index.get(name);
    if (i === undefined) return;
    this.list.splice(i, 1);
    this.index.delete(name);
    for (let j = i; j < this.list.length; j++) this.index.set(this.list[j]!.name, j);
    // Its pods stay remembered: they are counted again if the node comes back.
  }

  /** Adds, moves or drops an assigned pod; returns whether a node's pods went down (room freed). */
  private setPod(pod: Pod): boolean {
    const uid = pod.metadata?.uid ?? '';
    const node = pod.spec?.nodeName;
    const cur = this.pods.get(uid);
    if (!node || isTerminalPod(pod)) return cur ? this.removePod(uid) : false;
    if (cur) {
      if (cur.node === node) return false; // requests and ports of a bound pod do not change
      this.removePod(uid);
    }
    const state: PodState = { node, facts: podFacts(pod) };
    this.pods.set(uid, state);
    let set = this.byNode.get(node);
    if (!set) this.byNode.set(node, (set = new Set()));
    set.add(uid);
    const info = this.node(node);
    if (info) accountPod(info, state.facts, 1);
    return false;
  }

  private removePod(uid: string): boolean {
    const cur = this.pods.get(uid);
    if (!cur) return false;
    this.pods.delete(uid);
    const set = this.byNode.get(cur.node);
    set?.delete(uid);
    if (set && set.size === 0) this.byNode.delete(cur.node);
    const info = this.node(cur.node);
    if (info) accountPod(info, cur.facts, -1);
    return true;
  }
}
