// The scheduler's cache (src/engine/scheduler/cache.ts) and queue (scheduler.ts): table cases
// compare whole NodeInfos, randomised clusters compare the cached path with the uncached one, and
// the Scheduler over a real Store shows when waiting pods are tried again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { SchedulerCache } from '../../src/engine/scheduler/cache.js';
import { filterNode, filterNodeInfo, findNode, nodeInfoOf, numFeasibleNodesToFind, podFacts, preFilter, schedulePod, type NodeInfo } from '../../src/engine/scheduler/filters.js';
import { Scheduler } from '../../src/engine/scheduler/scheduler.js';
import { Store } from '../../src/engine/store.js';
import { EventRecorder } from '../../src/engine/events.js';
import { FakeClock, settle } from '../../src/engine/clock.js';
import type { WatchEvent } from '../../src/engine/api.js';

const node = (name: string, opts: { cpu?: string; memory?: string; pods?: string; labels?: Record<string, string>; spec?: Node['spec'] } = {}): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...opts.labels } },
  spec: opts.spec ?? {},
  status: { allocatable: { cpu: opts.cpu ?? '2', memory: opts.memory ?? '4Gi', pods: opts.pods ?? '110' } },
});

const pod = (name: string, opts: { node?: string; cpu?: string; memory?: string; hostPort?: number; hostIP?: string; phase?: string; spec?: Partial<NonNullable<Pod['spec']>>; created?: string } = {}): Pod => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(opts.created ? { creationTimestamp: opts.created } : {}) },
  spec: {
    ...(opts.node ? { nodeName: opts.node } : {}),
    containers: [
      {
        name: 'c',
        image: 'busybox:1.35',
        ...(opts.cpu || opts.memory ? { resources: { requests: { ...(opts.cpu ? { cpu: opts.cpu } : {}), ...(opts.memory ? { memory: opts.memory } : {}) } } } : {}),
        ...(opts.hostPort ? { ports: [{ containerPort: 80, hostPort: opts.hostPort, ...(opts.hostIP ? { hostIP: opts.hostIP } : {}) }] } : {}),
      },
    ],
    ...opts.spec,
  },
  status: { phase: opts.phase ?? 'Pending' },
});

const ev = (type: WatchEvent['type'], object: Pod | Node): WatchEvent => ({ type, kind: 'kind' in object && object.kind === 'Node' ? 'Node' : 'spec' in object && object.spec && 'containers' in object.spec ? 'Pod' : 'Node', object }) as WatchEvent;

/** A NodeInfo as plain data, to compare whole. */
const view = (i: NodeInfo | undefined) =>
  i && {
    name: i.name,
    allocatable: i.allocatable,
    requested: i.requested,
    usedPorts: Object.fromEntries([...i.usedPorts].map(([k, ips]) => [k, Object.fromEntries(ips)])),
  };

const cases: { name: string; events: WatchEvent[]; want: Record<string, ReturnType<typeof view>> }[] = [
  {
    name: 'a pod bound to a node is counted there: its requests, its host port and one pod',
    events: [ev('ADDED', node('a')), ev('ADDED', pod('p', { node: 'a', cpu: '500m', memory: '1Gi', hostPort: 8080 }))],
    want: { a: { name: 'a', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 500, memory: 2 ** 30, pods: 1 }, usedPorts: { 'TCP/8080': { '0.0.0.0': 1 } } } },
  },
  {
    name: 'a pending pod is not counted; once bound (MODIFIED) it is',
    events: [ev('ADDED', node('a')), ev('ADDED', pod('p', { cpu: '1' })), ev('MODIFIED', pod('p', { cpu: '1', node: 'a' }))],
    want: { a: { name: 'a', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 1000, memory: 0, pods: 1 }, usedPorts: {} } },
  },
  {
    name: 'a deleted pod gives its requests and ports back',
    events: [ev('ADDED', node('a')), ev('ADDED', pod('p', { node: 'a', cpu: '1', hostPort: 80 })), ev('ADDED', pod('q', { node: 'a', cpu: '250m' })), ev('DELETED', pod('p', { node: 'a', cpu: '1', hostPort: 80 }))],
    want: { a: { name: 'a', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 250, memory: 0, pods: 1 }, usedPorts: {} } },
  },
  {
    name: 'a pod that completed (Succeeded) is no longer counted, as the scheduler ignores terminal pods',
    events: [ev('ADDED', node('a')), ev('ADDED', pod('p', { node: 'a', cpu: '1' })), ev('MODIFIED', pod('p', { node: 'a', cpu: '1', phase: 'Succeeded' }))],
    want: { a: { name: 'a', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 0, memory: 0, pods: 0 }, usedPorts: {} } },
  },
  {
    name: 'a pod bound to a node not yet known is counted when the node arrives',
    events: [ev('ADDED', pod('p', { node: 'later', memory: '1Gi' })), ev('ADDED', node('later'))],
    want: { later: { name: 'later', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 0, memory: 2 ** 30, pods: 1 }, usedPorts: {} } },
  },
  {
    name: 'a node that changes (a new size) keeps the sums of its pods',
    events: [ev('ADDED', node('a')), ev('ADDED', pod('p', { node: 'a', cpu: '1' })), ev('MODIFIED', node('a', { cpu: '8' }))],
    want: { a: { name: 'a', allocatable: { milliCpu: 8000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 1000, memory: 0, pods: 1 }, usedPorts: {} } },
  },
  {
    name: 'a deleted node is gone; when it comes back its pods are counted again',
    events: [ev('ADDED', node('a')), ev('ADDED', node('b')), ev('ADDED', pod('p', { node: 'a', cpu: '1' })), ev('DELETED', node('a')), ev('ADDED', node('a'))],
    want: {
      b: { name: 'b', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 0, memory: 0, pods: 0 }, usedPorts: {} },
      a: { name: 'a', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 1000, memory: 0, pods: 1 }, usedPorts: {} },
    },
  },
  {
    name: 'two pods on one host port with different IPs are both remembered; one leaving keeps the other',
    events: [ev('ADDED', node('a')), ev('ADDED', pod('p', { node: 'a', hostPort: 53, hostIP: '127.0.0.1' })), ev('ADDED', pod('q', { node: 'a', hostPort: 53, hostIP: '127.0.0.2' })), ev('DELETED', pod('p', { node: 'a', hostPort: 53, hostIP: '127.0.0.1' }))],
    want: { a: { name: 'a', allocatable: { milliCpu: 2000, memory: 4 * 2 ** 30, pods: 110 }, requested: { milliCpu: 0, memory: 0, pods: 1 }, usedPorts: { 'TCP/53': { '127.0.0.2': 1 } } } },
  },
];

for (const c of cases) {
  test(`cache: ${c.name}`, () => {
    const cache = new SchedulerCache();
    for (const e of c.events) cache.apply(e);
    assert.deepEqual(Object.fromEntries(cache.nodes().map((i) => [i.name, view(i)])), c.want);
  });
}

test('numFeasibleNodesToFind: every node below 100, then 50 − n/125 percent (at least 5 %), never fewer than 100', () => {
  const sizes = [1, 50, 99, 100, 150, 500, 1000, 2000, 5000, 6000, 10000];
  assert.deepEqual(
    Object.fromEntries(sizes.map((n) => [n, numFeasibleNodesToFind(n)])),
    { 1: 1, 50: 50, 99: 99, 100: 100, 150: 100, 500: 230, 1000: 420, 2000: 680, 5000: 500, 6000: 300, 10000: 500 },
  );
});

test('findNode on 200 fitting nodes visits 100 from the start index round the list, and picks the best of those', () => {
  const infos = Array.from({ length: 200 }, (_, i) => nodeInfoOf(node(`n${String(i).padStart(3, '0')}`, { cpu: i === 150 ? '64' : '2' }), []));
  const p = pod('p', { cpu: '100m' });
  assert.deepEqual(findNode(p, infos, 0), { result: { node: 'n000' }, processed: 100 });
  assert.deepEqual(findNode(p, infos, 120), { result: { node: 'n150' }, processed: 100 });
  assert.deepEqual(findNode(p, infos, 180), { result: { node: 'n000' }, processed: 100 });
});

test('findNode with no fitting node visits them all and names every failure', () => {
  const infos = Array.from({ length: 150 }, (_, i) => nodeInfoOf(node(`n${i}`, i < 100 ? {} : { cpu: '1', labels: { disk: 'hdd' } }), []));
  const p = pod('p', { cpu: '1500m', spec: { nodeSelector: { disk: 'hdd' } } });
  assert.deepEqual(findNode(p, infos, 37), {
    result: {
      error:
        "0/150 nodes are available: 100 node(s) didn't match Pod's node affinity/selector, 50 Insufficient cpu. preemption: 0/150 nodes are available: 100 Preemption is not helpful for scheduling, 50 No preemption victims found for incoming pod.",
    },
    processed: 150,
  });
});

// ---- randomised: the cache agrees with the uncached path --------------------------------------

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCluster(seed: number) {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  /** Zones a and b; some nodes have no zone label (they are in no zone domain). */
  const zoneLabels = (): Record<string, string> => (r() < 0.15 ? {} : { zone: pick(['a', 'b']) });
  const nodes = Array.from({ length: 2 + Math.floor(r() * 8) }, (_, i) =>
    node(`node-${i}`, {
      cpu: pick(['1', '2', '4']),
      memory: pick(['1Gi', '2Gi', '4Gi']),
      pods: pick(['3', '5', '110']),
      labels: zoneLabels(),
      spec: {
        ...(r() < 0.2 ? { unschedulable: true } : {}),
        ...(r() < 0.3 ? { taints: [{ key: 'dedicated', value: pick(['gpu', 'db']), effect: pick(['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const) }] } : {}),
      },
    }),
  );
  const topologyKey = () => pick(['zone', 'kubernetes.io/hostname']);
  const appSelector = () => (r() < 0.1 ? undefined : r() < 0.1 ? {} : { matchLabels: { app: pick(['web', 'db']) } });
  const affinityTerm = () => ({
    topologyKey: topologyKey(),
    labelSelector: appSelector(),
    ...(r() < 0.2 ? { namespaces: [pick(['default', 'other'])] } : {}),
    ...(r() < 0.2 ? { namespaceSelector: r() < 0.3 ? {} : { matchLabels: { env: pick(['prod', 'dev']) } } } : {}),
    ...(r() < 0.2 ? { matchLabelKeys: ['version'] } : r() < 0.1 ? { mismatchLabelKeys: ['version'] } : {}),
  });
  const randomLabels = () => ({ app: pick(['web', 'db', 'cache']), ...(r() < 0.5 ? { version: pick(['v1', 'v2']) } : {}) });
  const randomPod = (name: string, assign: boolean): Pod => {
    const p = pod(name, {
      ...(assign ? { node: pick(nodes).metadata!.name! } : {}),
      ...(r() < 0.6 ? { cpu: pick(['100m', '500m', '1', '1500m']) } : {}),
      ...(r() < 0.5 ? { memory: pick(['128Mi', '512Mi', '1Gi']) } : {}),
      ...(r() < 0.3 ? { hostPort: pick([80, 443]), ...(r() < 0.5 ? { hostIP: pick(['127.0.0.1', '0.0.0.0']) } : {}) } : {}),
      ...(r() < 0.2 ? { phase: pick(['Running', 'Succeeded', 'Failed']) } : {}),
      spec: {
        ...(r() < 0.3 ? { nodeSelector: { zone: pick(['a', 'b', 'c']) } } : {}),
        ...(r() < 0.3 ? { tolerations: [{ key: 'dedicated', operator: 'Equal', value: pick(['gpu', 'db']), effect: pick(['NoSchedule', 'PreferNoSchedule'] as const) }] } : {}),
        ...(r() < 0.35
          ? {
              affinity: {
                ...(r() < 0.5 ? { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: pick([1, 50, 100]), preference: { matchExpressions: [{ key: 'zone', operator: 'In' as const, values: [pick(['a', 'b', 'c'])] }] } }] } } : {}),
                podAffinity: {
                  ...(r() < 0.5 ? { requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm(), ...(r() < 0.2 ? [affinityTerm()] : [])] } : {}),
                  ...(r() < 0.3 ? { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: pick([1, 50, 100]), podAffinityTerm: affinityTerm() }] } : {}),
                },
                podAntiAffinity: {
                  ...(r() < 0.6 ? { requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm()] } : {}),
                  ...(r() < 0.3 ? { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: pick([1, 50, 100]), podAffinityTerm: affinityTerm() }] } : {}),
                },
              },
            }
          : {}),
        ...(r() < 0.3
          ? {
              topologySpreadConstraints: Array.from({ length: 1 + Math.floor(r() * 2) }, () => ({
                maxSkew: pick([1, 1, 2]),
                topologyKey: topologyKey(),
                whenUnsatisfiable: pick(['DoNotSchedule', 'DoNotSchedule', 'ScheduleAnyway']),
                labelSelector: appSelector(),
                ...(r() < 0.2 ? { minDomains: pick([2, 3]) } : {}),
                ...(r() < 0.3 ? { nodeAffinityPolicy: pick(['Honor', 'Ignore']) } : {}),
                ...(r() < 0.3 ? { nodeTaintsPolicy: pick(['Honor', 'Ignore']) } : {}),
                ...(r() < 0.2 ? { matchLabelKeys: ['version'] } : {}),
              })),
            }
          : {}),
      },
    });
    p.metadata = { ...p.metadata, namespace: r() < 0.25 ? 'other' : 'default', labels: randomLabels() };
    return p;
  };
  return { r, pick, nodes, randomPod, randomLabels, zoneLabels };
}

const nsEvent = (type: WatchEvent['type'], name: string, labels: Record<string, string>): WatchEvent => ({ type, kind: 'Namespace', object: { metadata: { name, labels } } });

/** The pods a NodeInfo holds for InterPodAffinity and PodTopologySpread, as plain data. */
const podsView = (i: NodeInfo) => ({
  pods: Object.fromEntries(
    [...i.pods]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([ns, set]) => [ns, [...set].map((f) => `${f.name} ${JSON.stringify(f.labels)}${f.terminating ? ' terminating' : ''}`).sort()]),
  ),
  withRequiredAntiAffinity: [...i.podsWithRequiredAntiAffinity].map((f) => `${f.namespace}/${f.name}`).sort(),
});

test('on 200 randomised clusters (zones, hostnames, namespaces, PreferNoSchedule taints; pods with preferred node affinity, required and preferred inter-pod affinity and anti-affinity, spread constraints), every cached NodeInfo, filter result and decision equals the uncached path', () => {
  const decisions = new Map<string, number>();
  for (let seed = 1; seed <= 200; seed++) {
    const { r, pick, nodes, randomPod, randomLabels, zoneLabels } = randomCluster(seed);
    const cache = new SchedulerCache();
    const live = new Map<string, Pod>();
    const liveNs = new Map<string, Record<string, string>>([
      ['default', { 'kubernetes.io/metadata.name': 'default', env: 'prod' }],
      ['other', { 'kubernetes.io/metadata.name': 'other', env: 'dev' }],
    ]);
    let liveNodes = [...nodes];
    for (const [name, labels] of liveNs) cache.apply(nsEvent('ADDED', name, labels));
    for (const n of nodes) cache.apply(ev('ADDED', n));
    for (let step = 0; step < 40; step++) {
      const roll = r();
      if (roll < 0.45 || live.size === 0) {
        const p = randomPod(`p${step}`, r() < 0.8);
        live.set(p.metadata!.name!, p);
        cache.apply(ev('ADDED', p));
      } else if (roll < 0.6) {
        const p = live.get(pick([...live.keys()]))!;
        live.delete(p.metadata!.name!);
        cache.apply(ev('DELETED', p));
      } else if (roll < 0.7) {
        const old = live.get(pick([...live.keys()]))!;
        const p = { ...old, status: { phase: pick(['Running', 'Succeeded', 'Failed']) } };
        live.set(p.metadata!.name!, p);
        cache.apply(ev('MODIFIED', p));
      } else if (roll < 0.78) {
        // relabelled (kubectl label), or terminating (deletionTimestamp set by a graceful delete)
        const old = live.get(pick([...live.keys()]))!;
        const p = { ...old, metadata: r() < 0.6 ? { ...old.metadata, labels: randomLabels() } : { ...old.metadata, deletionTimestamp: '2026-11-23T10:00:00Z' } };
        live.set(p.metadata!.name!, p);
        cache.apply(ev('MODIFIED', p));
      } else if (roll < 0.82) {
        const name = pick(['default', 'other']);
        const labels = { 'kubernetes.io/metadata.name': name, env: pick(['prod', 'dev']) };
        liveNs.set(name, labels);
        cache.apply(nsEvent('MODIFIED', name, labels));
      } else if (roll < 0.9 && liveNodes.length > 1) {
        const n = pick(liveNodes);
        liveNodes = liveNodes.filter((x) => x !== n);
        cache.apply(ev('DELETED', n));
      } else {
        const gone = nodes.filter((n) => !liveNodes.includes(n));
        const n = gone.length ? pick(gone) : pick(liveNodes);
        const changed = node(n.metadata!.name!, { cpu: pick(['1', '2', '4']), labels: zoneLabels() });
        liveNodes = [...liveNodes.filter((x) => x.metadata!.name !== changed.metadata!.name), changed];
        cache.apply(ev(gone.includes(n) ? 'ADDED' : 'MODIFIED', changed));
      }
      const onNode = (name: string) => [...live.values()].filter((p) => p.spec?.nodeName === name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
      const byName = (a: { name?: string }, b: { name?: string }) => (a.name! < b.name! ? -1 : 1);
      const cached = cache.nodes().map(view).sort(byName as never);
      const fresh = liveNodes.map((n) => view(nodeInfoOf(n, onNode(n.metadata!.name!)))).sort(byName as never);
      assert.deepEqual(cached, fresh, `seed ${seed}, step ${step}: NodeInfos`);
      for (const n of liveNodes) {
        assert.deepEqual(podsView(cache.node(n.metadata!.name!)!), podsView(nodeInfoOf(n, onNode(n.metadata!.name!))), `seed ${seed}, step ${step}: pods of ${n.metadata!.name}`);
      }
      assert.deepEqual(
        [...cache.snapshot().withRequiredAntiAffinity!].map((i) => i.name).sort(),
        liveNodes.filter((n) => onNode(n.metadata!.name!).some((p) => p.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length)).map((n) => n.metadata!.name!).sort(),
        `seed ${seed}, step ${step}: nodes with required anti-affinity pods`,
      );
      const namespaces = (ns: string) => liveNs.get(ns) ?? { 'kubernetes.io/metadata.name': ns };
      const byNode = new Map(liveNodes.map((n) => [n.metadata!.name!, onNode(n.metadata!.name!)]));
      const probe = randomPod(`probe${step}`, false);
      const facts = podFacts(probe);
      const state = preFilter(facts, cache.nodes(), cache.snapshot());
      for (const n of liveNodes) {
        assert.deepEqual(
          filterNodeInfo(facts, cache.node(n.metadata!.name!)!, state),
          filterNode(probe, n, onNode(n.metadata!.name!), { nodes: liveNodes, podsByNode: byNode, namespaces }),
          `seed ${seed}, step ${step}: filters on ${n.metadata!.name}`,
        );
      }
      const decision = findNode(probe, cache.nodes(), 0, facts, cache.snapshot()).result;
      assert.deepEqual(decision, schedulePod(probe, liveNodes, byNode, namespaces), `seed ${seed}, step ${step}: decision`);
      const key = 'node' in decision ? 'bound' : (decision.error.match(/pod (affinity|anti-affinity|topology spread)|existing pods/g) ?? ['other failure']).join('+');
      decisions.set(key, (decisions.get(key) ?? 0) + 1);
    }
  }
  // the generator does reach the new filters' failures, not only the old ones
  for (const k of ['pod affinity', 'pod anti-affinity', 'existing pods', 'pod topology spread']) {
    assert.ok([...decisions.keys()].some((d) => d.includes(k)), `no decision failed on ${k}: ${JSON.stringify(Object.fromEntries(decisions))}`);
  }
});

// ---- the Scheduler over a Store: when waiting pods are tried again ------------------------------

async function lab(nodes: Node[]) {
  const clock = new FakeClock(Date.parse('2026-11-23T10:00:00Z'));
  const store = new Store(clock);
  for (const n of nodes) store.create('Node', n);
  const sched = new Scheduler(store, new EventRecorder(store, clock), clock);
  const placed = () => Object.fromEntries(store.list('Pod').map((p) => [p.metadata!.name!, p.spec?.nodeName ?? p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message ?? 'pending']));
  const failedScheduling = () => store.list('Event').filter((e) => e.reason === 'FailedScheduling').map((e) => `${e.involvedObject.name} ×${e.count}`);
  return { clock, store, sched, placed, failedScheduling };
}

const FULL = '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';

test('scheduler: pods are bound in creation order, each seeing the ones bound before it', async () => {
  const l = await lab([node('a', { cpu: '1' })]);
  l.store.create('Pod', pod('second', { cpu: '600m', created: '2026-11-23T10:00:02Z' }));
  l.store.create('Pod', pod('first', { cpu: '600m', created: '2026-11-23T10:00:01Z' }));
  await settle();
  assert.deepEqual(l.placed(), { second: FULL, first: 'a' });
  assert.deepEqual(l.failedScheduling(), ['second ×1']);
  l.sched.dispose();
});

test('scheduler: an unschedulable pod waits, is not tried again for a new pod, and is bound once an assigned pod is deleted and its 1 s back-off has passed', async () => {
  const l = await lab([node('a', { cpu: '1' })]);
  l.store.create('Pod', pod('big', { cpu: '800m', created: '2026-11-23T10:00:01Z' }));
  l.store.create('Pod', pod('late', { cpu: '800m', created: '2026-11-23T10:00:02Z' }));
  await settle();
  l.store.create('Pod', pod('other', { created: '2026-11-23T10:00:03Z', spec: { nodeSelector: { none: 'x' } } }));
  await settle();
  assert.deepEqual(l.failedScheduling(), ['late ×1', 'other ×1']);
  await l.clock.advanceAsync(400);
  l.store.delete('Pod', 'default', 'big');
  await settle();
  assert.deepEqual(l.placed(), { late: FULL, other: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling." }, 'still in its back-off 400 ms after the failed attempt');
  await l.clock.advanceAsync(599);
  assert.equal(l.placed().late, FULL, '1 ms before the back-off ends');
  await l.clock.advanceAsync(1);
  await settle();
  assert.deepEqual(l.placed(), { late: 'a', other: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling." });
  l.sched.dispose();
});

test('scheduler: an unschedulable pod is bound when an assigned pod completes, or when a node is added', async () => {
  const l = await lab([node('a', { cpu: '1' })]);
  l.store.create('Pod', pod('job', { cpu: '800m', created: '2026-11-23T10:00:01Z' }));
  l.store.create('Pod', pod('web', { cpu: '800m', created: '2026-11-23T10:00:02Z' }));
  l.store.create('Pod', pod('db', { cpu: '800m', created: '2026-11-23T10:00:03Z' }));
  await settle();
  await l.clock.advanceAsync(5000);
  l.store.update('Pod', 'default', 'job', (p) => void (p.status = { ...p.status, phase: 'Succeeded' }));
  await settle();
  assert.deepEqual(l.placed(), { job: 'a', web: 'a', db: FULL }, 'tried at once: both back-offs had passed');
  // db failed twice now: its back-off is 2 s from that attempt.
  await l.clock.advanceAsync(1500);
  l.store.create('Node', node('b', { cpu: '1' }));
  await settle();
  assert.deepEqual(l.placed(), { job: 'a', web: 'a', db: FULL }, 'in its 2 s back-off');
  await l.clock.advanceAsync(500);
  await settle();
  assert.deepEqual(l.placed(), { job: 'a', web: 'a', db: 'b' });
  l.sched.dispose();
});

test('scheduler: every failed attempt records FailedScheduling (counted on one event), the condition only changes with its message', async () => {
  const l = await lab([node('a', { cpu: '1' })]);
  l.store.create('Pod', pod('big', { cpu: '2', created: '2026-11-23T10:00:01Z' }));
  await settle();
  const since = l.store.get('Pod', 'default', 'big')!.status!.conditions!.find((c) => c.type === 'PodScheduled')!.lastTransitionTime;
  const rv = l.store.get('Pod', 'default', 'big')!.metadata!.resourceVersion;
  await l.clock.advanceAsync(5000);
  l.store.create('Node', node('b', { cpu: '1' }));
  await settle();
  const TWO = '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
  assert.deepEqual([l.placed(), l.failedScheduling()], [{ big: TWO }, ['big ×1', 'big ×1']], 'a new message: a new event');
  const rv2 = l.store.get('Pod', 'default', 'big')!.metadata!.resourceVersion;
  assert.notEqual(rv2, rv);
  await l.clock.advanceAsync(5000);
  l.store.update('Node', undefined, 'b', (n) => void (n.metadata!.labels = { ...n.metadata!.labels, touched: 'yes' }));
  await settle();
  assert.deepEqual([l.placed(), l.failedScheduling()], [{ big: TWO }, ['big ×1', 'big ×2']], 'the same message again: the event is counted');
  const after = l.store.get('Pod', 'default', 'big')!;
  assert.deepEqual([after.metadata!.resourceVersion, after.status!.conditions!.find((c) => c.type === 'PodScheduled')!.lastTransitionTime], [rv2, since], 'the pod itself is not written again');
  l.sched.dispose();
});

test('scheduler: a pod unschedulable for 5 minutes is tried again without a cluster event (podMaxInUnschedulablePodsDuration)', async () => {
  const l = await lab([node('a', { cpu: '1' })]);
  l.store.create('Pod', pod('big', { cpu: '2', created: '2026-11-23T10:00:01Z' }));
  await settle();
  await l.clock.advanceAsync(299_999);
  await settle();
  assert.deepEqual(l.failedScheduling(), ['big ×1']);
  await l.clock.advanceAsync(1);
  await settle();
  assert.deepEqual(l.failedScheduling(), ['big ×2']);
  await l.clock.advanceAsync(300_000);
  await settle();
  assert.deepEqual(l.failedScheduling(), ['big ×3']);
  l.sched.dispose();
});

test('scheduler: once disposed, a cycle already queued binds nothing and no retry timer fires', async () => {
  const l = await lab([node('a', { cpu: '1' })]);
  l.store.create('Pod', pod('big', { cpu: '2', created: '2026-11-23T10:00:01Z' }));
  await settle();
  l.store.create('Pod', pod('small', { created: '2026-11-23T10:00:02Z' }));
  l.sched.dispose();
  await settle();
  await l.clock.advanceAsync(600_000);
  await settle();
  assert.deepEqual([l.placed(), l.failedScheduling()], [{ big: FULL, small: 'pending' }, ['big ×1']]);
});

test('scheduler: a waiting pod that is itself updated (a toleration added) is tried again after its back-off, without a cluster event', async () => {
  const l = await lab([node('a', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } })]);
  l.store.create('Pod', pod('job', { created: '2026-11-23T10:00:01Z' }));
  await settle();
  assert.deepEqual(l.placed(), { job: '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.' });
  await l.clock.advanceAsync(400);
  l.store.update('Pod', 'default', 'job', (p) => void (p.spec!.tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }]));
  await settle();
  assert.equal(l.placed().job?.startsWith('0/1'), true, 'in its 1 s back-off');
  await l.clock.advanceAsync(600);
  await settle();
  assert.deepEqual(l.placed(), { job: 'a' });
  l.sched.dispose();
});

test('scheduler: a pod deleted while it waits is forgotten; pods already waiting when it starts are scheduled', async () => {
  const clock = new FakeClock(Date.parse('2026-11-23T10:00:00Z'));
  const store = new Store(clock);
  store.create('Pod', pod('early'));
  store.create('Pod', pod('gone'));
  store.create('Node', node('a'));
  const sched = new Scheduler(store, new EventRecorder(store, clock), clock);
  store.delete('Pod', 'default', 'gone');
  await settle();
  assert.deepEqual(
    store.list('Pod').map((p) => [p.metadata!.name, p.spec?.nodeName]),
    [['early', 'a']],
  );
  assert.deepEqual(
    store.list('Event').map((e) => `${e.reason} ${e.involvedObject.name}`),
    ['Scheduled early'],
  );
  sched.dispose();
});

// A node update wakes the pods waiting for a node only when it changes what scheduling reads
// (kube-scheduler's nodeSchedulingPropertiesChange): allocatable, labels, taints, unschedulable,
// the conditions' statuses, annotations. A heartbeat alone (the kubelet's status every 5 minutes)
// does not.
test('which node updates count as a change for waiting pods', () => {
  const base: Node = {
    metadata: { name: 'n', labels: { a: '1' } },
    status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-25T00:00:00Z', lastTransitionTime: '2026-11-25T00:00:00Z' }] },
  };
  const update = (change: (n: Node) => Node) => {
    const c = SchedulerCache.of([base], []);
    return c.apply({ type: 'MODIFIED', kind: 'Node', object: change(structuredClone(base)) } as WatchEvent).nodesChanged;
  };
  const cond = (n: Node, patch: object) => ({ ...n, status: { ...n.status, conditions: [{ ...n.status!.conditions![0]!, ...patch }] } });
  assert.deepEqual(
    {
      heartbeat: update((n) => cond(n, { lastHeartbeatTime: '2026-11-25T00:05:00Z' })),
      ready: update((n) => cond(n, { status: 'False', lastTransitionTime: '2026-11-25T00:05:00Z' })),
      label: update((n) => ({ ...n, metadata: { ...n.metadata, labels: { a: '2' } } })),
      allocatable: update((n) => ({ ...n, status: { ...n.status, allocatable: { cpu: '4', memory: '4Gi', pods: '110' } } })),
      taint: update((n) => ({ ...n, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } })),
      cordon: update((n) => ({ ...n, spec: { unschedulable: true } })),
      annotation: update((n) => ({ ...n, metadata: { ...n.metadata, annotations: { x: 'y' } } })),
    },
    { heartbeat: false, ready: true, label: true, allocatable: true, taint: true, cordon: true, annotation: true },
  );
});
