// The scheduler's decisions as pure functions: filter plugins (NodeName, NodeUnschedulable,
// NodeAffinity/selector, TaintToleration, NodePorts, NodeResourcesFit, and PodTopologySpread and
// InterPodAffinity from interpod.ts), the score plugins NodeResourcesFit (least allocated),
// NodeResourcesBalancedAllocation, NodeAffinity (preferred terms), TaintToleration (PreferNoSchedule
// taints), InterPodAffinity and PodTopologySpread (interpod.ts) with upstream's normalisation and
// weights, and the FitError message in the upstream `0/N nodes are available: ...` form.
import type { Container, Node, NodeSelectorTerm, Pod, PreferredSchedulingTerm, Taint, Toleration } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../validation/quantity.js';
import { matchNodeTerm, tolerates } from './match.js';
import {
  NO_TOPOLOGY,
  automaticNamespaceLabels,
  filterInterPodAffinity,
  filterPodTopologySpread,
  hasPodAffinity,
  interPodAffinityPreScore,
  interPodAffinityScore,
  interPodFacts,
  normalizeInterPodScores,
  podTopologySpreadScores,
  preFilterTopology,
  type InterPodFacts,
  type NamespaceLabels,
  type TopologyState,
} from './interpod.js';

/** How a filter failure reacts to preemption: resolvable failures could in theory be fixed by evicting pods. */
export type FailureKind = 'Unschedulable' | 'UnschedulableAndUnresolvable';
/** The upstream filter plugin that failed (the queue's hints read it). */
export type PluginName = 'NodeName' | 'NodeUnschedulable' | 'NodeAffinity' | 'TaintToleration' | 'NodePorts' | 'NodeResourcesFit' | 'PodTopologySpread' | 'InterPodAffinity';
export interface FilterFailure {
  reason: string;
  kind: FailureKind;
  plugin?: PluginName;
}

export interface Resources {
  milliCpu: number;
  memory: number;
  pods: number;
  /**
   * ephemeral-storage and the scalar resources (extended resources such as nvidia.com/gpu,
   * hugepages-*), in whole units (bytes for storage and hugepages); absent when there are none.
   */
  scalar?: Record<string, number>;
}

/** The resources NodeResourcesFit checks beyond cpu and memory: any but these. */
const NOT_SCALAR = new Set(['cpu', 'memory', 'pods']);

function quantityNano(v: string | number | undefined): bigint {
  if (v === undefined) return 0n;
  const q = parseQuantity(String(v));
  return typeof q === 'string' ? 0n : q.nano;
}
const milli = (v: string | number | undefined) => Number(quantityNano(v) / 1_000_000n);
const units = (v: string | number | undefined) => Number(quantityNano(v) / 1_000_000_000n);

/** What scoring counts for a container that requests no CPU or no memory (schedutil.DefaultMilliCPURequest, DefaultMemoryRequest). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** `nonZero`: a request the container does not make counts as the default (NonMissingContainerRequests). */
function containerRequests(c: Container, nonZero: boolean): { milliCpu: number; memory: number; scalar: Record<string, number> } {
  const req = c.resources?.requests ?? {};
  const lim = c.resources?.limits ?? {};
  // Defaulting copies limits into missing requests.
  const cpu = req.cpu ?? lim.cpu;
  const memory = req.memory ?? lim.memory;
  const scalar: Record<string, number> = {};
  for (const name of new Set([...Object.keys(lim), ...Object.keys(req)])) {
    if (!NOT_SCALAR.has(name)) scalar[name] = units(req[name] ?? lim[name]);
  }
  return {
    milliCpu: cpu === undefined && nonZero ? DEFAULT_MILLI_CPU_REQUEST : milli(cpu),
    memory: memory === undefined && nonZero ? DEFAULT_MEMORY_REQUEST : units(memory),
    scalar,
  };
}

/** `a` with `b`'s scalar amounts combined in (`f`: sum or max). */
function combineScalar(a: Record<string, number>, b: Record<string, number>, f: (x: number, y: number) => number): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = f(out[k] ?? 0, v);
  return out;
}
const plus = (x: number, y: number) => x + y;

/**
 * Effective pod requests: max(sum of app containers + sidecars, each init container on top of the
 * sidecars before it). `nonZero`: as the least-allocated score counts them, with the defaults for
 * requests a container does not make.
 */
export function podRequests(pod: Pod, nonZero = false): Resources {
  const sum = { milliCpu: 0, memory: 0, scalar: {} as Record<string, number> };
  for (const c of pod.spec?.containers ?? []) {
    const r = containerRequests(c, nonZero);
    sum.milliCpu += r.milliCpu;
    sum.memory += r.memory;
    sum.scalar = combineScalar(sum.scalar, r.scalar, plus);
  }
  const sidecars = { milliCpu: 0, memory: 0, scalar: {} as Record<string, number> };
  const initMax = { milliCpu: 0, memory: 0, scalar: {} as Record<string, number> };
  for (const c of pod.spec?.initContainers ?? []) {
    const r = containerRequests(c, nonZero);
    if (c.restartPolicy === 'Always') {
      sidecars.milliCpu += r.milliCpu;
      sidecars.memory += r.memory;
      sidecars.scalar = combineScalar(sidecars.scalar, r.scalar, plus);
      initMax.milliCpu = Math.max(initMax.milliCpu, sidecars.milliCpu);
      initMax.memory = Math.max(initMax.memory, sidecars.memory);
      initMax.scalar = combineScalar(initMax.scalar, sidecars.scalar, Math.max);
    } else {
      initMax.milliCpu = Math.max(initMax.milliCpu, sidecars.milliCpu + r.milliCpu);
      initMax.memory = Math.max(initMax.memory, sidecars.memory + r.memory);
      initMax.scalar = combineScalar(initMax.scalar, combineScalar(sidecars.scalar, r.scalar, plus), Math.max);
    }
  }
  const scalar = combineScalar(combineScalar(sum.scalar, sidecars.scalar, plus), initMax.scalar, Math.max);
  return {
    milliCpu: Math.max(sum.milliCpu + sidecars.milliCpu, initMax.milliCpu),
    memory: Math.max(sum.memory + sidecars.memory, initMax.memory),
    pods: 1,
    ...(Object.keys(scalar).length ? { scalar } : {}),
  };
}

export function nodeAllocatable(node: Node): Resources {
  const a = node.status?.allocatable ?? node.status?.capacity ?? {};
  const scalar: Record<string, number> = {};
  for (const [k, v] of Object.entries(a)) if (!NOT_SCALAR.has(k)) scalar[k] = units(v);
  return { milliCpu: milli(a.cpu), memory: units(a.memory), pods: units(a.pods ?? '110'), ...(Object.keys(scalar).length ? { scalar } : {}) };
}

/** A host port a pod asks for (NodePorts' key: protocol, host IP, port). */
export interface HostPort {
  protocol: string;
  ip: string;
  port: number;
}

function hostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (p.hostPort) out.push({ protocol: p.protocol ?? 'TCP', ip: p.hostIP || '0.0.0.0', port: p.hostPort });
    }
  }
  return out;
}

/** What the filters and the score need of a pod, worked out once (upstream's PodInfo and PreFilter state). */
export interface PodFacts extends InterPodFacts {
  requests: Resources;
  /** The requests with the defaults for those not made (what the least-allocated score counts). */
  nonZeroRequests: Resources;
  hostPorts: HostPort[];
  nodeName?: string;
  nodeSelector: [string, string][];
  terms?: readonly NodeSelectorTerm[];
  tolerations: readonly Toleration[];
  toleratesUnschedulable: boolean;
  /** preferredDuringSchedulingIgnoredDuringExecution of the node affinity (weight > 0, non-empty preference). */
  preferred: readonly PreferredSchedulingTerm[];
  /** The tolerations that apply to PreferNoSchedule taints (that effect, or none). */
  preferNoScheduleTolerations: readonly Toleration[];
}

export function podFacts(pod: Pod): PodFacts {
  const spec = pod.spec;
  const tolerations = spec?.tolerations ?? [];
  return {
    requests: podRequests(pod),
    nonZeroRequests: podRequests(pod, true),
    hostPorts: hostPorts(pod),
    ...(spec?.nodeName ? { nodeName: spec.nodeName } : {}),
    nodeSelector: Object.entries(spec?.nodeSelector ?? {}),
    ...(spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ? { terms: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? [] } : {}),
    tolerations,
    toleratesUnschedulable: tolerations.some((t) => t.key === 'node.kubernetes.io/unschedulable' && (t.operator === 'Exists' || !t.effect || t.effect === 'NoSchedule')),
    preferred: (spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).filter(
      (t) => t.weight > 0 && ((t.preference?.matchExpressions?.length ?? 0) > 0 || (t.preference?.matchFields?.length ?? 0) > 0),
    ),
    preferNoScheduleTolerations: tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule'),
    ...interPodFacts(pod),
  };
}

/**
 * A node and the sums of the non-terminal pods assigned to it: the counterpart of upstream's
 * framework.NodeInfo (Requested, UsedPorts, the pod count, Pods and PodsWithRequiredAntiAffinity),
 * so that the per-node filters cost O(1) whatever the number of pods; the pods themselves (their
 * facts, by namespace) are read only by the PreFilter of a pod with inter-pod terms or spread
 * constraints.
 */
export interface NodeInfo {
  readonly node: Node;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The taints that keep pods off (NoSchedule, NoExecute). */
  readonly hardTaints: readonly Taint[];
  /** The taints that only score (PreferNoSchedule). */
  readonly softTaints: readonly Taint[];
  readonly allocatable: Resources;
  /** Summed requests of the pods on the node; `pods` is their number. */
  readonly requested: Resources;
  /** The same with the defaults for requests not made (NodeInfo.NonZeroRequested). */
  readonly nonZeroRequested: Resources;
  /** Host ports in use: `protocol/port` → host IP → how many pods hold it. */
  readonly usedPorts: Map<string, Map<string, number>>;
  /** The pods counted here, by namespace (their labels, namespaces and terms). */
  readonly pods: Map<string, Set<PodFacts>>;
  /** Those of them with required pod anti-affinity terms. */
  readonly podsWithRequiredAntiAffinity: Set<PodFacts>;
  /** Those of them with any pod affinity or anti-affinity term, required or preferred. */
  readonly podsWithAffinity: Set<PodFacts>;
}

export function newNodeInfo(node: Node, from?: NodeInfo): NodeInfo {
  return {
    node,
    name: node.metadata?.name ?? '',
    labels: node.metadata?.labels ?? {},
    hardTaints: (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
    softTaints: (node.spec?.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule'),
    allocatable: nodeAllocatable(node),
    requested: from ? { ...from.requested } : { milliCpu: 0, memory: 0, pods: 0 },
    nonZeroRequested: from ? { ...from.nonZeroRequested } : { milliCpu: 0, memory: 0, pods: 0 },
    usedPorts: from ? new Map([...from.usedPorts].map(([k, ips]) => [k, new Map(ips)])) : new Map(),
    pods: from ? new Map([...from.pods].map(([ns, set]) => [ns, new Set(set)])) : new Map(),
    podsWithRequiredAntiAffinity: from ? new Set(from.podsWithRequiredAntiAffinity) : new Set(),
    podsWithAffinity: from ? new Set(from.podsWithAffinity) : new Set(),
  };
}

/** Counts a pod on the node (`sign` -1 takes it off again). */
export function accountPod(info: NodeInfo, facts: PodFacts, sign: 1 | -1): void {
  const r = info.requested as Resources;
  r.milliCpu += sign * facts.requests.milliCpu;
  r.memory += sign * facts.requests.memory;
  r.pods += sign;
  if (facts.requests.scalar) {
    const s = (r.scalar = { ...r.scalar });
    for (const [k, v] of Object.entries(facts.requests.scalar)) {
      s[k] = (s[k] ?? 0) + sign * v;
      if (s[k] === 0) delete s[k];
    }
    if (!Object.keys(s).length) delete r.scalar;
  }
  const nz = info.nonZeroRequested as Resources;
  nz.milliCpu += sign * facts.nonZeroRequests.milliCpu;
  nz.memory += sign * facts.nonZeroRequests.memory;
  nz.pods += sign;
  for (const hp of facts.hostPorts) {
    const k = `${hp.protocol}/${hp.port}`;
    const ips = info.usedPorts.get(k) ?? new Map<string, number>();
    const n = (ips.get(hp.ip) ?? 0) + sign;
    if (n > 0) ips.set(hp.ip, n);
    else ips.delete(hp.ip);
    if (ips.size) info.usedPorts.set(k, ips);
    else info.usedPorts.delete(k);
  }
  let set = info.pods.get(facts.namespace);
  if (sign > 0) {
    if (!set) info.pods.set(facts.namespace, (set = new Set()));
    set.add(facts);
    if (facts.antiAffinityTerms.length) info.podsWithRequiredAntiAffinity.add(facts);
    if (hasPodAffinity(facts)) info.podsWithAffinity.add(facts);
  } else {
    set?.delete(facts);
    if (set && set.size === 0) info.pods.delete(facts.namespace);
    info.podsWithRequiredAntiAffinity.delete(facts);
    info.podsWithAffinity.delete(facts);
  }
}

/** The NodeInfo of a node built from scratch from its pods (the uncached path). */
export function nodeInfoOf(node: Node, podsOnNode: readonly Pod[]): NodeInfo {
  const info = newNodeInfo(node);
  for (const p of podsOnNode) accountPod(info, podFacts(p), 1);
  return info;
}

/** Whether a wanted host port collides with one in use: same protocol and port, and the same IP or either one 0.0.0.0. */
function portInUse(info: NodeInfo, hp: HostPort): boolean {
  const ips = info.usedPorts.get(`${hp.protocol}/${hp.port}`);
  if (!ips) return false;
  return hp.ip === '0.0.0.0' || ips.has(hp.ip) || ips.has('0.0.0.0');
}

/** The cluster around one node, for the filters that look at the other pods (the uncached path). */
export interface Cluster {
  nodes: readonly Node[];
  /** The non-terminal pods bound to each node. */
  podsByNode: ReadonlyMap<string, readonly Pod[]>;
  /** The labels of a namespace (default: only its kubernetes.io/metadata.name label). */
  namespaces?: NamespaceLabels;
}

/**
 * Runs every filter of one node; returns the failures (empty = the node fits). Without `cluster`
 * the node is the whole cluster (InterPodAffinity and PodTopologySpread see only its pods).
 */
export function filterNode(pod: Pod, node: Node, podsOnNode: readonly Pod[], cluster?: Cluster): FilterFailure[] {
  const facts = podFacts(pod);
  const info = nodeInfoOf(node, podsOnNode);
  const infos = cluster ? cluster.nodes.map((n) => (n.metadata?.name === info.name ? info : nodeInfoOf(n, cluster.podsByNode.get(n.metadata?.name ?? '') ?? []))) : [info];
  return filterNodeInfo(facts, info, preFilter(facts, infos, { namespaces: cluster?.namespaces }));
}

/** What a scheduling cycle may know of the cluster besides its NodeInfos (the cache knows both). */
export interface Snapshot {
  /** The labels of a namespace (default: only its kubernetes.io/metadata.name label). */
  namespaces?: NamespaceLabels;
  /** The NodeInfos holding pods with required anti-affinity (upstream HavePodsWithRequiredAntiAffinityList); default: found among all. */
  withRequiredAntiAffinity?: Iterable<NodeInfo>;
  /** The NodeInfos holding pods with pod affinity terms (upstream HavePodsWithAffinityList); default: found among all. */
  withAffinity?: Iterable<NodeInfo>;
}

/** The PreFilter of the filters that look at the whole cluster (InterPodAffinity, PodTopologySpread), once per scheduling cycle. */
export function preFilter(facts: PodFacts, infos: readonly NodeInfo[], snapshot: Snapshot = {}): TopologyState {
  return preFilterTopology(facts, infos, snapshot.namespaces ?? automaticNamespaceLabels, snapshot.withRequiredAntiAffinity ?? infos);
}

/**
 * The filters over a NodeInfo, in upstream's default order — NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, PodTopologySpread, InterPodAffinity
 * — stopping at the first that fails, as the framework's RunFilterPlugins does (NodeResourcesFit
 * may give several reasons). The last two read `state` (by default, the PreFilter of a cluster
 * made of this node alone).
 */
export function filterNodeInfo(facts: PodFacts, info: NodeInfo, state?: TopologyState): FilterFailure[] {
  const node = info.node;
  if (node.spec?.unschedulable && !facts.toleratesUnschedulable) {
    return [{ reason: 'node(s) were unschedulable', kind: 'UnschedulableAndUnresolvable', plugin: 'NodeUnschedulable' }];
  }
  if (facts.nodeName && facts.nodeName !== info.name) {
    return [{ reason: "node(s) didn't match the requested node name", kind: 'UnschedulableAndUnresolvable', plugin: 'NodeName' }];
  }
  for (const taint of info.hardTaints) {
    let tolerated = false;
    for (const t of facts.tolerations) if (tolerates(t, taint)) tolerated = true;
    if (!tolerated) return [{ reason: `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`, kind: 'UnschedulableAndUnresolvable', plugin: 'TaintToleration' }];
  }
  const labels = info.labels;
  let selectorOk = true;
  for (const [k, v] of facts.nodeSelector) if (labels[k] !== v) selectorOk = false;
  let affinityOk = !facts.terms;
  for (const t of facts.terms ?? []) if (matchNodeTerm(node, t)) affinityOk = true;
  if (!selectorOk || !affinityOk) {
    return [{ reason: "node(s) didn't match Pod's node affinity/selector", kind: 'UnschedulableAndUnresolvable', plugin: 'NodeAffinity' }];
  }
  for (const hp of facts.hostPorts) {
    if (portInUse(info, hp)) return [{ reason: "node(s) didn't have free ports for the requested pod ports", kind: 'Unschedulable', plugin: 'NodePorts' }];
  }
  const failures: FilterFailure[] = [];
  const alloc = info.allocatable;
  const want = facts.requests;
  const have = info.requested;
  if (have.pods + 1 > alloc.pods) failures.push({ reason: 'Too many pods', kind: 'Unschedulable', plugin: 'NodeResourcesFit' });
  if (want.milliCpu > 0 && have.milliCpu + want.milliCpu > alloc.milliCpu) failures.push({ reason: 'Insufficient cpu', kind: 'Unschedulable', plugin: 'NodeResourcesFit' });
  if (want.memory > 0 && have.memory + want.memory > alloc.memory) failures.push({ reason: 'Insufficient memory', kind: 'Unschedulable', plugin: 'NodeResourcesFit' });
  // ephemeral-storage, then the scalar resources; one the node does not list is 0 of it
  for (const [name, n] of Object.entries(want.scalar ?? {})) {
    if (n > 0 && (have.scalar?.[name] ?? 0) + n > (alloc.scalar?.[name] ?? 0)) failures.push({ reason: `Insufficient ${name}`, kind: 'Unschedulable', plugin: 'NodeResourcesFit' });
  }
  if (failures.length) return failures;
  const s = state ?? preFilter(facts, [info]);
  if (s === NO_TOPOLOGY) return [];
  const spread = filterPodTopologySpread(facts, info, s);
  if (spread) return [spread];
  const interPod = filterInterPodAffinity(facts, info, s);
  return interPod ? [interPod] : [];
}

/** The weights of upstream's default score plugins that the lab has (the default profile's). */
export const SCORE_WEIGHTS = { NodeResourcesFit: 1, NodeResourcesBalancedAllocation: 1, NodeAffinity: 2, TaintToleration: 3, InterPodAffinity: 2, PodTopologySpread: 2 } as const;
const MAX_NODE_SCORE = 100;

/** The node's own scores (scoreNodeInfo) for a pod. */
export function scoreNode(pod: Pod, node: Node, podsOnNode: readonly Pod[]): number {
  return scoreNodeInfo(podFacts(pod), nodeInfoOf(node, podsOnNode));
}

/** NodeAffinity's Score: the summed weights of the preferred terms the node matches. */
export function nodeAffinityScore(facts: PodFacts, info: NodeInfo): number {
  let sum = 0;
  for (const t of facts.preferred) if (matchNodeTerm(info.node, t.preference)) sum += t.weight;
  return sum;
}

/** TaintToleration's Score: how many PreferNoSchedule taints of the node the pod does not tolerate. */
export function intolerablePreferNoSchedule(facts: PodFacts, info: NodeInfo): number {
  let count = 0;
  for (const taint of info.softTaints) if (!facts.preferNoScheduleTolerations.some((t) => tolerates(t, taint))) count++;
  return count;
}

/**
 * DefaultNormalizeScore: scores scaled to 0–100 against the highest (integer division); `reverse`
 * turns them round (fewer is better). All zero: 0 each, or 100 each when reversed.
 */
export function normalizeScores(scores: readonly number[], reverse: boolean): number[] {
  const max = Math.max(0, ...scores);
  if (max === 0) return scores.map(() => (reverse ? MAX_NODE_SCORE : 0));
  return scores.map((s) => {
    const v = Math.trunc((MAX_NODE_SCORE * s) / max);
    return reverse ? MAX_NODE_SCORE - v : v;
  });
}

/**
 * prioritizeNodes over the feasible nodes: each plugin's scores, normalised where upstream does,
 * times its weight, summed. NodeAffinity is skipped without preferred terms, InterPodAffinity
 * without a PreScore (`interPod`, from interPodAffinityPreScore), PodTopologySpread without
 * ScheduleAnyway constraints (counted over `infos`, all the nodes): their PreScore Skip.
 */
export function totalScores(facts: PodFacts, feasible: readonly NodeInfo[], interPod?: ReadonlyMap<string, number>, infos: readonly NodeInfo[] = feasible): number[] {
  // The node's own scores, already weighted (NodeResourcesFit and BalancedAllocation).
  const own = feasible.map((info) => scoreNodeInfo(facts, info));
  const spread = podTopologySpreadScores(facts, feasible, infos);
  const pods = interPod ? normalizeInterPodScores(feasible.map((info) => interPodAffinityScore(interPod, info))) : undefined;
  const affinity = facts.preferred.length ? normalizeScores(feasible.map((info) => nodeAffinityScore(facts, info)), false) : undefined;
  // Without PreferNoSchedule taints every node normalises to 100: the same for all, not computed.
  const taints = feasible.some((info) => info.softTaints.length > 0) ? normalizeScores(feasible.map((info) => intolerablePreferNoSchedule(facts, info)), true) : undefined;
  return own.map(
    (f, i) =>
      f +
      SCORE_WEIGHTS.NodeAffinity * (affinity?.[i] ?? 0) +
      SCORE_WEIGHTS.TaintToleration * (taints?.[i] ?? MAX_NODE_SCORE) +
      SCORE_WEIGHTS.InterPodAffinity * (pods?.[i] ?? 0) +
      SCORE_WEIGHTS.PodTopologySpread * (spread?.[i] ?? 0),
  );
}

/**
 * The node's own scores, without normalisation: NodeResourcesFit's least allocated (weight 1) over
 * the non-zero requests, plus NodeResourcesBalancedAllocation's (weight 1) over the real ones,
 * which a best-effort pod skips (upstream since 1.33, kubernetes#129138).
 */
export function scoreNodeInfo(facts: PodFacts, info: NodeInfo): number {
  return SCORE_WEIGHTS.NodeResourcesFit * leastAllocatedScore(facts, info) + SCORE_WEIGHTS.NodeResourcesBalancedAllocation * balancedAllocationScore(facts, info);
}

/** leastRequestedScore: (free after placement) × 100 / allocatable, integer; 0 when it does not fit or there is none. */
const leastRequested = (requested: number, capacity: number) => (capacity === 0 || requested > capacity ? 0 : Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity));

/** leastResourceScorer over CPU and memory (weights 1): the mean of their leastRequested, integer; resources the node has none of are left out. */
export function leastAllocatedScore(facts: PodFacts, info: NodeInfo): number {
  const alloc = info.allocatable;
  const cpu = alloc.milliCpu !== 0;
  const memory = alloc.memory !== 0;
  const sum =
    (cpu ? leastRequested(info.nonZeroRequested.milliCpu + facts.nonZeroRequests.milliCpu, alloc.milliCpu) : 0) +
    (memory ? leastRequested(info.nonZeroRequested.memory + facts.nonZeroRequests.memory, alloc.memory) : 0);
  const n = (cpu ? 1 : 0) + (memory ? 1 : 0);
  return n === 0 ? 0 : Math.trunc(sum / n);
}

/** balancedResourceScorer over CPU and memory: (1 − |cpu fraction − memory fraction| / 2) × 100, fractions capped at 1; 0 for a best-effort pod. */
export function balancedAllocationScore(facts: PodFacts, info: NodeInfo): number {
  if (facts.requests.milliCpu === 0 && facts.requests.memory === 0) return 0;
  const alloc = info.allocatable;
  // With one resource (or none) the deviation is 0.
  if (alloc.milliCpu === 0 || alloc.memory === 0) return MAX_NODE_SCORE;
  const cpu = Math.min(1, (info.requested.milliCpu + facts.requests.milliCpu) / alloc.milliCpu);
  const memory = Math.min(1, (info.requested.memory + facts.requests.memory) / alloc.memory);
  return Math.trunc((1 - Math.abs((cpu - memory) / 2)) * MAX_NODE_SCORE);
}

/** A pod that has finished (Succeeded or Failed): the scheduler no longer counts it on its node. */
export const isTerminalPod = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export type ScheduleResult = { node: string } | { error: string };

/** An event's message limit (validation.NoteLengthLimit). */
const MAX_EVENT_MESSAGE = 1024;

/**
 * truncateMessage: the FailedScheduling event's message, cut to the event limit with " ...". The
 * PodScheduled condition keeps the whole message.
 */
export function truncateMessage(msg: string): string {
  return msg.length > MAX_EVENT_MESSAGE ? `${msg.slice(0, MAX_EVENT_MESSAGE - 4)} ...` : msg;
}

/** The FitError message: `0/N nodes are available: <sorted "count reason">. preemption: ...`. */
export function fitErrorMessage(total: number, failures: Map<string, FilterFailure[]>): string {
  const counts = new Map<string, number>();
  for (const fs of failures.values()) for (const f of fs) counts.set(f.reason, (counts.get(f.reason) ?? 0) + 1);
  const parts = [...counts.entries()].map(([r, n]) => `${n} ${r}`).sort();
  let msg = `0/${total} nodes are available: ${parts.join(', ')}.`;
  // DefaultPreemption's post-filter: nodes failing only resolvable filters have no victims
  // (every lab pod has the same priority); the rest cannot be helped by preemption.
  let notHelpful = 0;
  let noVictims = 0;
  for (const fs of failures.values()) {
    if (fs.some((f) => f.kind === 'UnschedulableAndUnresolvable')) notHelpful++;
    else noVictims++;
  }
  const post: string[] = [];
  if (noVictims) post.push(`${noVictims} No preemption victims found for incoming pod`);
  if (notHelpful) post.push(`${notHelpful} Preemption is not helpful for scheduling`);
  msg += ` preemption: 0/${total} nodes are available: ${post.sort().join(', ')}.`;
  return msg;
}

/** Below this many nodes every node is evaluated (upstream minFeasibleNodesToFind). */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** The adaptive percentage never goes below this (upstream minFeasibleNodesPercentageToFind). */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * How many feasible nodes end the search (upstream schedule_one.go numFeasibleNodesToFind with the
 * default percentageOfNodesToScore of 0, "adaptive"): every node below 100; otherwise
 * 50 − nodes/125 percent of them (at least 5 %), and never fewer than 100.
 */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  const percentage = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - Math.trunc(numAllNodes / 125));
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/**
 * One scheduling cycle over NodeInfos (upstream findNodesThatFitPod + prioritizeNodes +
 * selectHost, without the randomness): the nodes are visited from `start` round the list until
 * numFeasibleNodesToFind of them fit; the best total score (totalScores) wins, ties going to the
 * smaller name. When no
 * node fits, every node was visited and the FitError names them all. `processed` is how many
 * nodes were visited (the next cycle starts that much further on, as nextStartNodeIndex does).
 */
export function findNode(pod: Pod, infos: readonly NodeInfo[], start = 0, facts: PodFacts = podFacts(pod), snapshot: Snapshot = {}): { result: ScheduleResult; processed: number } {
  const { result, processed } = findNodeDetailed(pod, infos, start, facts, snapshot);
  return { result, processed };
}

/** findNode, with the failures of the nodes that did not fit (node name → failures) for the queue. */
export function findNodeDetailed(
  pod: Pod,
  infos: readonly NodeInfo[],
  start = 0,
  facts: PodFacts = podFacts(pod),
  snapshot: Snapshot = {},
): { result: ScheduleResult; processed: number; failures: Map<string, FilterFailure[]> } {
  const total = infos.length;
  const failures = new Map<string, FilterFailure[]>();
  if (total === 0) return { result: { error: 'no nodes available to schedule pods' }, processed: 0, failures };
  const state = preFilter(facts, infos, snapshot);
  const enough = numFeasibleNodesToFind(total);
  const feasible: NodeInfo[] = [];
  let processed = 0;
  // The winner on the nodes' own scores (fit and balance), found on the way: the answer when no other plugin tells nodes apart.
  let fitBest: NodeInfo | undefined;
  let fitBestScore = -1;
  let softTaints = false;
  for (let i = 0; i < total && feasible.length < enough; i++) {
    const info = infos[(start + i) % total]!;
    processed++;
    const f = filterNodeInfo(facts, info, state);
    if (f.length) {
      failures.set(info.name, f);
      continue;
    }
    feasible.push(info);
    if (info.softTaints.length) softTaints = true;
    const score = scoreNodeInfo(facts, info);
    if (!fitBest || score > fitBestScore || (score === fitBestScore && info.name < fitBest.name)) {
      fitBest = info;
      fitBestScore = score;
    }
  }
  if (!fitBest) return { result: { error: fitErrorMessage(total, failures) }, processed, failures };
  // With one node there is nothing to prioritise (upstream returns it unscored).
  const interPod = feasible.length > 1 ? interPodAffinityPreScore(facts, infos, snapshot.namespaces ?? automaticNamespaceLabels, snapshot.withAffinity ?? infos) : undefined;
  // Without preferred terms, PreferNoSchedule taints or pod affinity scores, the other plugins add the same to every node.
  if (facts.preferred.length === 0 && !softTaints && !interPod && facts.softSpread.length === 0) return { result: { node: fitBest.name }, processed, failures };
  // The nodes' own scores are computed again there, only for the pods whose other plugins score.
  const scores = totalScores(facts, feasible, interPod, infos);
  let best = 0;
  for (let i = 1; i < feasible.length; i++) {
    if (scores[i]! > scores[best]! || (scores[i] === scores[best] && feasible[i]!.name < feasible[best]!.name)) best = i;
  }
  return { result: { node: feasible[best]!.name }, processed, failures };
}

/** One scheduling cycle for one pod over all nodes. `podsByNode` holds the non-terminal pods bound to each node. */
export function schedulePod(pod: Pod, nodes: readonly Node[], podsByNode: ReadonlyMap<string, readonly Pod[]>, namespaces?: NamespaceLabels): ScheduleResult {
  return findNode(pod, nodes.map((n) => nodeInfoOf(n, podsByNode.get(n.metadata?.name ?? '') ?? [])), 0, podFacts(pod), { namespaces }).result;
}
