// The node's IP as the pods see it: the default node's InternalIP is the Docker host's address on
// the pods' network (the default bridge's gateway), as a kubelet's node IP is the machine's address
// its pods reach; each pod's status.hostIP(s), a hostNetwork pod's IP and the downward API's
// status.hostIP are its node's InternalIP (the kubelet's getHostIPsAnyWay reads the node object).
// On the recording fake runtime, which reports 172.18.0.1 as that address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1';
import { fakeLab, podOf } from '../support/fake-engine.js';
import type { ContainerConfig } from '../../src/runtime/cri.js';

const sec = 1000;
const hostIPEnv = { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } };

async function run(opts: { nodes?: Node[]; spec?: Record<string, unknown> } = {}) {
  const lab = await fakeLab(opts.nodes ? { nodes: opts.nodes } : {});
  try {
    await lab.engine.createPod(podOf({ ...opts.spec, containers: [{ name: 'app', env: [hostIPEnv] }] }));
    await lab.clock.advanceAsync(1 * sec);
    const p = lab.pod();
    const created = lab.rt.calls.find((c) => c.method === 'createContainer')?.args[0] as ContainerConfig | undefined;
    return {
      nodeAddresses: lab.engine.listNodes().map((n) => [n.metadata?.name, n.status?.addresses]),
      hostIP: p?.status?.hostIP,
      hostIPs: p?.status?.hostIPs,
      podIP: p?.status?.podIP,
      env: created?.envs.find((e) => e.key === 'HOST_IP')?.value,
    };
  } finally {
    await lab.close();
  }
}

const node = (name: string, addresses: { type: string; address: string }[]): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { capacity: { cpu: '2', memory: '4Gi', pods: '110' }, allocatable: { cpu: '2', memory: '4Gi', pods: '110' }, addresses },
});

const cases: [string, () => Promise<unknown>, unknown][] = [
  [
    "on the default node: the runtime's address on the pods' network, in the node and the pod",
    () => run(),
    {
      nodeAddresses: [['podlab-node', [{ type: 'InternalIP', address: '172.18.0.1' }, { type: 'Hostname', address: 'podlab-node' }]]],
      hostIP: '172.18.0.1',
      hostIPs: [{ ip: '172.18.0.1' }],
      podIP: '10.88.0.1',
      env: '172.18.0.1',
    },
  ],
  [
    'a hostNetwork pod has its node’s IP as its own',
    async () => {
      const r = await run({ spec: { hostNetwork: true } });
      return { hostIP: r.hostIP, podIP: r.podIP, env: r.env };
    },
    { hostIP: '172.18.0.1', podIP: '172.18.0.1', env: '172.18.0.1' },
  ],
  [
    'on a configured node: that node’s InternalIP (its first, before an ExternalIP)',
    async () => {
      const r = await run({ nodes: [node('n1', [{ type: 'ExternalIP', address: '203.0.113.9' }, { type: 'InternalIP', address: '10.0.0.7' }])], spec: { nodeName: 'n1' } });
      return { hostIP: r.hostIP, hostIPs: r.hostIPs, env: r.env };
    },
    { hostIP: '10.0.0.7', hostIPs: [{ ip: '10.0.0.7' }], env: '10.0.0.7' },
  ],
  [
    "on a configured node that lists no address: the runtime's, as the kubelet registering it adds its machine's",
    async () => {
      const r = await run({ nodes: [node('n3', [])], spec: { nodeName: 'n3' } });
      return { nodeAddresses: r.nodeAddresses, hostIP: r.hostIP, env: r.env };
    },
    { nodeAddresses: [['n3', [{ type: 'InternalIP', address: '172.18.0.1' }, { type: 'Hostname', address: 'n3' }]]], hostIP: '172.18.0.1', env: '172.18.0.1' },
  ],
  [
    'on a configured node with only an ExternalIP: that one',
    async () => {
      const r = await run({ nodes: [node('n2', [{ type: 'ExternalIP', address: '203.0.113.9' }])], spec: { nodeName: 'n2' } });
      return { hostIP: r.hostIP, env: r.env };
    },
    { hostIP: '203.0.113.9', env: '203.0.113.9' },
  ],
];
for (const [name, actual, expected] of cases) test(name, async () => assert.deepEqual(await actual(), expected));
