import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { balancedAllocationScore, fitErrorMessage, leastAllocatedScore, nodeInfoOf, normalizeScores, podFacts, podRequests, schedulePod, truncateMessage } from '../../src/engine/scheduler/filters.js';

const node = (name: string, extra: Partial<Node> = {}, cpu = '2', memory = '4Gi'): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu, memory, pods: '110' }, capacity: { cpu, memory, pods: '110' } },
  ...extra,
});

const mkPod = (spec: Partial<NonNullable<Pod['spec']>> = {}, requests?: Record<string, string>): Pod => ({
  metadata: { name: 'p', namespace: 'default', uid: 'u' },
  spec: { containers: [{ name: 'c', image: 'busybox:1.35', ...(requests ? { resources: { requests } } : {}) }], ...spec },
});

const cases: { name: string; pod: Pod; nodes: Node[]; onNode?: Record<string, Pod[]>; want: string }[] = [
  { name: 'a plain pod lands on the only node', pod: mkPod(), nodes: [node('lab')], want: 'node:lab' },
  {
    name: 'a pod asking for more CPU than the node has is unschedulable with Insufficient cpu',
    pod: mkPod({}, { cpu: '3' }),
    nodes: [node('lab')],
    want: 'error:0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
  },
  {
    name: 'a node selector no node matches is not helped by preemption',
    pod: mkPod({ nodeSelector: { disk: 'ssd' } }),
    nodes: [node('lab')],
    want: "error:0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
  },
  {
    name: 'a NoSchedule taint without toleration keeps the pod off the node',
    pod: mkPod(),
    nodes: [node('lab', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } })],
    want: 'error:0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
  },
  {
    name: 'a toleration for the taint lets the pod in',
    pod: mkPod({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }),
    nodes: [node('lab', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } })],
    want: 'node:lab',
  },
  {
    name: 'a hostPort already used on the node conflicts',
    pod: mkPod({ containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80, hostPort: 8080 }] }] }),
    nodes: [node('lab')],
    onNode: { lab: [mkPod({ containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }] }] })] },
    want: "error:0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
  },
  {
    name: 'with two nodes the selector picks the matching one',
    pod: mkPod({ nodeSelector: { zone: 'b' } }),
    nodes: [node('a', { metadata: { name: 'a', labels: { zone: 'a' } } }), node('b', { metadata: { name: 'b', labels: { zone: 'b' } } })],
    want: 'node:b',
  },
  {
    name: 'failures on several nodes are counted and sorted',
    pod: mkPod({ nodeSelector: { zone: 'z' } }, { cpu: '3' }),
    nodes: [node('a', { metadata: { name: 'a', labels: { zone: 'z' } } }), node('b')],
    want: "error:0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
  },
  // Upstream runs the filters in the order NodeUnschedulable, NodeName, TaintToleration,
  // NodeAffinity, NodePorts, NodeResourcesFit, … and stops at the first that fails for a node.
  {
    name: 'an untolerated taint is reported before a node selector that does not match (TaintToleration runs before NodeAffinity)',
    pod: mkPod({ nodeSelector: { zone: 'a' } }),
    nodes: ['a', 'b', 'c'].map((z) => node(z, { metadata: { name: z, labels: { zone: z } }, spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } })),
    want: 'error:0/3 nodes are available: 3 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  },
  {
    name: 'a cordoned node is reported as unschedulable even for a pod that names another node (NodeUnschedulable runs before NodeName)',
    pod: mkPod({ nodeName: 'b' } as Partial<NonNullable<Pod['spec']>>),
    nodes: [node('a', { spec: { unschedulable: true } }), node('b', { spec: { unschedulable: true } })],
    want: 'error:0/2 nodes are available: 2 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
  },
  {
    name: 'a taken host port is the only reason given for a node that also lacks CPU (NodePorts stops the filters before NodeResourcesFit)',
    pod: mkPod({ containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80, hostPort: 8080 }], resources: { requests: { cpu: '3' } } }] }),
    nodes: [node('lab')],
    onNode: { lab: [mkPod({ containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }] }] })] },
    want: "error:0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
  },
];

// Scoring: NodeResourcesFit (least allocated, weight 1), NodeAffinity (preferred terms, weight 2),
// TaintToleration (PreferNoSchedule taints, weight 3). `busy` holds a pod using half of b's CPU.
const zoned = (name: string, zone: string, extra: Partial<Node> = {}) => {
  const n = node(name, extra);
  return { ...n, metadata: { ...n.metadata, labels: { ...n.metadata!.labels, zone } } };
};
const busy = { b: [mkPod({}, { cpu: '1', memory: '2Gi' })] };
const prefer = (weight: number, zone: string) => ({ weight, preference: { matchExpressions: [{ key: 'zone', operator: 'In' as const, values: [zone] }] } });
const scoring: typeof cases = [
  { name: 'scoring: without preferences the emptier node wins (least allocated)', pod: mkPod({}, { cpu: '100m' }), nodes: [zoned('a', 'z1'), zoned('b', 'z2')], onNode: busy, want: 'node:a' },
  {
    name: 'scoring: a preferred node affinity term outweighs free room (weight 2 against 1)',
    pod: mkPod({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [prefer(1, 'z2')] } } }, { cpu: '100m' }),
    nodes: [zoned('a', 'z1'), zoned('b', 'z2')],
    onNode: busy,
    want: 'node:b',
  },
  {
    name: 'scoring: of two preferred terms, the node matching the heavier one wins',
    pod: mkPod({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [prefer(10, 'z1'), prefer(80, 'z2')] } } }, { cpu: '100m' }),
    nodes: [zoned('a', 'z1'), zoned('b', 'z2')],
    onNode: busy,
    want: 'node:b',
  },
  {
    name: 'scoring: a preferred term no node matches changes nothing',
    pod: mkPod({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [prefer(50, 'z9')] } } }, { cpu: '100m' }),
    nodes: [zoned('a', 'z1'), zoned('b', 'z2')],
    onNode: busy,
    want: 'node:a',
  },
  {
    name: 'scoring: an untolerated PreferNoSchedule taint sends the pod to the fuller untainted node',
    pod: mkPod({}, { cpu: '100m' }),
    nodes: [zoned('a', 'z1', { spec: { taints: [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] } }), zoned('b', 'z2')],
    onNode: busy,
    want: 'node:b',
  },
  {
    name: 'scoring: a toleration of the PreferNoSchedule taint makes it count for nothing',
    pod: mkPod({ tolerations: [{ key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' }] }, { cpu: '100m' }),
    nodes: [zoned('a', 'z1', { spec: { taints: [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] } }), zoned('b', 'z2')],
    onNode: busy,
    want: 'node:a',
  },
  {
    name: 'scoring: a toleration of another effect does not apply to a PreferNoSchedule taint',
    pod: mkPod({ tolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }] }, { cpu: '100m' }),
    nodes: [zoned('a', 'z1', { spec: { taints: [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] } }), zoned('b', 'z2')],
    onNode: busy,
    want: 'node:b',
  },
  {
    name: 'scoring: a PreferNoSchedule taint never keeps a pod off the only node',
    pod: mkPod(),
    nodes: [node('lab', { spec: { taints: [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] } })],
    want: 'node:lab',
  },
  {
    name: 'scoring: the taint (weight 3) outweighs a preferred term (weight 2) on the same node',
    pod: mkPod({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [prefer(100, 'z1')] } } }, { cpu: '100m' }),
    nodes: [zoned('a', 'z1', { spec: { taints: [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] } }), zoned('b', 'z2')],
    want: 'node:b',
  },
];
cases.push(...scoring);

// NodeResourcesFit beyond cpu and memory: ephemeral-storage and the scalar resources (extended
// resources such as nvidia.com/gpu, hugepages) are checked against the node's allocatable less
// what its pods request; a resource the node does not list counts as 0 of it.
const withDisk = (name: string, alloc: Record<string, string>) => node(name, { status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110', ...alloc }, capacity: { cpu: '2', memory: '4Gi', pods: '110', ...alloc } } });
const PREEMPT1 = 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
cases.push(
  { name: 'an extended resource the node does not have: Insufficient nvidia.com/gpu', pod: mkPod({}, { 'nvidia.com/gpu': '1' }), nodes: [node('lab')], want: `error:0/1 nodes are available: 1 Insufficient nvidia.com/gpu. ${PREEMPT1}` },
  { name: 'an extended resource the node has: it fits', pod: mkPod({}, { 'nvidia.com/gpu': '1' }), nodes: [withDisk('lab', { 'nvidia.com/gpu': '1' })], want: 'node:lab' },
  {
    name: "an extended resource the node's pods already use up",
    pod: mkPod({}, { 'nvidia.com/gpu': '1' }),
    nodes: [withDisk('lab', { 'nvidia.com/gpu': '1' })],
    onNode: { lab: [mkPod({}, { 'nvidia.com/gpu': '1' })] },
    want: `error:0/1 nodes are available: 1 Insufficient nvidia.com/gpu. ${PREEMPT1}`,
  },
  { name: 'ephemeral-storage within the allocatable fits', pod: mkPod({}, { 'ephemeral-storage': '1Gi' }), nodes: [withDisk('lab', { 'ephemeral-storage': '10Gi' })], want: 'node:lab' },
  { name: 'ephemeral-storage beyond it: Insufficient ephemeral-storage', pod: mkPod({}, { 'ephemeral-storage': '11Gi' }), nodes: [withDisk('lab', { 'ephemeral-storage': '10Gi' })], want: `error:0/1 nodes are available: 1 Insufficient ephemeral-storage. ${PREEMPT1}` },
  { name: 'hugepages on a node without any: Insufficient hugepages-2Mi', pod: mkPod({}, { 'hugepages-2Mi': '4Mi', memory: '64Mi' }), nodes: [node('lab')], want: `error:0/1 nodes are available: 1 Insufficient hugepages-2Mi. ${PREEMPT1}` },
  {
    name: 'several at once: each reason, sorted',
    pod: mkPod({}, { cpu: '3', 'nvidia.com/gpu': '2', 'example.com/fpga': '1' }),
    nodes: [withDisk('lab', { 'nvidia.com/gpu': '1' })],
    want: `error:0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient example.com/fpga, 1 Insufficient nvidia.com/gpu. ${PREEMPT1}`,
  },
);

test('DefaultNormalizeScore: scaled against the highest with integer division; reversed, fewer is better; all zero stays 0, or 100 reversed', () => {
  assert.deepEqual(
    [normalizeScores([0, 30, 90], false), normalizeScores([1, 2, 3], true), normalizeScores([0, 0], false), normalizeScores([0, 0], true)],
    [[0, 33, 100], [67, 34, 0], [0, 0], [100, 100]],
  );
});

for (const c of cases) {
  test(c.name, () => {
    const r = schedulePod(c.pod, c.nodes, new Map(Object.entries(c.onNode ?? {})));
    assert.equal('node' in r ? `node:${r.node}` : `error:${r.error}`, c.want);
  });
}

test('init containers count by their maximum, sidecars add to the app containers', () => {
  const p: Pod = {
    spec: {
      initContainers: [
        { name: 'side', image: 'x:1', restartPolicy: 'Always', resources: { requests: { cpu: '100m', memory: '10Mi' } } },
        { name: 'big', image: 'x:1', resources: { requests: { cpu: '1', memory: '1Gi' } } },
      ],
      containers: [{ name: 'app', image: 'x:1', resources: { requests: { cpu: '200m', memory: '20Mi' } } }],
    },
  };
  assert.deepEqual(podRequests(p), { milliCpu: 1100, memory: 1024 * 1024 * 1024 + 10 * 1024 * 1024, pods: 1 });
});

test('the FitError message is whole; the event\'s copy of one over 1024 characters is cut with " ..."', () => {
  const failures = new Map<string, { reason: string; kind: 'Unschedulable' }[]>();
  for (let i = 0; i < 200; i++) failures.set(`n${i}`, [{ reason: `reason number ${i}`, kind: 'Unschedulable' }]);
  const msg = fitErrorMessage(200, failures);
  assert.ok(msg.length > 1024 && msg.endsWith('. preemption: 0/200 nodes are available: 200 No preemption victims found for incoming pod.'), msg);
  assert.deepEqual([truncateMessage(msg), truncateMessage('short')], [`${msg.slice(0, 1020)} ...`, 'short']);
  assert.equal(truncateMessage(msg).length, 1024);
});

test('scoring: pods that request nothing count as 100m CPU and 200Mi each, so a run of them spreads over equal nodes', () => {
  const nodes = [node('a'), node('b'), node('c')];
  const placed = new Map<string, Pod[]>();
  const chosen: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = schedulePod(mkPod(), nodes, placed);
    const name = 'node' in r ? r.node : r.error;
    chosen.push(name);
    placed.set(name, [...(placed.get(name) ?? []), mkPod()]);
  }
  assert.deepEqual(chosen, ['a', 'b', 'c', 'a']);
});

test('scoring: NodeResourcesFit and BalancedAllocation as upstream computes them (integer least allocated; 1 − |fraction gap| / 2; best-effort pods skip the balance)', () => {
  const info = nodeInfoOf(node('a'), [mkPod()]);
  assert.deepEqual(
    {
      least: leastAllocatedScore(podFacts(mkPod()), info),
      balancedCpuOnly: balancedAllocationScore(podFacts(mkPod({}, { cpu: '1', memory: '0' })), nodeInfoOf(node('b'), [])),
      balancedBestEffort: balancedAllocationScore(podFacts(mkPod()), info),
    },
    // least: CPU (2000 − 200) × 100 / 2000 = 90, memory (4096 − 400) Mi × 100 / 4096 Mi = 90.2 → 90; balance: fractions 0.5 and 0 → 75.
    { least: 90, balancedCpuOnly: 75, balancedBestEffort: 0 },
  );
});

test('scoring: BalancedAllocation sends a CPU-heavy pod to the node whose memory is in use rather than the one whose CPU is', () => {
  const nodes = [node('a'), node('b')];
  const placed = new Map([
    ['a', [mkPod({}, { cpu: '1', memory: '0' })]],
    ['b', [mkPod({}, { cpu: '0', memory: '2Gi' })]],
  ]);
  // Least allocated ties (50 each); the balance is 50 on a (CPU full, memory free) and 100 on b.
  assert.deepEqual(schedulePod(mkPod({}, { cpu: '1', memory: '0' }), nodes, placed), { node: 'b' });
});
