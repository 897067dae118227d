// The lab's default node as the kubelet's setNodeStatus describes its machine: the OS image and
// kernel the runtime reports (docker info's OperatingSystem and KernelVersion, from the host's
// /etc/os-release and uname -r as cadvisor reads them), not the host's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultNode, withTransitionTimesOf } from '../../src/engine/node.js';

const version = { runtimeName: 'docker', runtimeVersion: '26.1.5', cpus: 2, memoryBytes: 4 * 1024 ** 3, hostname: 'vm', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0-27-amd64' };

test('nodeInfo: the OS image and kernel as the runtime reports them', () => {
  assert.deepEqual(defaultNode(version, 0).status?.nodeInfo, {
    containerRuntimeVersion: 'docker://26.1.5',
    kubeletVersion: 'podlab',
    kubeProxyVersion: '',
    architecture: process.arch === 'x64' ? 'amd64' : process.arch,
    operatingSystem: 'linux',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    kernelVersion: '6.1.0-27-amd64',
    bootID: '',
    machineID: '',
    systemUUID: '',
  });
});

const arch = process.arch === 'x64' ? 'amd64' : process.arch;
const NOW = Date.UTC(2026, 10, 25, 2, 0, 0);
const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

// The kubelet's initial node labels (kubelet_node_status.go initialNode: hostname, the stable and
// the beta os and arch) and its four conditions (setNodeStatus: MemoryPressure, DiskPressure,
// PIDPressure, Ready, each with the kubelet's reason and message and a heartbeat), the capacity as
// the machine's (canonical quantities: whole MiB show as Mi) and the allocatable less the default
// hard eviction thresholds (memory.available<100Mi, nodefs.available<10% of the root filesystem's
// ephemeral-storage, the lab's state directory standing for the kubelet's root).
test('labels, conditions, capacity and allocatable as a kubelet registers its node', () => {
  const n = defaultNode({ ...version, memoryBytes: 4 * 1024 ** 3 }, NOW, { rootFsBytes: 250_000_000_000 });
  const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, lastHeartbeatTime: at(NOW), lastTransitionTime: at(NOW), reason, message });
  assert.deepEqual(
    { labels: n.metadata?.labels, conditions: n.status?.conditions, capacity: n.status?.capacity, allocatable: n.status?.allocatable },
    {
      labels: {
        'beta.kubernetes.io/arch': arch,
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': arch,
        'kubernetes.io/hostname': 'podlab-node',
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'podlab',
      },
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      capacity: { cpu: '2', 'ephemeral-storage': '244140625Ki', memory: '4Gi', pods: '110' },
      allocatable: { cpu: '2', 'ephemeral-storage': '225000000000', memory: '3996Mi', pods: '110' },
    },
  );
});

test('a node registered again keeps the transition times of the conditions that did not change, with a new heartbeat', () => {
  const before = defaultNode(version, NOW);
  const again = withTransitionTimesOf(before, defaultNode(version, NOW + 60_000));
  assert.deepEqual(
    again.status?.conditions?.map((c) => [c.type, c.lastHeartbeatTime, c.lastTransitionTime]),
    ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((t) => [t, at(NOW + 60_000), at(NOW)]),
  );
});

test('memory of no whole MiB in Ki, and no ephemeral-storage when the root filesystem is unknown', () => {
  const n = defaultNode({ ...version, memoryBytes: 24684084 * 1024 }, NOW);
  assert.deepEqual([n.status?.capacity, n.status?.allocatable], [
    { cpu: '2', memory: '24684084Ki', pods: '110' },
    { cpu: '2', memory: '24581684Ki', pods: '110' },
  ]);
});

// The kubelet posts its node status at least every nodeStatusReportFrequency (5 minutes) even when
// nothing changed: the heartbeats move, the transition times stay. On the fake runtime and clock.
test("the lab's kubelet posts the node's heartbeat every 5 minutes", async () => {
  const { fakeLab } = await import('../support/fake-engine.js');
  const lab = await fakeLab();
  try {
    const times = () => lab.engine.listNodes()[0]?.status?.conditions?.map((c) => [c.type, c.lastHeartbeatTime, c.lastTransitionTime]);
    const t0 = lab.clock.now();
    const first = times();
    await lab.clock.advanceAsync(5 * 60_000);
    assert.deepEqual([first, times()], [
      ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((t) => [t, at(t0), at(t0)]),
      ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((t) => [t, at(t0 + 5 * 60_000), at(t0)]),
    ]);
  } finally {
    await lab.close();
  }
});
