// The two filters that look at the other pods of the cluster, as pure functions over NodeInfos:
// InterPodAffinity (upstream pkg/scheduler/framework/plugins/interpodaffinity/filtering.go: the
// pod's required podAffinity and podAntiAffinity terms, and the required anti-affinity of the pods
// already placed) and PodTopologySpread (podtopologyspread/filtering.go and common.go: the pod's
// whenUnsatisfiable DoNotSchedule constraints). As upstream, a PreFilter pass over every NodeInfo
// counts matching pods per topology pair once per scheduling cycle, and the Filter of one node
// reads those counts. Both plugins' scores (their scoring.go) are here too: InterPodAffinity's from
// the pod's preferred terms and the placed pods' terms that match it, PodTopologySpread's from the
// pod's ScheduleAnyway constraints.
import type { Pod, PodAffinityTerm, TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import type { FilterFailure, NodeInfo, PodFacts } from './filters.js';
import { labelSelector, requiredNodeAffinityMatches, selectorEmpty, selectorMatches, untoleratedTaint, withRequirements, type Labels, type Requirement, type Selector } from './match.js';

export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";
export const ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const ErrReasonNodeLabelNotMatch = `${ErrReasonConstraintsNotMatch} (missing required label)`;

/** A PodAffinityTerm, parsed (upstream fwk.AffinityTerm). */
export interface AffinityTermFacts {
  readonly topologyKey: string;
  /** The labelSelector with matchLabelKeys (In) and mismatchLabelKeys (NotIn) merged in, as the API server merges them on create. */
  readonly selector: Selector;
  /** `namespaces`, or the pod's own namespace when neither namespaces nor namespaceSelector is set. */
  readonly namespaces: ReadonlySet<string>;
  /** null (Nothing) when namespaceSelector is not set; `{}` is Everything (all namespaces). */
  readonly nsSelector: Selector;
}

/** A preferred PodAffinityTerm and its weight (upstream fwk.WeightedAffinityTerm). */
export interface WeightedTermFacts {
  readonly weight: number;
  readonly term: AffinityTermFacts;
}

/** A topology spread constraint (DoNotSchedule or ScheduleAnyway), parsed with upstream's defaults. */
export interface SpreadConstraintFacts {
  readonly maxSkew: number;
  readonly topologyKey: string;
  /** The labelSelector with the pod's values of matchLabelKeys merged in. */
  readonly selector: Selector;
  /** Default 1. */
  readonly minDomains: number;
  /** nodeAffinityPolicy: Honor (default) counts only nodes matching the pod's nodeSelector and required node affinity. */
  readonly honorNodeAffinity: boolean;
  /** nodeTaintsPolicy: Honor counts only nodes whose NoSchedule/NoExecute taints the pod tolerates; Ignore (default) counts all. */
  readonly honorNodeTaints: boolean;
}

/** What InterPodAffinity and PodTopologySpread need of a pod, incoming or placed. */
export interface InterPodFacts {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Labels;
  /** Has a deletionTimestamp: PodTopologySpread does not count it (upstream #87621); InterPodAffinity does. */
  readonly terminating: boolean;
  readonly affinityTerms: readonly AffinityTermFacts[];
  readonly antiAffinityTerms: readonly AffinityTermFacts[];
  readonly preferredAffinityTerms: readonly WeightedTermFacts[];
  readonly preferredAntiAffinityTerms: readonly WeightedTermFacts[];
  readonly spread: readonly SpreadConstraintFacts[];
  /** The ScheduleAnyway constraints (they only score). */
  readonly softSpread: readonly SpreadConstraintFacts[];
}

/** Has pod affinity or anti-affinity terms, required or preferred (upstream NodeInfo.PodsWithAffinity). */
export const hasPodAffinity = (p: InterPodFacts): boolean =>
  p.affinityTerms.length > 0 || p.antiAffinityTerms.length > 0 || p.preferredAffinityTerms.length > 0 || p.preferredAntiAffinityTerms.length > 0;

const NONE: readonly never[] = Object.freeze([]);

/** A namespace's labels, for namespaceSelector. */
export type NamespaceLabels = (namespace: string) => Labels;

/** Every namespace carries the label the API server sets on it (kubernetes.io/metadata.name). */
export const automaticNamespaceLabels: NamespaceLabels = (namespace) => ({ 'kubernetes.io/metadata.name': namespace });

function labelKeyRequirements(keys: readonly string[] | undefined, op: 'In' | 'NotIn', labels: Labels): Requirement[] {
  const out: Requirement[] = [];
  for (const key of keys ?? []) if (Object.prototype.hasOwnProperty.call(labels, key)) out.push({ key, op, values: [labels[key]!] });
  return out;
}

function affinityTerm(namespace: string, labels: Labels, t: PodAffinityTerm): AffinityTermFacts {
  // pkg/registry/core/pod/strategy.go applyMatchLabelKeysAndMismatchLabelKeys (a nil labelSelector stays nil).
  const selector = withRequirements(labelSelector(t.labelSelector), [...labelKeyRequirements(t.matchLabelKeys, 'In', labels), ...labelKeyRequirements(t.mismatchLabelKeys, 'NotIn', labels)]);
  const namespaces = new Set(t.namespaces ?? []);
  if (namespaces.size === 0 && !t.namespaceSelector) namespaces.add(namespace);
  return { topologyKey: t.topologyKey, selector, namespaces, nsSelector: labelSelector(t.namespaceSelector) };
}

function spreadConstraint(labels: Labels, c: TopologySpreadConstraint): SpreadConstraintFacts {
  // common.go filterTopologySpreadConstraints: matchLabelKeys become `key = value` for the keys the pod has.
  const selector = withRequirements(labelSelector(c.labelSelector), labelKeyRequirements(c.matchLabelKeys, 'In', labels));
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    selector,
    minDomains: c.minDomains ?? 1,
    honorNodeAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
    honorNodeTaints: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
  };
}

export function interPodFacts(pod: Pod): InterPodFacts {
  const namespace = pod.metadata?.namespace || 'default';
  const labels = pod.metadata?.labels ?? {};
  const a = pod.spec?.affinity;
  const req = a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? NONE;
  const anti = a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? NONE;
  const spread = (pod.spec?.topologySpreadConstraints ?? NONE).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
  const softSpread = (pod.spec?.topologySpreadConstraints ?? NONE).filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
  const prefAff = a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? NONE;
  const prefAnti = a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? NONE;
  return {
    name: pod.metadata?.name ?? '',
    namespace,
    labels,
    terminating: !!pod.metadata?.deletionTimestamp,
    affinityTerms: req.length ? req.map((t) => affinityTerm(namespace, labels, t)) : NONE,
    antiAffinityTerms: anti.length ? anti.map((t) => affinityTerm(namespace, labels, t)) : NONE,
    preferredAffinityTerms: prefAff.length ? prefAff.map((w) => ({ weight: w.weight, term: affinityTerm(namespace, labels, w.podAffinityTerm) })) : NONE,
    preferredAntiAffinityTerms: prefAnti.length ? prefAnti.map((w) => ({ weight: w.weight, term: affinityTerm(namespace, labels, w.podAffinityTerm) })) : NONE,
    spread: spread.length ? spread.map((c) => spreadConstraint(labels, c)) : NONE,
    softSpread: softSpread.length ? softSpread.map((c) => spreadConstraint(labels, c)) : NONE,
  };
}

/**
 * Whether a term of the incoming pod matches a pod. Upstream's PreFilter first turns a
 * namespaceSelector that is not `{}` into the namespaces it selects (mergeAffinityTermNamespacesIfNotEmpty);
 * evaluating it against the pod's namespace's labels is the same.
 */
export function incomingTermMatches(t: AffinityTermFacts, pod: InterPodFacts, nsLabels: NamespaceLabels): boolean {
  const nsOk = t.namespaces.has(pod.namespace) || selectorEmpty(t.nsSelector) || (t.nsSelector !== null && selectorMatches(t.nsSelector, nsLabels(pod.namespace)));
  return nsOk && selectorMatches(t.selector, pod.labels);
}

/** Whether a term of a placed pod matches the incoming pod, whose namespace has these labels (fwk.AffinityTerm.Matches). */
function existingTermMatches(t: AffinityTermFacts, pod: InterPodFacts, podNsLabels: Labels): boolean {
  return (t.namespaces.has(pod.namespace) || selectorMatches(t.nsSelector, podNsLabels)) && selectorMatches(t.selector, pod.labels);
}

/** Upstream's PreFilter state of both plugins for one pod and one cluster snapshot. */
export interface TopologyState {
  /** Topology pair → placed pods whose required anti-affinity matches the incoming pod. */
  readonly existingAntiAffinity: ReadonlyMap<string, number>;
  /** Topology pair → placed pods that match every required affinity term of the incoming pod (once per term). */
  readonly affinity: ReadonlyMap<string, number>;
  /** Topology pair → placed pods matching a required anti-affinity term of the incoming pod. */
  readonly antiAffinity: ReadonlyMap<string, number>;
  /** The incoming pod matches all its own affinity terms (it may start a group when no pod matches anywhere). */
  readonly selfAffinity: boolean;
  /** Per DoNotSchedule constraint: domain (topology value) → matching pods, and the global minimum (0 below minDomains domains). */
  readonly spread: readonly { readonly domains: ReadonlyMap<string, number>; readonly min: number }[];
}

const pair = (key: string, value: string) => `${key}\u0000${value}`;

function count(m: Map<string, number>, labels: Labels, key: string): void {
  if (!Object.prototype.hasOwnProperty.call(labels, key)) return;
  const k = pair(key, labels[key]!);
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** countPodsMatchSelector: the node's pods of the namespace, not terminating, that a non-empty selector matches. */
function countMatching(info: NodeInfo, c: SpreadConstraintFacts, namespace: string): number {
  if (selectorEmpty(c.selector)) return 0;
  let n = 0;
  for (const p of info.pods.get(namespace) ?? NONE) if (!p.terminating && selectorMatches(c.selector, p.labels)) n++;
  return n;
}

/** matchNodeInclusionPolicies: whether a node counts for a constraint (nodeAffinityPolicy, nodeTaintsPolicy). */
function admits(c: SpreadConstraintFacts, facts: PodFacts, info: NodeInfo): boolean {
  if (c.honorNodeAffinity && !requiredNodeAffinityMatches(info.node, info.labels, facts.nodeSelector, facts.terms)) return false;
  return !(c.honorNodeTaints && untoleratedTaint(info.hardTaints, facts.tolerations));
}

/** The placed pods of a node in the namespaces a pod's terms can match (all when a term has a namespaceSelector). */
function* podsIn(info: NodeInfo, terms: readonly AffinityTermFacts[]): Iterable<PodFacts> {
  if (terms.some((t) => t.nsSelector !== null)) {
    for (const set of info.pods.values()) yield* set;
    return;
  }
  const seen = new Set<string>();
  for (const t of terms) {
    for (const ns of t.namespaces) {
      if (seen.has(ns)) continue;
      seen.add(ns);
      const set = info.pods.get(ns);
      if (set) yield* set;
    }
  }
}

const MAX_INT32 = 2 ** 31 - 1;

/**
 * The state of a cycle in which neither plugin has anything to check (the pod has no required
 * terms or DoNotSchedule constraints and no placed pod has required anti-affinity): both
 * PreFilters return Skip upstream, and Filter is not run.
 */
export const NO_TOPOLOGY: TopologyState = Object.freeze({ existingAntiAffinity: new Map(), affinity: new Map(), antiAffinity: new Map(), selfAffinity: false, spread: [] });


/**
 * Both plugins' PreFilter over every node of the snapshot: the placed pods with required
 * anti-affinity (on the nodes holding some: `withRequiredAntiAffinity`, by default found among
 * `infos`), then, only for a pod with required terms or DoNotSchedule constraints, the placed
 * pods of the namespaces its terms can match on every node.
 */
export function preFilterTopology(facts: PodFacts, infos: readonly NodeInfo[], nsLabels: NamespaceLabels, withRequiredAntiAffinity: Iterable<NodeInfo> = infos): TopologyState {
  if (!facts.affinityTerms.length && !facts.antiAffinityTerms.length && !facts.spread.length) {
    let placedAnti = false;
    for (const info of withRequiredAntiAffinity) if (info.podsWithRequiredAntiAffinity.size) placedAnti = true;
    if (!placedAnti) return NO_TOPOLOGY;
  }
  const existingAntiAffinity = new Map<string, number>();
  const affinity = new Map<string, number>();
  const antiAffinity = new Map<string, number>();
  const podNsLabels = nsLabels(facts.namespace);
  for (const info of withRequiredAntiAffinity) {
    for (const placed of info.podsWithRequiredAntiAffinity) {
      for (const t of placed.antiAffinityTerms) if (existingTermMatches(t, facts, podNsLabels)) count(existingAntiAffinity, info.labels, t.topologyKey);
    }
  }
  const aff = facts.affinityTerms;
  const anti = facts.antiAffinityTerms;
  if (aff.length || anti.length) {
    const terms = [...aff, ...anti];
    for (const info of infos) {
      for (const placed of podsIn(info, terms)) {
        if (aff.length && aff.every((t) => incomingTermMatches(t, placed, nsLabels))) for (const t of aff) count(affinity, info.labels, t.topologyKey);
        for (const t of anti) if (incomingTermMatches(t, placed, nsLabels)) count(antiAffinity, info.labels, t.topologyKey);
      }
    }
  }
  const selfAffinity = aff.length > 0 && aff.every((t) => incomingTermMatches(t, facts, nsLabels));

  const constraints = facts.spread;
  const domains = constraints.map(() => new Map<string, number>());
  if (constraints.length) {
    for (const info of infos) {
      // Only nodes holding every constraint's topology key count (nodeLabelsMatchSpreadConstraints).
      if (!constraints.every((c) => Object.prototype.hasOwnProperty.call(info.labels, c.topologyKey))) continue;
      constraints.forEach((c, i) => {
        if (!admits(c, facts, info)) return;
        const value = info.labels[c.topologyKey]!;
        domains[i]!.set(value, (domains[i]!.get(value) ?? 0) + countMatching(info, c, facts.namespace));
      });
    }
  }
  const spread = constraints.map((c, i) => {
    const d = domains[i]!;
    let min = MAX_INT32;
    for (const n of d.values()) if (n < min) min = n;
    // Fewer eligible domains than minDomains: the global minimum is taken as 0.
    return { domains: d, min: d.size < c.minDomains ? 0 : min };
  });
  return { existingAntiAffinity, affinity, antiAffinity, selfAffinity, spread };
}

/** PodTopologySpread's Filter: for each DoNotSchedule constraint, matching pods in the node's domain + the pod itself − the global minimum ≤ maxSkew. */
export function filterPodTopologySpread(facts: PodFacts, info: NodeInfo, state: TopologyState): FilterFailure | undefined {
  for (let i = 0; i < facts.spread.length; i++) {
    const c = facts.spread[i]!;
    if (!Object.prototype.hasOwnProperty.call(info.labels, c.topologyKey)) return { reason: ErrReasonNodeLabelNotMatch, kind: 'UnschedulableAndUnresolvable', plugin: 'PodTopologySpread' };
    const s = state.spread[i]!;
    const self = selectorMatches(c.selector, facts.labels) ? 1 : 0;
    const skew = (s.domains.get(info.labels[c.topologyKey]!) ?? 0) + self - s.min;
    if (skew > c.maxSkew) return { reason: ErrReasonConstraintsNotMatch, kind: 'Unschedulable', plugin: 'PodTopologySpread' };
  }
  return undefined;
}

/** InterPodAffinity's Filter: the pod's affinity, then its anti-affinity, then the placed pods' anti-affinity. */
export function filterInterPodAffinity(facts: PodFacts, info: NodeInfo, state: TopologyState): FilterFailure | undefined {
  const labels = info.labels;
  let podsExist = true;
  for (const t of facts.affinityTerms) {
    if (!Object.prototype.hasOwnProperty.call(labels, t.topologyKey)) return { reason: ErrReasonAffinityRulesNotMatch, kind: 'UnschedulableAndUnresolvable', plugin: 'InterPodAffinity' };
    if ((state.affinity.get(pair(t.topologyKey, labels[t.topologyKey]!)) ?? 0) <= 0) podsExist = false;
  }
  // The first pod of a group whose terms select the group itself: allowed where no pod matches anywhere.
  if (!podsExist && !(state.affinity.size === 0 && state.selfAffinity)) return { reason: ErrReasonAffinityRulesNotMatch, kind: 'UnschedulableAndUnresolvable', plugin: 'InterPodAffinity' };
  if (state.antiAffinity.size > 0) {
    for (const t of facts.antiAffinityTerms) {
      if (!Object.prototype.hasOwnProperty.call(labels, t.topologyKey)) continue;
      if ((state.antiAffinity.get(pair(t.topologyKey, labels[t.topologyKey]!)) ?? 0) > 0) return { reason: ErrReasonAntiAffinityRulesNotMatch, kind: 'Unschedulable', plugin: 'InterPodAffinity' };
    }
  }
  if (state.existingAntiAffinity.size > 0) {
    for (const [k, v] of Object.entries(labels)) {
      if ((state.existingAntiAffinity.get(pair(k, v)) ?? 0) > 0) return { reason: ErrReasonExistingAntiAffinityRulesNotMatch, kind: 'Unschedulable', plugin: 'InterPodAffinity' };
    }
  }
  return undefined;
}

/** upstream's default InterPodAffinityArgs.hardPodAffinityWeight: a placed pod's required affinity term that matches the incoming pod scores this. */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/**
 * InterPodAffinity's PreScore: topology pair → summed weights. For each placed pod: + the weight of
 * each preferred affinity term of the incoming pod it matches, − for its preferred anti-affinity
 * terms; and, where the placed pod's terms match the incoming pod, + HARD_POD_AFFINITY_WEIGHT per
 * required affinity term, + / − the weights of its preferred affinity / anti-affinity terms; each
 * at the pair of the term's topology key on the placed pod's node. All pods are read when the
 * incoming pod has preferred terms, else only the pods with affinity terms (on `withAffinity`).
 * Undefined when no pair got a score (upstream's Skip: the plugin scores nothing).
 */
export function interPodAffinityPreScore(facts: InterPodFacts, infos: readonly NodeInfo[], nsLabels: NamespaceLabels, withAffinity: Iterable<NodeInfo> = infos): Map<string, number> | undefined {
  const own = facts.preferredAffinityTerms.length > 0 || facts.preferredAntiAffinityTerms.length > 0;
  const scores = new Map<string, number>();
  const add = (labels: Labels, key: string, w: number) => {
    if (!Object.prototype.hasOwnProperty.call(labels, key)) return;
    const k = pair(key, labels[key]!);
    scores.set(k, (scores.get(k) ?? 0) + w);
  };
  const podNsLabels = nsLabels(facts.namespace);
  const visit = (info: NodeInfo, placed: InterPodFacts) => {
    const labels = info.labels;
    for (const w of facts.preferredAffinityTerms) if (incomingTermMatches(w.term, placed, nsLabels)) add(labels, w.term.topologyKey, w.weight);
    for (const w of facts.preferredAntiAffinityTerms) if (incomingTermMatches(w.term, placed, nsLabels)) add(labels, w.term.topologyKey, -w.weight);
    for (const t of placed.affinityTerms) if (existingTermMatches(t, facts, podNsLabels)) add(labels, t.topologyKey, HARD_POD_AFFINITY_WEIGHT);
    for (const w of placed.preferredAffinityTerms) if (existingTermMatches(w.term, facts, podNsLabels)) add(labels, w.term.topologyKey, w.weight);
    for (const w of placed.preferredAntiAffinityTerms) if (existingTermMatches(w.term, facts, podNsLabels)) add(labels, w.term.topologyKey, -w.weight);
  };
  if (own) {
    for (const info of infos) for (const set of info.pods.values()) for (const placed of set) visit(info, placed);
  } else {
    for (const info of withAffinity) for (const placed of info.podsWithAffinity) visit(info, placed);
  }
  return scores.size ? scores : undefined;
}

/** InterPodAffinity's Score of a node: the PreScore of the pairs its labels make. */
export function interPodAffinityScore(scores: ReadonlyMap<string, number>, info: NodeInfo): number {
  let sum = 0;
  for (const [k, v] of Object.entries(info.labels)) sum += scores.get(pair(k, v)) ?? 0;
  return sum;
}

/** InterPodAffinity's NormalizeScore: min–max scaled to 0–100 (truncated); all equal → 0. */
export function normalizeInterPodScores(scores: readonly number[]): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const diff = max - min;
  return scores.map((s) => (diff > 0 ? Math.trunc(100 * ((s - min) / diff)) : 0));
}

const HOSTNAME = 'kubernetes.io/hostname';

/**
 * PodTopologySpread's PreScore, Score and NormalizeScore for the ScheduleAnyway constraints, over
 * the feasible nodes; undefined when the pod has none (its PreScore Skip). A feasible node without
 * every constraint's topology key is ignored (scores 0). Each constraint weighs ln(domains + 2),
 * its domains being the topology values among the other feasible nodes (for the hostname key,
 * those nodes); a domain's count is the matching pods on every node of that value that the
 * constraint's node inclusion policies admit (on the node itself for the hostname key). A node
 * scores round(Σ count × weight + maxSkew − 1), then 100 × (max + min − score) / max (fewer
 * matching pods is better; all 0: 100 each).
 */
export function podTopologySpreadScores(facts: PodFacts, feasible: readonly NodeInfo[], infos: readonly NodeInfo[]): number[] | undefined {
  const cs = facts.softSpread;
  if (!cs.length) return undefined;
  const hasKeys = (labels: Labels) => cs.every((c) => Object.prototype.hasOwnProperty.call(labels, c.topologyKey));
  const ignored = feasible.map((info) => !hasKeys(info.labels));
  const counts = cs.map(() => new Map<string, number>());
  feasible.forEach((info, j) => {
    if (ignored[j]) return;
    cs.forEach((c, i) => {
      if (c.topologyKey !== HOSTNAME && !counts[i]!.has(info.labels[c.topologyKey]!)) counts[i]!.set(info.labels[c.topologyKey]!, 0);
    });
  });
  const scored = ignored.filter((x) => !x).length;
  const weights = cs.map((c, i) => Math.log((c.topologyKey === HOSTNAME ? scored : counts[i]!.size) + 2));
  for (const info of infos) {
    if (!hasKeys(info.labels)) continue;
    cs.forEach((c, i) => {
      if (!admits(c, facts, info)) return;
      const value = info.labels[c.topologyKey]!;
      const cur = counts[i]!.get(value);
      if (cur !== undefined) counts[i]!.set(value, cur + countMatching(info, c, facts.namespace));
    });
  }
  const raw = feasible.map((info, j) => {
    if (ignored[j]) return 0;
    let score = 0;
    cs.forEach((c, i) => {
      const cnt = c.topologyKey === HOSTNAME ? countMatching(info, c, facts.namespace) : counts[i]!.get(info.labels[c.topologyKey]!)!;
      score += cnt * weights[i]! + (c.maxSkew - 1);
    });
    return Math.round(score);
  });
  let min = Infinity;
  let max = 0;
  raw.forEach((s, j) => {
    if (ignored[j]) return;
    if (s < min) min = s;
    if (s > max) max = s;
  });
  return raw.map((s, j) => (ignored[j] ? 0 : max === 0 ? 100 : Math.trunc((100 * (max + min - s)) / max)));
}

/**
 * The queueing hint of both plugins for a pod that failed on them when another pod is placed
 * (upstream isSchedulableAfterPodChange, Add): InterPodAffinity when the placed pod matches one of
 * the waiting pod's required affinity terms (an added pod never lifts an anti-affinity rule);
 * PodTopologySpread when it is in the waiting pod's namespace and matches a constraint's selector.
 */
export function placedPodMayHelp(waiting: PodFacts, plugins: ReadonlySet<string>, placed: InterPodFacts, nsLabels: NamespaceLabels): boolean {
  if (plugins.has('InterPodAffinity') && waiting.affinityTerms.some((t) => incomingTermMatches(t, placed, nsLabels))) return true;
  if (plugins.has('PodTopologySpread') && placed.namespace === waiting.namespace && waiting.spread.some((c) => selectorMatches(c.selector, placed.labels))) return true;
  return false;
}
