// What the filters match against labels: node selector terms (NodeAffinity), tolerations
// (TaintToleration), and metav1 label selectors (InterPodAffinity, PodTopologySpread), with the
// semantics of upstream k8s.io/apimachinery labels and component-helpers/scheduling/corev1.
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Taint, Toleration } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';

export type Labels = Readonly<Record<string, string>>;

/** One requirement of a label selector (matchLabels become `In` with one value). */
export interface Requirement {
  readonly key: string;
  readonly op: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: readonly string[];
}

/**
 * A parsed label selector, as metav1.LabelSelectorAsSelector makes it: `null` is labels.Nothing()
 * (a null selector, or one that does not parse: it matches no labels); an empty list is
 * labels.Everything() (the selector `{}`: it matches every label set, and is "Empty").
 */
export type Selector = readonly Requirement[] | null;

export const EVERYTHING: Selector = [];

export function labelSelector(s: LabelSelector | null | undefined): Selector {
  if (!s) return null;
  const out: Requirement[] = [];
  for (const [key, value] of Object.entries(s.matchLabels ?? {})) out.push({ key, op: 'In', values: [value] });
  for (const e of s.matchExpressions ?? []) {
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return null; // "for 'in', 'notin' operators, values set can't be empty"
        out.push({ key: e.key, op: e.operator, values });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length) return null;
        out.push({ key: e.key, op: e.operator, values: [] });
        break;
      default:
        return null; // not a valid selector operator (the API server refuses such a pod)
    }
  }
  return out;
}

/** Whether the selector is labels.Everything() (Selector.Empty() upstream: no requirements). */
export const selectorEmpty = (s: Selector): boolean => s !== null && s.length === 0;

export function selectorMatches(s: Selector, labels: Labels | undefined): boolean {
  if (s === null) return false;
  const l = labels ?? {};
  for (const r of s) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'In':
        if (!has || !r.values.includes(l[r.key]!)) return false;
        break;
      case 'NotIn':
        if (has && r.values.includes(l[r.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
    }
  }
  return true;
}

/** A selector with more requirements ANDed (labels.Selector.Add); Nothing stays Nothing. */
export function withRequirements(s: Selector, extra: readonly Requirement[]): Selector {
  if (s === null || extra.length === 0) return s;
  return [...extra, ...s];
}

export function matchNodeExpr(labels: Labels, r: NodeSelectorRequirement): boolean {
  const v = Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined;
  const vals = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return v !== undefined && vals.includes(v);
    case 'NotIn':
      return v === undefined || !vals.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
    case 'Lt': {
      if (v === undefined || vals.length !== 1) return false;
      const n = Number.parseInt(v, 10);
      const m = Number.parseInt(vals[0]!, 10);
      if (Number.isNaN(n) || Number.isNaN(m)) return false;
      return r.operator === 'Gt' ? n > m : n < m;
    }
    default:
      return false;
  }
}

export function matchNodeTerm(node: Node, t: NodeSelectorTerm): boolean {
  const labels = node.metadata?.labels ?? {};
  const exprs = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  return exprs.every((e) => matchNodeExpr(labels, e)) && fields.every((f) => matchNodeExpr({ 'metadata.name': node.metadata?.name ?? '' }, f));
}

/**
 * The pod's required node affinity (nodeaffinity.GetRequiredNodeAffinity(pod).Match): every
 * nodeSelector entry, and one of the required nodeSelectorTerms when there are any.
 */
export function requiredNodeAffinityMatches(node: Node, labels: Labels, nodeSelector: readonly [string, string][], terms: readonly NodeSelectorTerm[] | undefined): boolean {
  for (const [k, v] of nodeSelector) if (labels[k] !== v) return false;
  if (!terms) return true;
  for (const t of terms) if (matchNodeTerm(node, t)) return true;
  return false;
}

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

/** The first taint no toleration tolerates (v1helper.FindMatchingUntoleratedTaint over the taints given). */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  for (const taint of taints) if (!tolerations.some((t) => tolerates(t, taint))) return taint;
  return undefined;
}
