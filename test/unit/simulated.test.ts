// Simulated nodes: the pure timeline (src/engine/simulated/stages.ts) and the simulated kubelet in
// an engine on the fake runtime and the fake clock — statuses the real kubelet would write, and no
// runtime call for a simulated pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { planSettings, restartDelay, simulatedRuntime, type SimulationPlan } from '../../src/engine/simulated/stages.js';
import { generatePodStatus } from '../../src/engine/kubelet/status.js';
import { podStatusText, readyText } from '../../src/engine/printer.js';
import { fakeLab, podOf, stateOf } from '../support/fake-engine.js';
import { settle } from '../../src/engine/clock.js';
import { SimulatedNodeAnnotation } from '../../src/shared/labels.js';
import { buildPanelModel, newObservation } from '../../src/extension/panel/model.js';
import { podRow } from '../../src/extension/podModel.js';
import { describePod } from '../../src/engine/describe.js';
import { nodeTable, simulatedNodes } from '../../src/cli/nodes-command.js';

const T0 = Date.parse('2026-11-23T10:00:00Z');
const sec = 1000;

const simPod = (spec: Parameters<typeof podOf>[0], annotations: Record<string, string> = {}, name = 'p'): Pod => {
  const p = podOf(spec, name);
  return { ...p, metadata: { ...p.metadata, namespace: 'default', uid: '1234abcd-0000-0000-0000-000000000000', annotations }, spec: { ...p.spec!, nodeName: 'sim-1' } };
};

const plan = (extra: Partial<SimulationPlan> = {}): SimulationPlan => ({ boundAt: T0, startAt: T0 + sec, ip: '10.244.0.7', backoffInitialMs: 10 * sec, backoffMaxMs: 300 * sec, ...extra });

/** What `kubectl get pods` and the container states say at `t` seconds after the bind. */
function at(pod: Pod, p: SimulationPlan, t: number): string {
  const now = T0 + t * sec;
  const sim = simulatedRuntime(pod, p, now);
  const status = generatePodStatus({ pod, runtime: sim.runtime, reasonCache: sim.reasons, podIsTerminal: false, now });
  const shown = { ...pod, status };
  const states = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])].map((c) => `${c.name}=${stateOf(shown, c.name)}#${c.restartCount}`).join(' ');
  return `${status.phase} ${podStatusText(shown)} ${readyText(shown)} ip=${status.podIP ?? '-'} ${states}${sim.next !== undefined ? ` next=+${(sim.next - T0) / sec}s` : ''}`;
}

const timelines: { name: string; pod: Pod; plan?: Partial<SimulationPlan>; times: number[]; want: string[] }[] = [
  {
    name: 'a plain pod is ContainerCreating with its IP until the start delay, then Running and ready, and never changes again',
    pod: simPod({ containers: [{ name: 'app' }] }),
    times: [0, 0.5, 1, 3600],
    want: [
      'Pending ContainerCreating 0/1 ip=10.244.0.7 app=waiting:ContainerCreating#0 next=+1s',
      'Pending ContainerCreating 0/1 ip=10.244.0.7 app=waiting:ContainerCreating#0 next=+1s',
      'Running Running 1/1 ip=10.244.0.7 app=running#0',
      'Running Running 1/1 ip=10.244.0.7 app=running#0',
    ],
  },
  {
    name: 'init containers complete at the start, in order; a sidecar runs and counts in READY',
    pod: simPod({ initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] }),
    times: [0, 1],
    want: [
      'Pending Init:0/2 0/2 ip=10.244.0.7 setup=waiting:PodInitializing#0 proxy=waiting:PodInitializing#0 app=waiting:PodInitializing#0 next=+1s',
      'Running Running 2/2 ip=10.244.0.7 setup=terminated:Completed/0#0 proxy=running#0 app=running#0',
    ],
  },
  {
    name: 'exit 1 after 5s under restartPolicy Always: the first restart at once, then CrashLoopBackOff 10s, 20s',
    pod: simPod({ containers: [{ name: 'app' }] }, { 'lab.podlab.dev/simulated-exit-code': '1', 'lab.podlab.dev/simulated-exit-after': '5s' }),
    plan: { exit: { code: 1, afterMs: 5 * sec } },
    times: [5, 6, 11, 12, 21, 26, 27, 46],
    want: [
      'Running Running 1/1 ip=10.244.0.7 app=running#0 next=+6s',
      'Running Running 1/1 ip=10.244.0.7 app=running#1 next=+11s',
      'Running CrashLoopBackOff 0/1 ip=10.244.0.7 app=waiting:CrashLoopBackOff#1 next=+21s',
      'Running CrashLoopBackOff 0/1 ip=10.244.0.7 app=waiting:CrashLoopBackOff#1 next=+21s',
      'Running Running 1/1 ip=10.244.0.7 app=running#2 next=+26s',
      'Running CrashLoopBackOff 0/1 ip=10.244.0.7 app=waiting:CrashLoopBackOff#2 next=+46s',
      'Running CrashLoopBackOff 0/1 ip=10.244.0.7 app=waiting:CrashLoopBackOff#2 next=+46s',
      'Running Running 1/1 ip=10.244.0.7 app=running#3 next=+51s',
    ],
  },
  {
    name: 'exit 0 under restartPolicy Never: Completed and Succeeded, then nothing more',
    pod: simPod({ restartPolicy: 'Never', containers: [{ name: 'app' }] }),
    plan: { exit: { code: 0, afterMs: 2 * sec } },
    times: [2, 3, 600],
    // The kubelet stops a finished pod's sandbox: no pod IP from then on, as on the Docker node.
    want: ['Running Running 1/1 ip=10.244.0.7 app=running#0 next=+3s', 'Succeeded Completed 0/1 ip=- app=terminated:Completed/0#0', 'Succeeded Completed 0/1 ip=- app=terminated:Completed/0#0'],
  },
  {
    name: 'a sidecar ends with the pod: when the app has exited for good it is stopped too (exit 0), and the pod is Succeeded',
    pod: simPod({ restartPolicy: 'Never', initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] }),
    plan: { exit: { code: 0, afterMs: 2 * sec } },
    times: [2, 3, 600],
    want: [
      'Running Running 2/2 ip=10.244.0.7 proxy=running#0 app=running#0 next=+3s',
      'Succeeded Completed 0/2 ip=- proxy=terminated:Completed/0#0 app=terminated:Completed/0#0',
      'Succeeded Completed 0/2 ip=- proxy=terminated:Completed/0#0 app=terminated:Completed/0#0',
    ],
  },
  {
    name: 'exit 3 under restartPolicy OnFailure restarts; exit 0 under OnFailure completes',
    pod: simPod({ restartPolicy: 'OnFailure', containers: [{ name: 'app' }] }),
    plan: { exit: { code: 3, afterMs: 2 * sec } },
    times: [3, 5],
    want: ['Running Running 1/1 ip=10.244.0.7 app=running#1 next=+5s', 'Running CrashLoopBackOff 0/1 ip=10.244.0.7 app=waiting:CrashLoopBackOff#1 next=+15s'],
  },
];

for (const c of timelines) {
  test(`timeline: ${c.name}`, () => {
    assert.deepEqual(
      c.times.map((t) => at(c.pod, plan(c.plan), t)),
      c.want,
    );
  });
}

test('timeline: a finished pod’s sandbox is stopped when its last container ends: PodReadyToStartContainers turns False', () => {
  const pod = simPod({ restartPolicy: 'Never', containers: [{ name: 'a' }, { name: 'b' }] });
  const p = plan({ exit: { code: 1, afterMs: 2 * sec } });
  const readyToStart = (t: number) => {
    const sim = simulatedRuntime(pod, p, T0 + t * sec);
    const status = generatePodStatus({ pod, runtime: sim.runtime, reasonCache: sim.reasons, podIsTerminal: false, now: T0 + t * sec });
    return `${sim.runtime.sandboxes.map((s) => s.state).join(',')} ${status.phase} ${status.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status}`;
  };
  assert.deepEqual([0, 2.9, 3, 60].map(readyToStart), ['SANDBOX_READY Pending True', 'SANDBOX_READY Running True', 'SANDBOX_NOTREADY Failed False', 'SANDBOX_NOTREADY Failed False']);
});

test('timeline: a crash-looping pod keeps its sandbox', () => {
  const pod = simPod({ containers: [{ name: 'app' }] });
  const sim = simulatedRuntime(pod, plan({ exit: { code: 1, afterMs: 2 * sec } }), T0 + 3.5 * sec);
  assert.deepEqual(sim.runtime.sandboxes.map((s) => s.state), ['SANDBOX_READY']);
});

test('timeline: the CrashLoopBackOff message is the kubelet’s, with format.Pod and the back-off in Go’s duration form', () => {
  const pod = simPod({ containers: [{ name: 'app' }] });
  const sim = simulatedRuntime(pod, plan({ exit: { code: 1, afterMs: 5 * sec } }), T0 + 12 * sec);
  assert.deepEqual(Object.fromEntries(sim.reasons), {
    app: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=app pod=p_default(1234abcd-0000-0000-0000-000000000000)', backoff: { delayMs: 10 * sec, until: T0 + 21 * sec } },
  });
});

test('restartDelay: at once, then 10s doubling to the 300s cap', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map((k) => restartDelay(k, 10 * sec, 300 * sec) / sec),
    [0, 10, 20, 40, 80, 160, 300, 300],
  );
});

test('planSettings: durations in Go’s syntax; a bad value is named and ignored', () => {
  const node = (a: Record<string, string>): Node => ({ metadata: { name: 'n', annotations: { [SimulatedNodeAnnotation]: 'true', ...a } } });
  const withAnn = (a: Record<string, string>) => simPod({ containers: [{ name: 'app' }] }, a);
  assert.deepEqual(
    [
      planSettings(withAnn({}), node({})),
      planSettings(withAnn({ 'lab.podlab.dev/simulated-exit-code': '2', 'lab.podlab.dev/simulated-exit-after': '1m30s' }), node({ 'lab.podlab.dev/simulated-start-delay': '250ms' })),
      planSettings(withAnn({ 'lab.podlab.dev/simulated-exit-code': '256' }), node({ 'lab.podlab.dev/simulated-start-delay': '5' })),
      planSettings(withAnn({ 'lab.podlab.dev/simulated-exit-after': '3s' }), node({})),
    ],
    [
      { startDelayMs: 1000, problems: [] },
      { startDelayMs: 250, exit: { code: 2, afterMs: 90_000 }, problems: [] },
      {
        startDelayMs: 1000,
        problems: ['lab.podlab.dev/simulated-start-delay: time: missing unit in duration "5"; using 1s', 'lab.podlab.dev/simulated-exit-code: "256" is not an exit code (0 to 255); the containers run on'],
      },
      { startDelayMs: 1000, problems: ['lab.podlab.dev/simulated-exit-after has no effect without lab.podlab.dev/simulated-exit-code'] },
    ],
  );
});

// ---- the simulated kubelet in an engine --------------------------------------------------------

const simulatedNode = (name: string, extra: Partial<Node> = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, zone: 'b' }, annotations: { [SimulatedNodeAnnotation]: 'true' } },
  ...extra,
});

test('engine: a simulated node gets its status posted; a pod steered there runs there with no runtime call, next to a real pod', async () => {
  const lab = await fakeLab();
  try {
    lab.engine.store.create('Node', simulatedNode('sim-1'));
    await settle();
    const node = lab.engine.store.get('Node', undefined, 'sim-1')!;
    assert.deepEqual(
      { capacity: node.status?.capacity, allocatable: node.status?.allocatable, ready: node.status?.conditions?.map((c) => `${c.type}=${c.status} ${c.reason}`), addresses: node.status?.addresses, version: node.status?.nodeInfo?.kubeletVersion },
      {
        capacity: { cpu: '4', memory: '16Gi', pods: '110' },
        allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
        ready: ['Ready=True KubeletReady'],
        addresses: [
          { type: 'InternalIP', address: '10.240.0.1' },
          { type: 'Hostname', address: 'sim-1' },
        ],
        version: 'podlab-simulated',
      },
    );
    const callsBefore = lab.rt.calls.length;
    await lab.engine.createPod({ ...podOf({ containers: [{ name: 'app', command: ['sleep', '3600'] }], nodeSelector: { zone: 'b' } }, 'sim') });
    await settle();
    assert.equal(lab.pod('sim')?.spec?.nodeName, 'sim-1');
    assert.equal(stateOf(lab.pod('sim'), 'app'), 'waiting:ContainerCreating');
    assert.equal(lab.pod('sim')?.status?.podIP, '10.244.0.1');
    assert.equal(lab.pod('sim')?.status?.hostIP, '10.240.0.1');
    await lab.clock.advanceAsync(1000);
    await settle();
    assert.equal(podStatusText(lab.pod('sim')!), 'Running');
    assert.deepEqual(lab.rt.calls.slice(callsBefore).filter((c) => JSON.stringify(c.args).includes(lab.pod('sim')!.metadata!.uid!)), [], 'no runtime call names the simulated pod');
    // A real pod steered to the Docker node is run there as before.
    await lab.engine.createPod(podOf({ containers: [{ name: 'app', command: ['sleep', '3600'] }], nodeSelector: { 'kubernetes.io/hostname': 'podlab-node' } }, 'real'));
    await settle();
    await lab.clock.advanceAsync(1000);
    await settle();
    assert.equal(lab.pod('real')?.spec?.nodeName, 'podlab-node');
    assert.ok(lab.rt.calls.some((c) => c.method === 'runPodSandbox'), 'the real pod got a sandbox');
    assert.deepEqual(lab.events('sim'), [], 'the simulated kubelet records no kubelet event');
  } finally {
    await lab.close();
  }
});

test('engine: deleting a simulated pod removes it at once and frees its IP; a restarted engine keeps the node', async () => {
  const lab = await fakeLab();
  try {
    lab.engine.store.create('Node', simulatedNode('sim-1'));
    await settle();
    await lab.engine.createPod(podOf({ containers: [{ name: 'app' }], nodeName: 'sim-1' }, 'a'));
    await settle();
    await lab.engine.deletePod('default', 'a', 30);
    assert.equal(lab.pod('a'), undefined);
    await lab.engine.createPod(podOf({ containers: [{ name: 'app' }], nodeName: 'sim-1' }, 'b'));
    await settle();
    assert.equal(lab.pod('b')?.status?.podIP, '10.244.0.2', 'addresses are handed out in order, not reused at once');
    assert.equal(lab.engine.simulated?.podCount(), 1);
    await assert.rejects(lab.engine.logs('default', 'b', 'app'), { message: 'pod "b" runs on the simulated node "sim-1": its containers are simulated and have no logs' });
  } finally {
    await lab.close();
  }
});

// ---- how the lab's tools label simulated pods ----------------------------------------------------


test('labels: the panel’s notice, the tree row and describe’s Node line name a simulated node; a Docker-node pod gets none', () => {
  const pod: Pod = { ...simPod({ containers: [{ name: 'app' }] }), status: { phase: 'Running', hostIP: '10.240.0.1' } };
  const onDocker: Pod = { ...pod, spec: { ...pod.spec!, nodeName: 'podlab-node' } };
  const obs = { ...newObservation('default', 'p'), pod, simulatedNodes: ['sim-1'] };
  const notices = (p: Pod) => buildPanelModel({ ...obs, pod: p }, T0).notices.map((n) => `${n.kind}: ${n.title}`);
  assert.deepEqual(
    {
      panel: notices(pod),
      panelDocker: notices(onDocker),
      tree: podRow(pod, T0, undefined, true).description.split(' · ')[0],
      treeDocker: podRow(onDocker, T0).description.split(' · ')[0],
      describe: describePod(pod, [], T0, { simulatedNode: true }).split('\n').find((l) => l.startsWith('Node:')),
    },
    {
      panel: ['simulated: Simulated: node sim-1 runs no containers'],
      panelDocker: [],
      tree: 'simulated',
      treeDocker: 'Running',
      describe: 'Node:             sim-1/10.240.0.1 (simulated: no containers run)',
    },
  );
});

test('podlab nodes add: names continue past the taken ones, zones go round-robin, taints and the start delay are kept', () => {
  const made = simulatedNodes({ count: 3, prefix: 'sim', cpu: '2', memory: '8Gi', pods: '20', zones: ['a', 'b'], taints: [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }], startDelay: '2s', taken: new Set(['sim-2']) });
  assert.deepEqual(
    made.map((n) => [n.metadata?.name, n.metadata?.labels?.['topology.kubernetes.io/zone'], n.metadata?.annotations, n.spec?.taints?.length, n.status?.allocatable]),
    [
      ['sim-1', 'a', { 'lab.podlab.dev/simulated': 'true', 'lab.podlab.dev/simulated-start-delay': '2s' }, 1, { cpu: '2', memory: '8Gi', pods: '20' }],
      ['sim-3', 'b', { 'lab.podlab.dev/simulated': 'true', 'lab.podlab.dev/simulated-start-delay': '2s' }, 1, { cpu: '2', memory: '8Gi', pods: '20' }],
      ['sim-4', 'a', { 'lab.podlab.dev/simulated': 'true', 'lab.podlab.dev/simulated-start-delay': '2s' }, 1, { cpu: '2', memory: '8Gi', pods: '20' }],
    ],
  );
  const docker: Node = { metadata: { name: 'podlab-node', creationTimestamp: '2026-11-23T09:00:00Z' }, status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } };
  const sim: Node = { ...made[0]!, metadata: { ...made[0]!.metadata, creationTimestamp: '2026-11-23T09:59:00Z' }, status: { ...made[0]!.status, conditions: [{ type: 'Ready', status: 'True' }] } };
  assert.equal(
    nodeTable([sim, docker], [simPod({ containers: [{ name: 'app' }] })], T0),
    ['NAME          STATUS   KIND        PODS    CPU   MEMORY   ZONE     AGE', 'podlab-node   Ready    docker      0/110   2     4Gi      <none>   60m', 'sim-1         Ready    simulated   1/20    2     8Gi      a        60s', ''].join('\n'),
  );
});
