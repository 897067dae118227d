// Simulated nodes at scale, as a learner uses them: a lab server on the real Docker, 200 simulated
// nodes added with `podlab nodes add` (the built CLI), 2,000 pods created through the API with
// node selectors, tolerations and impossible requests, and the real kubectl reading the result.
// No container may be created for a simulated pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labContainers, run } from '../support/lab-process.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { startLabServer } from '../../src/server/serve.js';
import { LabConnection, readLabKubeconfig } from '../../src/client/connection.js';
import { removeLabContainers } from './engine-helpers.js';

const CLI = join(__dirname, '../../dist/cli.js');
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const NODES = 200;
const PODS = 2000;


test(`${NODES} simulated nodes and ${PODS} pods through the API: placed by the real filters, Running without a container, read back by kubectl`, { timeout: 5 * 60 * 1000 }, async () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (scripts/setup.sh)');
  const stateDir = mkdtempSync(join(tmpdir(), 'podlab-sim-'));
  const running = await startLabServer({ stateDir, settings: { relistIntervalMs: 10_000 }, runtime: await connectDocker({}), version: 'test', log: () => undefined });
  try {
    const env = { PODLAB_STATE_DIR: stateDir, KUBECONFIG: running.endpoint.kubeconfig, HOME: stateDir };
    const added = await run(process.execPath, [CLI, 'nodes', 'add', '--simulated', String(NODES), '--zones', 'a,b,c', '--cpu', '2', '--pods', '20', '--taint', 'dedicated=gpu:NoSchedule'], env);
    assert.deepEqual(added, { code: 0, out: `${NODES} simulated nodes created: sim-1 … sim-${NODES}\n`, err: '' });

    const conn = new LabConnection(readLabKubeconfig(running.endpoint.kubeconfig));
    const containersBefore = labContainers(stateDir);
    // Four kinds of pod: plain (tolerating the taint), zone a only, impossible (3 CPUs in zone a), and untolerating.
    const kinds = ['plain', 'zone-a', 'too-big', 'no-toleration'] as const;
    const kindOf = (i: number) => (i < 1600 ? (i % 2 ? 'plain' : 'zone-a') : i < 1650 ? 'too-big' : i < 1655 ? 'no-toleration' : 'plain');
    const toleration = [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }];
    const manifest = (i: number): Pod => {
      const kind = kindOf(i);
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `p-${i}`, labels: { kind } },
        spec: {
          ...(kind === 'no-toleration' ? {} : { tolerations: toleration }),
          ...(kind === 'zone-a' || kind === 'too-big' ? { nodeSelector: { 'topology.kubernetes.io/zone': 'a' } } : {}),
          // Plain pods are kept off the Docker node, as a learner would: only simulated nodes have this label.
          ...(kind === 'plain' ? { nodeSelector: { 'node.kubernetes.io/instance-type': 'simulated' } } : {}),
          terminationGracePeriodSeconds: 0,
          // The untolerating pods can only go to the Docker node: they ask for no CPU, so that its size does not matter.
          containers: [{ name: 'app', image: 'busybox:1.35', command: ['sleep', '3600'], ...(kind === 'no-toleration' ? {} : { resources: { requests: { cpu: kind === 'too-big' ? '3' : '100m' } } }) }],
        },
      };
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < PODS) await conn.json('POST', '/api/v1/namespaces/default/pods', manifest(next++));
      }),
    );

    // Wait until every pod that fits is Running and every other one has its FailedScheduling condition.
    let pods: Pod[] = [];
    const settled = () => pods.length === PODS && pods.every((p) => p.status?.phase === 'Running' || p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False'));
    for (let i = 0; i < 600 && !settled(); i++) {
      pods = (await conn.json<{ items: Pod[] }>('GET', '/api/v1/namespaces/default/pods')).items;
      if (!settled()) await new Promise((r) => setTimeout(r, 250));
    }
    const nodes = (await conn.json<{ items: { metadata: { name: string; labels: Record<string, string> } }[] }>('GET', '/api/v1/nodes')).items;
    const zone = new Map(nodes.map((n) => [n.metadata.name, n.metadata.labels['topology.kubernetes.io/zone'] ?? 'none']));
    const perNode = new Map<string, number>();
    for (const p of pods) if (p.spec?.nodeName) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
    const summary = Object.fromEntries(
      kinds.map((k) => {
        const of = pods.filter((p) => p.metadata?.labels?.kind === k);
        return [
          k,
          {
            running: of.filter((p) => p.status?.phase === 'Running').length,
            zones: [...new Set(of.filter((p) => p.spec?.nodeName).map((p) => zone.get(p.spec!.nodeName!)))].sort(),
            messages: [...new Set(of.map((p) => p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False')?.message).filter(Boolean))],
          },
        ];
      }),
    );
    assert.deepEqual(summary, {
      plain: { running: 1145, zones: ['a', 'b', 'c'], messages: [] },
      'zone-a': { running: 800, zones: ['a'], messages: [] },
      'too-big': {
        running: 0,
        zones: [],
        messages: ["0/201 nodes are available: 134 node(s) didn't match Pod's node affinity/selector, 67 Insufficient cpu. preemption: 0/201 nodes are available: 134 Preemption is not helpful for scheduling, 67 No preemption victims found for incoming pod."],
      },
      'no-toleration': { running: 5, zones: ['none'], messages: [] },
    });
    assert.ok(Math.max(...[...perNode].filter(([n]) => n.startsWith('sim-')).map(([, c]) => c)) <= 20, 'no simulated node holds more than its 20 pods');

    // kubectl reads the same: a node's pods through the field selector, the nodes' VERSION.
    const onSim7 = await run(KUBECTL, ['get', 'pods', '--field-selector', 'spec.nodeName=sim-7', '-o', 'name'], env);
    assert.deepEqual(
      onSim7.out.split('\n').filter(Boolean).sort(),
      pods.filter((p) => p.spec?.nodeName === 'sim-7').map((p) => `pod/${p.metadata!.name}`).sort(),
    );
    const sim1 = await run(KUBECTL, ['get', 'node', 'sim-1', '--no-headers', '-o', 'custom-columns=V:.status.nodeInfo.kubeletVersion,IP:.status.addresses[0].address,A:.metadata.annotations.lab\\.podlab\\.dev/simulated'], env);
    // Nodes are created 8 at a time, so which one got which address is not fixed: each its own, from 10.240.0.0/16.
    assert.match(sim1.out.trim().split(/\s+/).join(' '), /^podlab-simulated 10\.240\.\d+\.\d+ true$/);
    const ips = (await conn.json<{ items: { status?: { addresses?: { type: string; address: string }[] } }[] }>('GET', '/api/v1/nodes')).items
      .map((n) => n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '')
      .filter((ip) => ip.startsWith('10.240.'));
    assert.equal(new Set(ips).size, NODES, 'every simulated node has its own InternalIP');

    // A simulated pod has no container to read, enter or connect to: kubectl is told so, and
    // port-forward never dials its made-up IP (10.244.0.0/14 may be a real network here).
    const sim = pods.find((p) => p.spec?.nodeName?.startsWith('sim-'))!;
    const simName = sim.metadata!.name!;
    const simNode = sim.spec!.nodeName!;
    const refusal = (what: string) => `pod "${simName}" runs on the simulated node "${simNode}": its containers are simulated and ${what}`;
    const logs = await run(KUBECTL, ['logs', simName], env);
    assert.deepEqual([logs.code, logs.err.trim()], [1, `Error from server (BadRequest): ${refusal('have no logs')}`]);
    const exec = await run(KUBECTL, ['exec', simName, '--', 'true'], env);
    assert.deepEqual([exec.code, exec.err.trim()], [1, `Error from server (BadRequest): ${refusal('cannot run commands')}`]);
    const attach = await run(KUBECTL, ['attach', simName], env);
    // (kubectl prints its "If you don't see a command prompt" hint before it connects.)
    assert.deepEqual([attach.code, attach.err.trim().split('\n').at(-1)], [1, `Error from server (BadRequest): ${refusal('cannot be attached to')}`]);
    const pf = await run(KUBECTL, ['port-forward', `pod/${simName}`, ':80'], env);
    assert.deepEqual([pf.code, pf.err.trim().split('\n').at(-1)], [1, `error: error upgrading connection: ${refusal('listen on no port')}`]);
    // Its node deleted, the pod stays bound (the lab has no pod garbage collector): still no dial.
    const other = pods.find((p) => p.spec?.nodeName?.startsWith('sim-') && p.spec.nodeName !== simNode)!;
    await run(process.execPath, [CLI, 'nodes', 'delete', other.spec!.nodeName!], env);
    const pfGone = await run(KUBECTL, ['port-forward', `pod/${other.metadata!.name}`, ':80'], env);
    assert.deepEqual([pfGone.code, pfGone.err.trim().split('\n').at(-1)], [1, `error: error upgrading connection: nodes "${other.spec!.nodeName}" not found`]);

    // Only the 5 pods on the Docker node got a sandbox, none of the 1,995 simulated ones.
    const dockerPods = pods.filter((p) => p.spec?.nodeName === 'podlab-node').length;
    assert.equal(dockerPods, 5);
    assert.equal(labContainers(stateDir) - containersBefore, dockerPods, 'sandboxes exist for the Docker node’s pods only');
  } finally {
    await running.stop();
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }
});
