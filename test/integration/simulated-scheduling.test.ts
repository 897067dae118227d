// InterPodAffinity and PodTopologySpread end to end, as a learner meets them: a lab server on the
// real Docker, 3 simulated nodes in 3 zones added with `podlab nodes add` (the built CLI), pods
// created through the API, the scheduler's answers read back through the API (conditions, events,
// a watch) and the real kubectl. Every FailedScheduling message is compared whole, as upstream
// kube-scheduler words it (FitError.Error with DefaultPreemption's post-filter message).
//
// The lab always has its Docker node too (`podlab-node`, no zone label), so the cluster has 4
// nodes: the anti-affinity group keeps off it with a node selector; the affinity and spread groups
// are kept off it by the filters themselves (a node without the topology key fails them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labContainers, run } from '../support/lab-process.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event as KEvent, Pod, PodSpec } from 'kubernetes-types/core/v1';
import { connectDocker } from '../../src/runtime/docker/docker-runtime.js';
import { startLabServer } from '../../src/server/serve.js';
import { LabConnection, readLabKubeconfig } from '../../src/client/connection.js';
import { removeLabContainers } from './engine-helpers.js';

const CLI = join(__dirname, '../../dist/cli.js');
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const ZONE = 'topology.kubernetes.io/zone';
const PODS = '/api/v1/namespaces/default/pods';


/** A pod of the scenario: busybox asking for `cpu` (none by default), with the scheduling fields of `spec`. */
function pod(name: string, app: string, spec: Partial<PodSpec> = {}, cpu?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app } },
    spec: {
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'app', image: 'busybox:1.35', command: ['sleep', '3600'], ...(cpu ? { resources: { requests: { cpu } } } : {}) }],
      ...spec,
    },
  };
}

/** Required (anti-)affinity term on the zone for pods labelled app=<app>. */
const zoneTerm = (app: string) => [{ labelSelector: { matchLabels: { app } }, topologyKey: ZONE }];

test('InterPodAffinity and PodTopologySpread on 3 simulated zones through the API: placements, whole FailedScheduling messages, the queue letting pending pods in, preferred zones, PreferNoSchedule taints, preferred pod (anti-)affinity and ScheduleAnyway scored', { timeout: 3 * 60 * 1000 }, async () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (node scripts/build.mjs)');
  const stateDir = mkdtempSync(join(tmpdir(), 'podlab-simsched-'));
  const running = await startLabServer({ stateDir, settings: { relistIntervalMs: 10_000 }, runtime: await connectDocker({}), version: 'test', log: () => undefined });
  const conn = new LabConnection(readLabKubeconfig(running.endpoint.kubeconfig));
  const watches: { dispose(): void }[] = [];
  try {
    const env = { PODLAB_STATE_DIR: stateDir, KUBECONFIG: running.endpoint.kubeconfig, HOME: stateDir };
    const added = await run(process.execPath, [CLI, 'nodes', 'add', '--simulated', '3', '--zones', 'a,b,c', '--cpu', '2', '--memory', '4Gi'], env);
    assert.deepEqual(added, { code: 0, out: 'node/sim-1 created (simulated)\nnode/sim-2 created (simulated)\nnode/sim-3 created (simulated)\n', err: '' });
    const containersBefore = labContainers(stateDir);

    const zoneOf = new Map<string, string>();
    for (const n of (await conn.json<{ items: { metadata: { name: string; labels: Record<string, string> } }[] }>('GET', '/api/v1/nodes')).items) zoneOf.set(n.metadata.name, n.metadata.labels[ZONE] ?? 'none');
    assert.deepEqual(Object.fromEntries([...zoneOf].sort()), { 'podlab-node': 'none', 'sim-1': 'a', 'sim-2': 'b', 'sim-3': 'c' });

    const create = (p: Pod) => conn.json<Pod>('POST', PODS, p);
    const get = (name: string) => conn.json<Pod>('GET', `${PODS}/${name}`);
    const del = (name: string) => conn.json('DELETE', `${PODS}/${name}`);
    const scheduled = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    /** Polls a pod until `done` holds (the scheduler answers within milliseconds; the deadline is generous). */
    const until = async (name: string, done: (p: Pod) => boolean, what: string, ms = 15_000): Promise<Pod> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const p = await get(name);
        if (done(p)) return p;
        if (Date.now() > deadline) assert.fail(`${name}: ${what} within ${ms} ms; last status ${JSON.stringify(p.status)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const bound = async (name: string) => (await until(name, (p) => !!p.spec?.nodeName, 'bound to a node')).spec!.nodeName!;
    /** A pod left Pending by the scheduler: phase, PodScheduled condition and the FailedScheduling events, whole. */
    const pending = async (name: string) => {
      const p = await until(name, (x) => scheduled(x)?.status === 'False', 'PodScheduled=False');
      const c = scheduled(p)!;
      const events = (await conn.json<{ items: KEvent[] }>('GET', `/api/v1/namespaces/default/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name},reason=FailedScheduling`)}`)).items;
      return {
        nodeName: p.spec?.nodeName,
        phase: p.status?.phase,
        condition: { status: c.status, reason: c.reason, message: c.message },
        events: events.map((e) => ({ type: e.type, reason: e.reason, message: e.message, source: e.source?.component, reportingComponent: e.reportingComponent })),
      };
    };
    const failedScheduling = (message: string) => ({
      nodeName: undefined,
      phase: 'Pending',
      condition: { status: 'False', reason: 'Unschedulable', message },
      events: [{ type: 'Warning', reason: 'FailedScheduling', message, source: 'default-scheduler', reportingComponent: 'default-scheduler' }],
    });

    // 1. Required anti-affinity on the zone for the group's own label: one pod per zone, the 4th waits.
    const web = (i: number) =>
      pod(`web-${i}`, 'web', {
        nodeSelector: { 'node.kubernetes.io/instance-type': 'simulated' },
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: zoneTerm('web') } },
      });
    for (let i = 1; i <= 4; i++) await create(web(i)); // created back to back, as a ReplicaSet would
    const webNodes = [await bound('web-1'), await bound('web-2'), await bound('web-3')];
    // Equal scores: the tie goes to the smaller name, so each pod takes the first node its zone rule leaves.
    assert.deepEqual(webNodes, ['sim-1', 'sim-2', 'sim-3']);
    assert.deepEqual(
      await pending('web-4'),
      failedScheduling(
        "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 3 node(s) didn't match pod anti-affinity rules. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
      ),
    );

    // kubectl reads the same placements and the waiting pod's condition.
    const kubectlWeb = await run(KUBECTL, ['get', 'pods', '-l', 'app=web', '-o', 'custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,SCHEDULED:.status.conditions[?(@.type=="PodScheduled")].status,REASON:.status.conditions[?(@.type=="PodScheduled")].reason'], env);
    assert.deepEqual(kubectlWeb, {
      code: 0,
      out: ['NAME    NODE     SCHEDULED   REASON', 'web-1   sim-1    True        <none>', 'web-2   sim-2    True        <none>', 'web-3   sim-3    True        <none>', 'web-4   <none>   False       Unschedulable', ''].join('\n'),
      err: '',
    });

    // Deleting the zone-b pod lets web-4 in (the queue moves it on the deletion): seen on a watch.
    const list = await conn.json<{ metadata: { resourceVersion: string } }>('GET', `${PODS}?fieldSelector=metadata.name%3Dweb-4`);
    const web4Events: { type: string; node?: string; scheduled?: string }[] = [];
    let web4Bound!: () => void;
    const web4BoundSeen = new Promise<void>((r) => (web4Bound = r));
    watches.push(
      await conn.stream(
        `${PODS}?watch=true&fieldSelector=metadata.name%3Dweb-4&resourceVersion=${list.metadata.resourceVersion}`,
        (line) => {
          if (!line.trim()) return;
          const e = JSON.parse(line) as { type: string; object: Pod };
          web4Events.push({ type: e.type, node: e.object.spec?.nodeName, scheduled: scheduled(e.object)?.status });
          if (e.object.spec?.nodeName) web4Bound();
        },
        () => undefined,
      ),
    );
    await del('web-2');
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`web-4 not bound within 15 s; watch saw ${JSON.stringify(web4Events)}`)), 15_000).unref());
    await Promise.race([web4BoundSeen, deadline]);
    assert.deepEqual(web4Events[0], { type: 'MODIFIED', node: 'sim-2', scheduled: 'True' }, 'the first change the watch sees is the binding to the freed zone');
    const web4 = await get('web-4');
    assert.deepEqual({ node: web4.spec?.nodeName, condition: { status: scheduled(web4)?.status, reason: scheduled(web4)?.reason, message: scheduled(web4)?.message } }, { node: 'sim-2', condition: { status: 'True', reason: undefined, message: undefined } });
    const web4Scheduled = (await conn.json<{ items: KEvent[] }>('GET', `/api/v1/namespaces/default/events?fieldSelector=${encodeURIComponent('involvedObject.name=web-4,reason=Scheduled')}`)).items.map((e) => e.message);
    assert.deepEqual(web4Scheduled, ['Successfully assigned default/web-4 to sim-2']);

    // 2. Required pod affinity to app=db on the zone: no db yet, so nowhere (every node: unresolvable,
    //    the Docker node for want of a zone label); once db is bound in zone c, api-1 follows it.
    const api = (i: number) => pod(`api-${i}`, 'api', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: zoneTerm('db') } } });
    await create(api(1));
    assert.deepEqual(
      await pending('api-1'),
      failedScheduling("0/4 nodes are available: 4 node(s) didn't match pod affinity rules. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."),
    );
    await create(pod('db', 'db', { nodeSelector: { [ZONE]: 'c' } }));
    assert.equal(await bound('db'), 'sim-3');
    assert.equal(await bound('api-1'), 'sim-3', 'api-1 is let in by the db pod its affinity selects, in db’s zone');
    await create(api(2));
    assert.equal(await bound('api-2'), 'sim-3');

    // 3. A DoNotSchedule spread over zones (maxSkew 1). Zone c is full (a pod takes sim-3's 2 CPUs)
    //    but still a domain with 0 pods of the group: after one pod in a and one in b, a third would
    //    make the skew 2 on the only nodes it fits, so it waits; freeing zone c lets it in there.
    const spread = (i: number) =>
      pod(
        `spread-${i}`,
        'spread',
        { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } } }] },
        '100m',
      );
    await create(pod('blocker', 'blocker', { nodeSelector: { 'kubernetes.io/hostname': 'sim-3' } }, '2'));
    assert.equal(await bound('blocker'), 'sim-3');
    for (let i = 1; i <= 3; i++) await create(spread(i));
    const spreadZones = [zoneOf.get(await bound('spread-1')), zoneOf.get(await bound('spread-2'))];
    assert.deepEqual(spreadZones, ['a', 'b']);
    assert.deepEqual(
      await pending('spread-3'),
      failedScheduling(
        "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match pod topology spread constraints. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
      ),
    );
    await del('blocker');
    assert.equal(await bound('spread-3'), 'sim-3', 'zone c freed: the pending spread pod goes there');
    // Three more: one per zone again (2/2/2).
    for (let i = 4; i <= 6; i++) {
      await create(spread(i));
      await bound(`spread-${i}`);
    }
    const all = (await conn.json<{ items: Pod[] }>('GET', `${PODS}?labelSelector=app%3Dspread`)).items;
    const perZone: Record<string, number> = {};
    for (const p of all) perZone[zoneOf.get(p.spec!.nodeName!)!] = (perZone[zoneOf.get(p.spec!.nodeName!)!] ?? 0) + 1;
    assert.deepEqual(perZone, { a: 2, b: 2, c: 2 });

    // kubectl -o wide: every pod of the scenario Running on its simulated node (NAME READY STATUS RESTARTS NODE).
    const names = ['api-1', 'api-2', 'db', 'spread-1', 'spread-2', 'spread-3', 'spread-4', 'spread-5', 'spread-6', 'web-1', 'web-3', 'web-4'];
    for (const n of names) await until(n, (p) => p.status?.phase === 'Running', 'Running');
    const wide = await run(KUBECTL, ['get', 'pods', '-o', 'wide', '--no-headers'], env);
    assert.equal(wide.code, 0, wide.err);
    const rows = wide.out
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/))
      .map(([name, ready, status, restarts, , , node]) => `${name} ${ready} ${status} ${restarts} ${node}`);
    assert.deepEqual(rows, [
      'api-1 1/1 Running 0 sim-3',
      'api-2 1/1 Running 0 sim-3',
      'db 1/1 Running 0 sim-3',
      'spread-1 1/1 Running 0 sim-1',
      'spread-2 1/1 Running 0 sim-2',
      'spread-3 1/1 Running 0 sim-3',
      'spread-4 1/1 Running 0 sim-1',
      'spread-5 1/1 Running 0 sim-2',
      'spread-6 1/1 Running 0 sim-3',
      'web-1 1/1 Running 0 sim-1',
      'web-3 1/1 Running 0 sim-3',
      'web-4 1/1 Running 0 sim-2',
    ]);

    // Scoring: a preferred zone draws a pod there; a PreferNoSchedule taint (weight 3) then
    // outweighs the preference (weight 2), within the zones the pod requires.
    const near = (name: string) =>
      pod(name, 'near', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'In', values: ['a', 'b'] }] }] },
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: ['a'] }] } }],
          },
        },
      });
    await create(near('near-1'));
    assert.equal(await bound('near-1'), 'sim-1', 'the preferred zone a');
    const tainted = await run(KUBECTL, ['taint', 'nodes', 'sim-1', 'spot=yes:PreferNoSchedule'], env);
    assert.deepEqual(tainted, { code: 0, out: 'node/sim-1 tainted\n', err: '' });
    await create(near('near-2'));
    assert.equal(await bound('near-2'), 'sim-2', 'the untolerated PreferNoSchedule taint outweighs the preference');

    // A preferred pod affinity to the db pod (zone c) wins over the freer nodes; a preferred
    // anti-affinity to the near pods keeps a pod out of their zones a and b.
    const cachePod = pod('cache', 'cache', { affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: ZONE } }] } } });
    await create(cachePod);
    assert.equal(await bound('cache'), 'sim-3', 'next to the db pod it prefers');
    const loner = pod('loner', 'loner', {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'Exists' }] }] } },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'near' } }, topologyKey: ZONE } }] },
      },
    });
    await create(loner);
    assert.equal(await bound('loner'), 'sim-3', 'away from the zones of the pods it avoids');

    // ScheduleAnyway: three pods of a group go one per zone, whatever room the nodes have. They
    // tolerate sim-1's PreferNoSchedule taint: without that, the taint (weight 3) outweighs the
    // spread (weight 2), and the third pod goes to the Docker node, which has no zone (a node
    // without the topology key scores 0 for the constraint, not less).
    const evenZones: string[] = [];
    for (let i = 1; i <= 3; i++) {
      await create(
        pod(`even-${i}`, 'even', {
          tolerations: [{ key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' }],
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'even' } } }],
        }),
      );
      evenZones.push(zoneOf.get(await bound(`even-${i}`))!);
    }
    assert.deepEqual([...evenZones].sort(), ['a', 'b', 'c']);

    // Nothing ran on Docker: every pod of the scenario is simulated.
    assert.equal(labContainers(stateDir) - containersBefore, 0, 'no sandbox for a simulated pod');
  } finally {
    for (const w of watches) w.dispose();
    conn.close();
    await running.stop();
    removeLabContainers(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }
});
