// InterPodAffinity and PodTopologySpread (src/engine/scheduler/interpod.ts) through the whole
// scheduling cycle: each case is a cluster (nodes, the pods placed on them, namespace labels) and a
// pod, and compares the whole outcome — the node chosen or the whole FitError, and the whole map of
// node → failures (plugin, kind, reason) — with upstream's behaviour (filtering.go of both plugins).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, PodAffinityTerm, Taint, TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { filterNode, findNodeDetailed, nodeInfoOf, podFacts, schedulePod, type FilterFailure } from '../../src/engine/scheduler/filters.js';
import { automaticNamespaceLabels, interPodAffinityPreScore, interPodAffinityScore, normalizeInterPodScores, podTopologySpreadScores, type NamespaceLabels } from '../../src/engine/scheduler/interpod.js';

const node = (name: string, labels: Record<string, string> = {}, opts: { cpu?: string; taints?: Taint[] } = {}): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec: opts.taints ? { taints: opts.taints } : {},
  status: { allocatable: { cpu: opts.cpu ?? '2', memory: '4Gi', pods: '110' } },
});

interface PodOpts {
  ns?: string;
  labels?: Record<string, string>;
  affinity?: PodAffinityTerm[];
  anti?: PodAffinityTerm[];
  spread?: Partial<TopologySpreadConstraint>[];
  nodeSelector?: Record<string, string>;
  tolerations?: NonNullable<Pod['spec']>['tolerations'];
  cpu?: string;
  terminating?: boolean;
}
// Requests are explicit (0 unless a case sets cpu): a request not made would count as 100m and
// 200Mi in the score, and the nodes the filters leave would no longer tie (ties go to the first name).
const pod = (name: string, o: PodOpts = {}): Pod => ({
  metadata: { name, namespace: o.ns ?? 'default', uid: `uid-${o.ns ?? 'default'}-${name}`, ...(o.labels ? { labels: o.labels } : {}), ...(o.terminating ? { deletionTimestamp: '2026-11-23T10:00:00Z' } : {}) },
  spec: {
    containers: [{ name: 'c', image: 'busybox:1.35', resources: { requests: { cpu: o.cpu ?? '0', memory: '0' } } }],
    ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
    ...(o.tolerations ? { tolerations: o.tolerations } : {}),
    ...(o.affinity || o.anti
      ? {
          affinity: {
            ...(o.affinity ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.affinity } } : {}),
            ...(o.anti ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.anti } } : {}),
          },
        }
      : {}),
    ...(o.spread ? { topologySpreadConstraints: o.spread.map((c) => ({ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', ...c })) } : {}),
  },
});

const HOST = 'kubernetes.io/hostname';
const term = (topologyKey: string, matchLabels: Record<string, string> | undefined, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm => ({ topologyKey, ...(matchLabels ? { labelSelector: { matchLabels } } : {}), ...extra });
const web = (name: string, o: PodOpts = {}) => pod(name, { ...o, labels: { app: 'web', ...o.labels } });

const AFFINITY = "InterPodAffinity UnschedulableAndUnresolvable: node(s) didn't match pod affinity rules";
const ANTI = "InterPodAffinity Unschedulable: node(s) didn't match pod anti-affinity rules";
const EXISTING = "InterPodAffinity Unschedulable: node(s) didn't satisfy existing pods anti-affinity rules";
const SKEW = "PodTopologySpread Unschedulable: node(s) didn't match pod topology spread constraints";
const NO_LABEL = "PodTopologySpread UnschedulableAndUnresolvable: node(s) didn't match pod topology spread constraints (missing required label)";
const PREEMPT_NO = 'Preemption is not helpful for scheduling';
const PREEMPT_VICTIMS = 'No preemption victims found for incoming pod';

interface Case {
  name: string;
  nodes: Node[];
  placed?: Record<string, Pod[]>;
  namespaces?: Record<string, Record<string, string>>;
  pod: Pod;
  /** The node chosen, or the whole FitError. */
  result: string;
  /** Every node that did not fit, with its failures. */
  failures: Record<string, string[]>;
}

const Z = (zone: string, extra: Record<string, string> = {}) => ({ zone, ...extra });

const cases: Case[] = [
  // ---- InterPodAffinity: the pod's required affinity ----
  {
    name: 'required affinity (hostname) to app=db puts the pod on the node where a db pod runs',
    nodes: [node('a'), node('b')],
    placed: { b: [pod('db', { labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'required affinity (zone) accepts every node of the zone where a matching pod runs',
    nodes: [node('a', Z('z1')), node('b', Z('z2')), node('c', Z('z2'))],
    placed: { c: [pod('db', { labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term('zone', { app: 'db' })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'required affinity no pod matches, and the pod does not match its own terms: every node fails, preemption cannot help',
    nodes: [node('a'), node('b')],
    pod: pod('p', { affinity: [term(HOST, { app: 'db' })] }),
    result: `0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 ${PREEMPT_NO}.`,
    failures: { a: [AFFINITY], b: [AFFINITY] },
  },
  {
    name: 'the first pod of a group whose affinity selects the group itself may go anywhere when no pod matches anywhere',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    pod: web('w', { affinity: [term('zone', { app: 'web' })] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'once one pod of the group runs, the next one must join its zone',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { b: [web('w1')] },
    pod: web('w2', { affinity: [term('zone', { app: 'web' })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'even for the first pod of a group, a node without the topology label fails the affinity',
    nodes: [node('a', Z('z1'), { cpu: '1' }), node('nozone')],
    pod: web('w', { cpu: '1500m', affinity: [term('zone', { app: 'web' })] }),
    result: `0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 1 ${PREEMPT_VICTIMS}, 1 ${PREEMPT_NO}.`,
    failures: { a: ['NodeResourcesFit Unschedulable: Insufficient cpu'], nozone: [AFFINITY] },
  },
  {
    name: 'with two affinity terms a placed pod counts only when it matches both',
    nodes: [node('a'), node('b')],
    placed: { a: [pod('db', { labels: { app: 'db' } })], b: [pod('db-main', { labels: { app: 'db', role: 'main' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' }), term(HOST, { role: 'main' })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'an affinity term matches pods of the pod’s own namespace only, unless it names namespaces',
    nodes: [node('a'), node('b')],
    placed: { b: [pod('db', { ns: 'data', labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' })] }),
    result: `0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 ${PREEMPT_NO}.`,
    failures: { a: [AFFINITY], b: [AFFINITY] },
  },
  {
    name: 'an affinity term with namespaces [data] matches the db pod of namespace data',
    nodes: [node('a'), node('b')],
    placed: { b: [pod('db', { ns: 'data', labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' }, { namespaces: ['data'] })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'an empty namespaceSelector ({}) matches pods of every namespace',
    nodes: [node('a'), node('b')],
    placed: { b: [pod('db', { ns: 'data', labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' }, { namespaceSelector: {} })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'a namespaceSelector matches the pods of the namespaces whose labels it selects',
    nodes: [node('a'), node('b'), node('c')],
    namespaces: { 'team-x': { team: 'x' }, 'team-y': { team: 'y' } },
    placed: { a: [pod('db', { ns: 'team-y', labels: { app: 'db' } })], c: [pod('db', { ns: 'team-x', labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' }, { namespaceSelector: { matchLabels: { team: 'x' } } })] }),
    result: 'c',
    failures: { a: [AFFINITY], b: [AFFINITY] },
  },
  {
    name: 'a namespaceSelector on kubernetes.io/metadata.name works without Namespace objects (every namespace has that label)',
    nodes: [node('a'), node('b')],
    placed: { b: [pod('db', { ns: 'data', labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'data' } } })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },
  {
    name: 'an affinity term without labelSelector matches no pod (and not the pod itself)',
    nodes: [node('a')],
    placed: { a: [pod('db', { labels: { app: 'db' } })] },
    pod: pod('p', { labels: { app: 'db' }, affinity: [term(HOST, undefined)] }),
    result: `0/1 nodes are available: 1 node(s) didn't match pod affinity rules. preemption: 0/1 nodes are available: 1 ${PREEMPT_NO}.`,
    failures: { a: [AFFINITY] },
  },
  {
    name: 'mismatchLabelKeys [tenant] keeps the affinity to pods of other tenants',
    nodes: [node('a'), node('b')],
    placed: { a: [pod('cache-1', { labels: { app: 'cache', tenant: 't1' } })], b: [pod('cache-2', { labels: { app: 'cache', tenant: 't2' } })] },
    pod: pod('p', { labels: { tenant: 't1' }, affinity: [term(HOST, { app: 'cache' }, { mismatchLabelKeys: ['tenant'] })] }),
    result: 'b',
    failures: { a: [AFFINITY] },
  },

  // ---- InterPodAffinity: the pod's required anti-affinity ----
  {
    name: 'required anti-affinity (hostname) to app=web keeps a web pod off the node where web runs',
    nodes: [node('a'), node('b')],
    placed: { a: [web('w1')] },
    pod: web('w2', { anti: [term(HOST, { app: 'web' })] }),
    result: 'b',
    failures: { a: [ANTI] },
  },
  {
    name: 'with web on both nodes, anti-affinity fails everywhere; preemption finds no victims (same priority)',
    nodes: [node('a'), node('b')],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { anti: [term(HOST, { app: 'web' })] }),
    result: `0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [ANTI], b: [ANTI] },
  },
  {
    name: 'anti-affinity by zone keeps the pod off every node of a zone with a web pod',
    nodes: [node('a', Z('z1')), node('b', Z('z1')), node('c', Z('z2'))],
    placed: { a: [web('w1')] },
    pod: web('w2', { anti: [term('zone', { app: 'web' })] }),
    result: 'c',
    failures: { a: [ANTI], b: [ANTI] },
  },
  {
    name: 'a node without the anti-affinity topology label is not in any domain, so it passes',
    nodes: [node('a', Z('z1')), node('nozone')],
    placed: { a: [web('w1')], nozone: [web('w3')] },
    pod: web('w2', { anti: [term('zone', { app: 'web' })] }),
    result: 'nozone',
    failures: { a: [ANTI] },
  },
  {
    name: 'a terminating pod still counts for anti-affinity',
    nodes: [node('a'), node('b')],
    placed: { a: [web('w1', { terminating: true })] },
    pod: web('w2', { anti: [term(HOST, { app: 'web' })] }),
    result: 'b',
    failures: { a: [ANTI] },
  },
  {
    name: 'matchLabelKeys [version] narrows anti-affinity to pods of the same version',
    nodes: [node('a'), node('b')],
    placed: { a: [web('w1', { labels: { version: 'v1' } })], b: [web('w2', { labels: { version: 'v2' } })] },
    pod: web('w3', { labels: { version: 'v2' }, anti: [term(HOST, { app: 'web' }, { matchLabelKeys: ['version'] })] }),
    result: 'a',
    failures: { b: [ANTI] },
  },
  {
    name: 'anti-affinity does not look at pods of other namespaces',
    nodes: [node('a')],
    placed: { a: [web('w1', { ns: 'other' })] },
    pod: web('w2', { anti: [term(HOST, { app: 'web' })] }),
    result: 'a',
    failures: {},
  },

  // ---- InterPodAffinity: the placed pods' required anti-affinity ----
  {
    name: "a placed pod's anti-affinity to app=web keeps web pods off its node",
    nodes: [node('a'), node('b')],
    placed: { a: [pod('loner', { anti: [term(HOST, { app: 'web' })] })] },
    pod: web('w'),
    result: 'b',
    failures: { a: [EXISTING] },
  },
  {
    name: "a placed pod's anti-affinity by zone keeps web pods off its whole zone",
    nodes: [node('a', Z('z1')), node('b', Z('z1')), node('c', Z('z2'))],
    placed: { b: [pod('loner', { anti: [term('zone', { app: 'web' })] })] },
    pod: web('w'),
    result: 'c',
    failures: { a: [EXISTING], b: [EXISTING] },
  },
  {
    name: "a placed pod's anti-affinity only applies to pods of its namespace unless it names others",
    nodes: [node('a'), node('b')],
    placed: { a: [pod('loner', { ns: 'other', anti: [term(HOST, { app: 'web' })] })], b: [pod('picky', { ns: 'other', anti: [term(HOST, { app: 'web' }, { namespaces: ['default'] })] })] },
    pod: web('w'),
    result: 'a',
    failures: { b: [EXISTING] },
  },
  {
    name: "a placed pod's namespaceSelector is matched against the labels of the incoming pod's namespace",
    nodes: [node('a'), node('b')],
    namespaces: { default: { env: 'prod' } },
    placed: { a: [pod('loner', { ns: 'other', anti: [term(HOST, { app: 'web' }, { namespaceSelector: { matchLabels: { env: 'prod' } } })] })] },
    pod: web('w'),
    result: 'b',
    failures: { a: [EXISTING] },
  },
  {
    name: 'placed anti-affinity everywhere: every node fails, and preemption finds no victims',
    nodes: [node('a'), node('b')],
    placed: { a: [pod('l1', { anti: [term(HOST, { app: 'web' })] })], b: [pod('l2', { anti: [term(HOST, { app: 'web' })] })] },
    pod: web('w'),
    result: `0/2 nodes are available: 2 node(s) didn't satisfy existing pods anti-affinity rules. preemption: 0/2 nodes are available: 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [EXISTING], b: [EXISTING] },
  },
  {
    name: "the pod's affinity is checked before its anti-affinity, and that before the placed pods' anti-affinity",
    nodes: [node('a'), node('b'), node('c')],
    placed: { a: [pod('db', { labels: { app: 'db' } }), web('w1'), pod('loner', { anti: [term(HOST, { app: 'web' })] })], b: [pod('db', { labels: { app: 'db' } }), pod('loner', { anti: [term(HOST, { app: 'web' })] })] },
    pod: web('w2', { affinity: [term(HOST, { app: 'db' })], anti: [term(HOST, { app: 'web' })] }),
    result: `0/3 nodes are available: 1 node(s) didn't match pod affinity rules, 1 node(s) didn't match pod anti-affinity rules, 1 node(s) didn't satisfy existing pods anti-affinity rules. preemption: 0/3 nodes are available: 1 ${PREEMPT_NO}, 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [ANTI], b: [EXISTING], c: [AFFINITY] },
  },
  {
    name: 'a node that fails an earlier filter (a taint) is not judged on inter-pod affinity',
    nodes: [node('a', {}, { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }), node('b')],
    placed: { a: [pod('db', { labels: { app: 'db' } })] },
    pod: pod('p', { affinity: [term(HOST, { app: 'db' })] }),
    result: `0/2 nodes are available: 1 node(s) didn't match pod affinity rules, 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: 2 ${PREEMPT_NO}.`,
    failures: { a: ['TaintToleration UnschedulableAndUnresolvable: node(s) had untolerated taint {dedicated: gpu}'], b: [AFFINITY] },
  },

  // ---- PodTopologySpread (DoNotSchedule) ----
  {
    name: 'maxSkew 1 over zones: with one web pod in z1 and none in z2, the next goes to z2',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1')] },
    pod: web('w2', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'b',
    failures: { a: [SKEW] },
  },
  {
    name: 'zones in balance: any zone keeps the skew at 1',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'a node without the topology key fails as missing the required label; a single zone is always in balance',
    nodes: [node('a', Z('z1')), node('nozone')],
    placed: { a: [web('w1')] },
    pod: web('w2', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: { nozone: [NO_LABEL] },
  },
  {
    name: 'a zone whose only node is full still counts as a domain; a node missing the label cannot be helped by preemption',
    nodes: [node('a', Z('z1')), node('b', Z('z2'), { cpu: '1' }), node('nozone')],
    placed: { a: [web('w1')] },
    pod: web('w2', { cpu: '1500m', spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: `0/3 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints, 1 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/3 nodes are available: 1 ${PREEMPT_NO}, 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [SKEW], b: ['NodeResourcesFit Unschedulable: Insufficient cpu'], nozone: [NO_LABEL] },
  },
  {
    name: 'maxSkew 2 allows two more in the fuller zone',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1')] },
    pod: web('w2', { spread: [{ maxSkew: 2, labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'minDomains 3 with only two zones takes the global minimum as 0',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { spread: [{ minDomains: 3, labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: `0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints. preemption: 0/2 nodes are available: 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [SKEW], b: [SKEW] },
  },
  {
    name: 'nodeAffinityPolicy Honor (the default): the empty zone z3, which the node selector excludes, does not lower the minimum',
    nodes: [node('a', Z('z1', { pool: 'main' })), node('b', Z('z2', { pool: 'main' })), node('c', Z('z3'))],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { nodeSelector: { pool: 'main' }, spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: { c: ["NodeAffinity UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector"] },
  },
  {
    name: 'nodeAffinityPolicy Ignore: the empty zone z3 counts, so z1 and z2 are too full',
    nodes: [node('a', Z('z1', { pool: 'main' })), node('b', Z('z2', { pool: 'main' })), node('c', Z('z3'))],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { nodeSelector: { pool: 'main' }, spread: [{ nodeAffinityPolicy: 'Ignore', labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: `0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 ${PREEMPT_NO}, 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [SKEW], b: [SKEW], c: ["NodeAffinity UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector"] },
  },
  {
    name: 'nodeTaintsPolicy Ignore (the default): the tainted empty zone counts, so z1 and z2 are too full',
    nodes: [node('a', Z('z1')), node('b', Z('z2')), node('c', Z('z3'), { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] })],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: `0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 ${PREEMPT_NO}, 2 ${PREEMPT_VICTIMS}.`,
    failures: { a: [SKEW], b: [SKEW], c: ['TaintToleration UnschedulableAndUnresolvable: node(s) had untolerated taint {dedicated: gpu}'] },
  },
  {
    name: 'nodeTaintsPolicy Honor leaves out the node whose taint the pod does not tolerate',
    nodes: [node('a', Z('z1')), node('b', Z('z2')), node('c', Z('z3'), { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] })],
    placed: { a: [web('w1')], b: [web('w2')] },
    pod: web('w3', { spread: [{ nodeTaintsPolicy: 'Honor', labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: { c: ['TaintToleration UnschedulableAndUnresolvable: node(s) had untolerated taint {dedicated: gpu}'] },
  },
  {
    name: 'only pods of the same namespace are counted',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1', { ns: 'other' }), web('w2', { ns: 'other' })] },
    pod: web('w3', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'terminating pods (deletionTimestamp set) are not counted',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1', { terminating: true }), web('w2', { terminating: true })] },
    pod: web('w3', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'matchLabelKeys [version] counts only the pods of the same version',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('old-1', { labels: { version: 'v1' } }), web('old-2', { labels: { version: 'v1' } })], b: [web('new-1', { labels: { version: 'v2' } })] },
    pod: web('new-2', { labels: { version: 'v2' }, spread: [{ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['version'] }] }),
    result: 'a',
    failures: { b: [SKEW] },
  },
  {
    name: "a pod the selector does not match adds nothing to its domain's count",
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1')] },
    pod: pod('other', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'an empty labelSelector counts no placed pod but matches the pod itself (upstream countPodsMatchSelector skips an empty selector)',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1'), web('w2'), web('w3')] },
    pod: web('w4', { spread: [{ labelSelector: {} }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'two constraints (zone and hostname): a node must satisfy both',
    nodes: [node('a', Z('z1')), node('b', Z('z1')), node('c', Z('z2'))],
    placed: { a: [web('w1')], c: [web('w2')] },
    pod: web('w3', { spread: [{ labelSelector: { matchLabels: { app: 'web' } } }, { topologyKey: HOST, labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'b',
    failures: { a: [SKEW], c: [SKEW] },
  },
  {
    name: 'ScheduleAnyway constraints are not filters',
    nodes: [node('a', Z('z1')), node('nozone')],
    placed: { a: [web('w1'), web('w2')] },
    pod: web('w3', { spread: [{ whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'a',
    failures: {},
  },
  {
    name: 'PodTopologySpread runs before InterPodAffinity: a node failing both shows the spread failure',
    nodes: [node('a', Z('z1')), node('b', Z('z2'))],
    placed: { a: [web('w1')] },
    pod: web('w2', { anti: [term('zone', { app: 'web' })], spread: [{ labelSelector: { matchLabels: { app: 'web' } } }] }),
    result: 'b',
    failures: { a: [SKEW] },
  },
];

const fmt = (f: FilterFailure) => `${f.plugin} ${f.kind}: ${f.reason}`;
const lookup = (c: Case): NamespaceLabels => (ns) => (c.namespaces?.[ns] ? { 'kubernetes.io/metadata.name': ns, ...c.namespaces[ns] } : automaticNamespaceLabels(ns));

for (const c of cases) {
  test(c.name, () => {
    const byNode = new Map(c.nodes.map((n) => [n.metadata!.name!, c.placed?.[n.metadata!.name!] ?? []]));
    const infos = c.nodes.map((n) => nodeInfoOf(n, byNode.get(n.metadata!.name!)!));
    const d = findNodeDetailed(c.pod, infos, 0, podFacts(c.pod), { namespaces: lookup(c) });
    const got = { result: 'node' in d.result ? d.result.node : d.result.error, failures: Object.fromEntries([...d.failures].map(([n, fs]) => [n, fs.map(fmt)])) };
    assert.deepEqual(got, { result: c.result, failures: c.failures });
    // the uncached entry points agree: schedulePod, and filterNode of each node given the cluster
    assert.deepEqual(schedulePod(c.pod, c.nodes, byNode, lookup(c)), d.result);
    const perNode = Object.fromEntries(
      c.nodes.map((n) => [n.metadata!.name!, filterNode(c.pod, n, byNode.get(n.metadata!.name!)!, { nodes: c.nodes, podsByNode: byNode, namespaces: lookup(c) }).map(fmt)] as const).filter(([, fs]) => fs.length),
    );
    assert.deepEqual(perNode, c.failures);
  });
}

test('without a cluster, filterNode sees only the node itself: affinity to a pod elsewhere fails there', () => {
  const p = pod('p', { affinity: [term(HOST, { app: 'db' })] });
  assert.deepEqual(filterNode(p, node('a'), []).map(fmt), [AFFINITY]);
  assert.deepEqual(filterNode(p, node('a'), [pod('db', { labels: { app: 'db' } })]).map(fmt), []);
});

// ---- InterPodAffinity's score (scoring.go): weight 2 beside NodeResourcesFit's 1 --------------

const preferring = (p: Pod, kind: 'podAffinity' | 'podAntiAffinity', weight: number, t: PodAffinityTerm): Pod => ({
  ...p,
  spec: { ...p.spec!, affinity: { ...p.spec!.affinity, [kind]: { ...p.spec!.affinity?.[kind], preferredDuringSchedulingIgnoredDuringExecution: [{ weight, podAffinityTerm: t }] } } },
});
const zones = () => [node('a', { zone: 'z1' }), node('b', { zone: 'z1' }), node('c', { zone: 'z2' })];
const scoreCases: { name: string; nodes: Node[]; placed: Record<string, Pod[]>; pod: Pod; want: string }[] = [
  { name: 'without terms anywhere: least allocated, ties to the smaller name', nodes: zones(), placed: { b: [pod('db', { labels: { app: 'db' }, cpu: '1' })] }, pod: web('w'), want: 'a' },
  {
    name: 'a preferred affinity term draws the pod to the node of the pod it selects, though that node is fuller',
    nodes: zones(),
    placed: { b: [pod('db', { labels: { app: 'db' }, cpu: '1' })] },
    pod: preferring(web('w'), 'podAffinity', 50, term(HOST, { app: 'db' })),
    want: 'b',
  },
  {
    name: 'a preferred anti-affinity term on the zone sends the pod to the other zone',
    nodes: zones(),
    placed: { a: [web('w0')] },
    pod: preferring(web('w'), 'podAntiAffinity', 100, term('zone', { app: 'web' })),
    want: 'c',
  },
  {
    name: "a placed pod's preferred affinity term that selects the incoming pod draws it (the pod has no terms of its own)",
    nodes: zones(),
    placed: { c: [preferring(pod('cache', { labels: { app: 'cache' } }), 'podAffinity', 10, term(HOST, { app: 'web' }))] },
    pod: web('w'),
    want: 'c',
  },
  {
    name: "a placed pod's required affinity term that selects the incoming pod counts hardPodAffinityWeight (1)",
    nodes: zones(),
    placed: { b: [pod('sidecar', { labels: { app: 'proxy' }, affinity: [term(HOST, { app: 'web' })] })] },
    pod: web('w'),
    want: 'b',
  },
  {
    name: "a placed pod's preferred anti-affinity term against the incoming pod keeps it out of that zone",
    nodes: zones(),
    placed: { a: [preferring(pod('batch', { labels: { app: 'batch' } }), 'podAntiAffinity', 100, term('zone', { app: 'web' }))] },
    pod: web('w'),
    want: 'c',
  },
  {
    name: "the incoming pod's term matches its own namespace only, by default: a pod of another namespace draws nothing",
    nodes: zones(),
    placed: { b: [pod('db', { ns: 'other', labels: { app: 'db' } })] },
    pod: preferring(web('w'), 'podAffinity', 100, term(HOST, { app: 'db' })),
    want: 'a',
  },
  {
    name: 'a node without the topology key gets no score from the term',
    nodes: [node('a'), node('b', { zone: 'z1' })],
    placed: { b: [pod('db', { labels: { app: 'db' } })] },
    pod: preferring(web('w'), 'podAffinity', 100, term('zone', { app: 'db' })),
    want: 'b',
  },
];
for (const c of scoreCases) {
  test(`score: ${c.name}`, () => {
    const r = schedulePod(c.pod, c.nodes, new Map(Object.entries(c.placed)));
    assert.deepEqual(r, { node: c.want });
  });
}

test('score: the PreScore sums signed weights per topology pair; NormalizeScore scales min–max to 0–100', () => {
  const infos = zones().map((n) => nodeInfoOf(n, n.metadata!.name === 'a' ? [web('w0'), pod('db', { labels: { app: 'db' } })] : []));
  const incoming = preferring(preferring(web('w'), 'podAffinity', 30, term(HOST, { app: 'db' })), 'podAntiAffinity', 100, term('zone', { app: 'web' }));
  const pre = interPodAffinityPreScore(podFacts(incoming), infos, automaticNamespaceLabels);
  assert.deepEqual(pre, new Map([[`${HOST}\u0000a`, 30], ['zone\u0000z1', -100]]));
  const raw = infos.map((i) => interPodAffinityScore(pre!, i));
  assert.deepEqual([raw, normalizeInterPodScores(raw), normalizeInterPodScores([5, 5]), normalizeInterPodScores([1, 2, 4])], [[-70, -100, 0], [30, 0, 100], [0, 0], [0, 33, 100]]);
});

// ---- PodTopologySpread's score (scoring.go) for ScheduleAnyway constraints: weight 2 -------------

const anyway = (topologyKey: string, maxSkew = 1): Partial<TopologySpreadConstraint> => ({ topologyKey, maxSkew, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } });
const spreadCases: { name: string; nodes: Node[]; placed: Record<string, Pod[]>; pod: Pod; want: string }[] = [
  {
    name: 'ScheduleAnyway on zones: the zone with fewer matching pods wins, though its node is fuller',
    nodes: zones(),
    placed: { a: [web('w1')], b: [web('w2')], c: [pod('busy', { labels: { app: 'db' }, cpu: '1' })] },
    pod: web('w', { spread: [anyway('zone')] }),
    want: 'c',
  },
  { name: 'ScheduleAnyway on hostnames counts the pods on each node itself', nodes: [node('a'), node('b')], placed: { a: [web('w1')] }, pod: web('w', { spread: [anyway(HOST)] }), want: 'b' },
  {
    name: 'a node without the topology key scores 0 for it, so a node with the key wins even with a matching pod',
    nodes: [node('a'), node('b', { zone: 'z1' })],
    placed: { b: [web('w1')] },
    pod: web('w', { spread: [anyway('zone')] }),
    want: 'b',
  },
  {
    name: 'pods of another namespace and terminating pods are not counted',
    nodes: zones(),
    placed: { a: [web('w1', { ns: 'other' }), web('w2', { terminating: true })], c: [pod('busy', { labels: { app: 'db' }, cpu: '1' })] },
    pod: web('w', { spread: [anyway('zone')] }),
    want: 'a',
  },
];
for (const c of spreadCases) {
  test(`score: ${c.name}`, () => assert.deepEqual(schedulePod(c.pod, c.nodes, new Map(Object.entries(c.placed))), { node: c.want }));
}

test('score: PodTopologySpread counts each zone with weight ln(zones + 2), rounds, and scales fewer-is-better to 0–100; a node without the key gets 0', () => {
  const placed: Record<string, Pod[]> = { a: [web('w1')], b: [web('w2'), web('w3')] };
  const nodes = [...zones(), node('d')];
  const infos = nodes.map((n) => nodeInfoOf(n, placed[n.metadata!.name!] ?? []));
  // z1 holds 3 web pods, z2 none; two zones: weight ln 4 ≈ 1.386, z1 scores round(4.16) = 4, z2 0.
  assert.deepEqual(podTopologySpreadScores(podFacts(web('w', { spread: [anyway('zone')] })), infos, infos), [0, 0, 100, 0]);
  // maxSkew 3 adds 2 to every scored node: 6 and 2 → 100 × (6 + 2 − s) / 6.
  assert.deepEqual(podTopologySpreadScores(podFacts(web('w', { spread: [anyway('zone', 3)] })), infos, infos), [33, 33, 100, 0]);
  assert.equal(podTopologySpreadScores(podFacts(web('w')), infos, infos), undefined);
});
