// The scheduler's decisions as pure functions: filter plugins (NodeName, NodeUnschedulable,
// NodeAffinity/selector, TaintToleration, NodePorts, NodeResourcesFit), a simple score, and the
// FitError message in the upstream `0/N nodes are available: ...` form.
import type { Container, Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../validation/quantity.js';

/** How a filter failure reacts to preemption: resolvable failures could in theory be fixed by evicting pods. */
export type FailureKind = 'Unschedulable' | 'UnschedulableAndUnresolvable';
export interface FilterFailure {
  reason: string;
  kind: FailureKind;
}

export interface Resources {
  milliCpu: number;
  memory: number;
  pods: number;
}

function quantityNano(v: string | number | undefined): bigint {
  if (v === undefined) return 0n;
  const q = parseQuantity(String(v));
  return typeof q === 'string' ? 0n : q.nano;
}
const milli = (v: string | number | undefined) => Number(quantityNano(v) / 1_000_000n);
const units = (v: string | number | undefined) => Number(quantityNano(v) / 1_000_000_000n);

function containerRequests(c: Container): { milliCpu: number; memory: number } {
  const req = c.resources?.requests ?? {};
  const lim = c.resources?.limits ?? {};
  // Defaulting copies limits into missing requests.
  return { milliCpu: milli(req.cpu ?? lim.cpu), memory: units(req.memory ?? lim.memory) };
}

/** Effective pod requests: max(sum of app containers + sidecars, each init container on top of the sidecars before it). */
export function podRequests(pod: Pod): Resources {
  const sum = { milliCpu: 0, memory: 0 };
  for (const c of pod.spec?.containers ?? []) {
    const r = containerRequests(c);
    sum.milliCpu += r.milliCpu;
    sum.memory += r.memory;
  }
  const sidecars = { milliCpu: 0, memory: 0 };
  const initMax = { milliCpu: 0, memory: 0 };
  for (const c of pod.spec?.initContainers ?? []) {
    const r = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      sidecars.milliCpu += r.milliCpu;
      sidecars.memory += r.memory;
      initMax.milliCpu = Math.max(initMax.milliCpu, sidecars.milliCpu);
      initMax.memory = Math.max(initMax.memory, sidecars.memory);
    } else {
      initMax.milliCpu = Math.max(initMax.milliCpu, sidecars.milliCpu + r.milliCpu);
      initMax.memory = Math.max(initMax.memory, sidecars.memory + r.memory);
    }
  }
  return {
    milliCpu: Math.max(sum.milliCpu + sidecars.milliCpu, initMax.milliCpu),
    memory: Math.max(sum.memory + sidecars.memory, initMax.memory),
    pods: 1,
  };
}

export function nodeAllocatable(node: Node): Resources {
  const a = node.status?.allocatable ?? node.status?.capacity ?? {};
  return { milliCpu: milli(a.cpu), memory: units(a.memory), pods: units(a.pods ?? '110') };
}

function hostPorts(pod: Pod): string[] {
  const out: string[] = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (p.hostPort) out.push(`${p.protocol ?? 'TCP'}/${p.hostIP || '0.0.0.0'}/${p.hostPort}`);
    }
  }
  return out;
}

function portsConflict(a: string, b: string): boolean {
  const [pa, ia, na] = a.split('/');
  const [pb, ib, nb] = b.split('/');
  return pa === pb && na === nb && (ia === ib || ia === '0.0.0.0' || ib === '0.0.0.0');
}

function matchExpr(labels: Record<string, string>, r: NodeSelectorRequirement): boolean {
  const v = labels[r.key];
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

function matchTerm(node: Node, t: NodeSelectorTerm): boolean {
  const labels = node.metadata?.labels ?? {};
  const exprs = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  return (
    exprs.every((e) => matchExpr(labels, e)) &&
    fields.every((f) => matchExpr({ 'metadata.name': node.metadata?.name ?? '' }, f))
  );
}

function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

/** Runs every filter of one node; returns the failures (empty = the node fits). */
export function filterNode(pod: Pod, node: Node, podsOnNode: Pod[]): FilterFailure[] {
  const spec = pod.spec ?? { containers: [] };
  const name = node.metadata?.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) {
    return [{ reason: "node(s) didn't match the requested node name", kind: 'UnschedulableAndUnresolvable' }];
  }
  if (node.spec?.unschedulable && !(spec.tolerations ?? []).some((t) => t.key === 'node.kubernetes.io/unschedulable' && (t.operator === 'Exists' || !t.effect || t.effect === 'NoSchedule'))) {
    return [{ reason: 'node(s) were unschedulable', kind: 'UnschedulableAndUnresolvable' }];
  }
  const labels = node.metadata?.labels ?? {};
  const selectorOk = Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const affinityOk = !terms || terms.some((t) => matchTerm(node, t));
  if (!selectorOk || !affinityOk) {
    return [{ reason: "node(s) didn't match Pod's node affinity/selector", kind: 'UnschedulableAndUnresolvable' }];
  }
  const untolerated = (node.spec?.taints ?? []).find(
    (taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !(spec.tolerations ?? []).some((t) => tolerates(t, taint)),
  );
  if (untolerated) {
    return [{ reason: `node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ''}}`, kind: 'UnschedulableAndUnresolvable' }];
  }
  const failures: FilterFailure[] = [];
  const used = podsOnNode.flatMap(hostPorts);
  if (hostPorts(pod).some((p) => used.some((u) => portsConflict(p, u)))) {
    failures.push({ reason: "node(s) didn't have free ports for the requested pod ports", kind: 'Unschedulable' });
  }
  const alloc = nodeAllocatable(node);
  const want = podRequests(pod);
  const have = podsOnNode.map(podRequests).reduce((a, r) => ({ milliCpu: a.milliCpu + r.milliCpu, memory: a.memory + r.memory, pods: a.pods + 1 }), {
    milliCpu: 0,
    memory: 0,
    pods: 0,
  });
  if (have.pods + 1 > alloc.pods) failures.push({ reason: 'Too many pods', kind: 'Unschedulable' });
  if (want.milliCpu > 0 && have.milliCpu + want.milliCpu > alloc.milliCpu) failures.push({ reason: 'Insufficient cpu', kind: 'Unschedulable' });
  if (want.memory > 0 && have.memory + want.memory > alloc.memory) failures.push({ reason: 'Insufficient memory', kind: 'Unschedulable' });
  return failures;
}

/** LeastAllocated-style score: prefer the node with the most free CPU and memory after placement (0–100). */
export function scoreNode(pod: Pod, node: Node, podsOnNode: Pod[]): number {
  const alloc = nodeAllocatable(node);
  const used = [...podsOnNode, pod].map(podRequests).reduce((a, r) => ({ milliCpu: a.milliCpu + r.milliCpu, memory: a.memory + r.memory }), {
    milliCpu: 0,
    memory: 0,
  });
  const free = (cap: number, u: number) => (cap <= 0 ? 0 : Math.max(0, ((cap - u) * 100) / cap));
  return Math.round((free(alloc.milliCpu, used.milliCpu) + free(alloc.memory, used.memory)) / 2);
}

export type ScheduleResult = { node: string } | { error: string };

const MAX_MESSAGE = 1024;

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
  return msg.length > MAX_MESSAGE ? `${msg.slice(0, MAX_MESSAGE - 4)} ...` : msg;
}

/** One scheduling cycle for one pod over all nodes. `podsByNode` holds the non-terminal pods bound to each node. */
export function schedulePod(pod: Pod, nodes: Node[], podsByNode: ReadonlyMap<string, Pod[]>): ScheduleResult {
  if (nodes.length === 0) return { error: 'no nodes available to schedule pods' };
  const failures = new Map<string, FilterFailure[]>();
  let best: { node: string; score: number } | undefined;
  for (const n of nodes) {
    const name = n.metadata?.name ?? '';
    const onNode = podsByNode.get(name) ?? [];
    const f = filterNode(pod, n, onNode);
    if (f.length) {
      failures.set(name, f);
      continue;
    }
    const score = scoreNode(pod, n, onNode);
    if (!best || score > best.score || (score === best.score && name < best.node)) best = { node: name, score };
  }
  return best ? { node: best.node } : { error: fitErrorMessage(nodes.length, failures) };
}
