// The scheduler's queue over a real Store for pods that failed on InterPodAffinity or
// PodTopologySpread: such a pod waits as unschedulable and is tried again when a placed pod may let
// it in (a pod bound that its affinity or spread selects, a placed pod relabelled or deleted, a
// namespace relabelled), and not for pods that cannot change its verdict. Each test records how
// many times each pod was tried (the queue reads the pod from the store once per attempt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, PodAffinityTerm, TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { Scheduler, backoffUntil } from '../../src/engine/scheduler/scheduler.js';
import { Store } from '../../src/engine/store.js';
import { EventRecorder } from '../../src/engine/events.js';
import { FakeClock, settle } from '../../src/engine/clock.js';

const node = (name: string, labels: Record<string, string> = {}, cpu = '2'): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec: {},
  status: { allocatable: { cpu, memory: '4Gi', pods: '110' } },
});

let clockSeconds = 0;
const pod = (
  name: string,
  o: { ns?: string; labels?: Record<string, string>; node?: string; cpu?: string; nodeSelector?: Record<string, string>; affinity?: PodAffinityTerm[]; anti?: PodAffinityTerm[]; spread?: TopologySpreadConstraint[] } = {},
): Pod => ({
  metadata: { name, namespace: o.ns ?? 'default', creationTimestamp: `2026-11-23T10:00:${String(++clockSeconds % 60).padStart(2, '0')}Z`, ...(o.labels ? { labels: o.labels } : {}) },
  spec: {
    ...(o.node ? { nodeName: o.node } : {}),
    ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
    containers: [{ name: 'c', image: 'busybox:1.35', ...(o.cpu ? { resources: { requests: { cpu: o.cpu } } } : {}) }],
    ...(o.affinity || o.anti
      ? {
          affinity: {
            ...(o.affinity ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.affinity } } : {}),
            ...(o.anti ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.anti } } : {}),
          },
        }
      : {}),
    ...(o.spread ? { topologySpreadConstraints: o.spread } : {}),
  },
  status: { phase: 'Pending' },
});

const HOST = 'kubernetes.io/hostname';

function lab(nodes: Node[]) {
  clockSeconds = 0;
  const clock = new FakeClock(Date.parse('2026-11-23T10:00:00Z'));
  const store = new Store(clock);
  for (const n of nodes) store.create('Node', n);
  // Every scheduling attempt reads the pod from the store first (Scheduler.drain).
  const attempts = new Map<string, number>();
  const get = store.get.bind(store);
  store.get = ((kind, ns, name) => {
    if (kind === 'Pod') attempts.set(name, (attempts.get(name) ?? 0) + 1);
    return get(kind, ns, name);
  }) as Store['get'];
  const sched = new Scheduler(store, new EventRecorder(store, clock), clock);
  const placed = () => Object.fromEntries(store.list('Pod').map((p) => [p.metadata!.name!, p.spec?.nodeName ?? p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message ?? 'pending']));
  const tries = (...names: string[]) => Object.fromEntries(names.map((n) => [n, attempts.get(n) ?? 0]));
  /** Binds a pod as another client would (the binding subresource): spec.nodeName set on the stored pod. */
  const bind = (name: string, nodeName: string, ns = 'default') => store.update('Pod', ns, name, (p) => void (p.spec!.nodeName = nodeName));
  /** Lets any pod's scheduling back-off (1 s doubling to 10 s) run out, so a move is tried at once. */
  const afterBackoff = () => clock.advanceAsync(10_000);
  return { store, sched, placed, tries, bind, afterBackoff };
}

test('scheduler: a pod waiting for its required affinity is not tried again when an unrelated pod is bound, and is bound next to the matching pod once one is', async () => {
  const l = lab([node('a'), node('b')]);
  l.store.create('Pod', pod('front', { affinity: [{ topologyKey: HOST, labelSelector: { matchLabels: { app: 'db' } } }] }));
  await settle();
  const NO_DB = "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
  assert.deepEqual(l.placed(), { front: NO_DB });
  await l.afterBackoff();
  l.store.create('Pod', pod('cache', { labels: { app: 'cache' } }));
  await settle();
  assert.deepEqual([l.placed(), l.tries('front')], [{ front: NO_DB, cache: 'a' }, { front: 1 }]);
  await l.afterBackoff();
  l.store.create('Pod', pod('db', { labels: { app: 'db' }, nodeSelector: { 'kubernetes.io/hostname': 'b' } }));
  await settle();
  assert.deepEqual([l.placed(), l.tries('front')], [{ front: 'b', cache: 'a', db: 'b' }, { front: 2 }]);
  l.sched.dispose();
});

test('scheduler: a pod held by its spread constraint is tried again when a pod its selector matches is bound in the other zone, not for another pod', async () => {
  const l = lab([node('a', { zone: 'z1' }), node('b', { zone: 'z2' }, '500m')]);
  l.store.create('Pod', pod('web-1', { labels: { app: 'web' }, node: 'a' }));
  const spread: TopologySpreadConstraint[] = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }];
  l.store.create('Pod', pod('web-2', { labels: { app: 'web' }, cpu: '800m', spread }));
  // two pods nobody can place (no node has the label): another client binds them to b
  l.store.create('Pod', pod('batch', { labels: { app: 'batch' }, nodeSelector: { pool: 'none' } }));
  l.store.create('Pod', pod('web-edge', { labels: { app: 'web' }, nodeSelector: { pool: 'none' } }));
  await settle();
  const HELD =
    "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";
  const NOWHERE = "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
  assert.deepEqual(l.placed(), { 'web-1': 'a', 'web-2': HELD, batch: NOWHERE, 'web-edge': NOWHERE });
  assert.deepEqual(l.tries('web-2'), { 'web-2': 1 });
  await l.afterBackoff();
  l.bind('batch', 'b');
  await settle();
  assert.deepEqual([l.placed()['web-2'], l.tries('web-2', 'web-edge')], [HELD, { 'web-2': 1, 'web-edge': 1 }], 'a pod its selector does not match changes nothing; the node-selector pod is not tried either');
  await l.afterBackoff();
  l.bind('web-edge', 'b');
  await settle();
  // zones z1 and z2 hold one web pod each: z1 no longer exceeds the skew
  assert.deepEqual([l.placed(), l.tries('web-2')], [{ 'web-1': 'a', 'web-2': 'a', batch: 'b', 'web-edge': 'b' }, { 'web-2': 2 }]);
  l.sched.dispose();
});

test('scheduler: a pod kept off by its anti-affinity is not tried again when a pod is bound, and is bound once the pod it avoids is relabelled', async () => {
  const l = lab([node('a')]);
  l.store.create('Pod', pod('web-1', { labels: { app: 'web' }, node: 'a' }));
  l.store.create('Pod', pod('web-2', { labels: { app: 'web' }, anti: [{ topologyKey: HOST, labelSelector: { matchLabels: { app: 'web' } } }] }));
  await settle();
  const HELD = "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
  assert.deepEqual(l.placed(), { 'web-1': 'a', 'web-2': HELD });
  await l.afterBackoff();
  l.store.create('Pod', pod('db', { labels: { app: 'db' } }));
  await settle();
  assert.deepEqual([l.placed(), l.tries('web-2')], [{ 'web-1': 'a', 'web-2': HELD, db: 'a' }, { 'web-2': 1 }], 'a pod more never lifts an anti-affinity rule');
  await l.afterBackoff();
  l.store.update('Pod', 'default', 'web-1', (p) => void (p.metadata!.labels = { app: 'web-old' }));
  await settle();
  assert.deepEqual([l.placed(), l.tries('web-2')], [{ 'web-1': 'a', 'web-2': 'a', db: 'a' }, { 'web-2': 2 }]);
  l.sched.dispose();
});

test("scheduler: a pod kept off by a placed pod's anti-affinity is bound once that pod is deleted", async () => {
  const l = lab([node('a')]);
  l.store.create('Pod', pod('loner', { node: 'a', anti: [{ topologyKey: HOST, labelSelector: { matchLabels: { app: 'web' } } }] }));
  l.store.create('Pod', pod('web', { labels: { app: 'web' } }));
  await settle();
  assert.deepEqual(l.placed(), {
    loner: 'a',
    web: "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
  });
  await l.afterBackoff();
  l.store.delete('Pod', 'default', 'loner');
  await settle();
  assert.deepEqual(l.placed(), { web: 'a' });
  l.sched.dispose();
});

test("scheduler: a pod whose affinity selects namespaces by label is tried again when a namespace's labels change", async () => {
  const l = lab([node('a'), node('b')]);
  l.store.create('Namespace', { metadata: { name: 'data', labels: { 'kubernetes.io/metadata.name': 'data' } } });
  l.store.create('Pod', pod('db', { ns: 'data', labels: { app: 'db' }, node: 'b' }));
  l.store.create('Pod', pod('front', { affinity: [{ topologyKey: HOST, labelSelector: { matchLabels: { app: 'db' } }, namespaceSelector: { matchLabels: { tier: 'data' } } }] }));
  await settle();
  assert.deepEqual(l.placed(), {
    db: 'b',
    front: "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
  });
  await l.afterBackoff();
  l.store.update('Namespace', undefined, 'data', (ns) => void (ns.metadata!.labels = { ...ns.metadata!.labels, tier: 'data' }));
  await settle();
  assert.deepEqual([l.placed(), l.tries('front')], [{ db: 'b', front: 'b' }, { front: 2 }]);
  l.sched.dispose();
});

// Upstream's calculateBackoffDuration with podInitialBackoffSeconds 1 and podMaxBackoffSeconds 10.
const backoffCases: [string, number, number][] = [
  ['after the first failed attempt a pod waits 1 s', 1, 1000],
  ['after the second, 2 s', 2, 2000],
  ['after the third, 4 s', 3, 4000],
  ['after the fourth, 8 s', 4, 8000],
  ['after the fifth, the 10 s maximum', 5, 10_000],
  ['after the fiftieth, still 10 s', 50, 10_000],
];
for (const [name, attempts, wait] of backoffCases) test(`scheduler back-off: ${name}`, () => assert.equal(backoffUntil(attempts, 5000) - 5000, wait));

test('scheduler: a FailedScheduling message over 1024 characters is cut in the event only; the PodScheduled condition keeps it whole', async () => {
  // 40 nodes with a taint each, every key different: 40 distinct reasons, a message of ~2 KB.
  const keys = Array.from({ length: 40 }, (_, i) => `example.com/dedicated-to-team-${String(i).padStart(2, '0')}`);
  const l = lab(keys.map((key, i) => ({ ...node(`n${String(i).padStart(2, '0')}`), spec: { taints: [{ key, value: 'yes', effect: 'NoSchedule' as const }] } })));
  l.store.create('Pod', pod('web'));
  await settle();
  const whole = `0/40 nodes are available: ${keys.map((k) => `1 node(s) had untolerated taint {${k}: yes}`).join(', ')}. preemption: 0/40 nodes are available: 40 Preemption is not helpful for scheduling.`;
  const events = l.store.list('Event').filter((e) => e.reason === 'FailedScheduling');
  assert.deepEqual(
    [l.placed(), events.map((e) => e.message)],
    [{ web: whole }, [`${whole.slice(0, 1020)} ...`]],
  );
  l.sched.dispose();
});
