// The SyncPod executor and the container lifecycle on the recording fake runtime with the fake
// clock: the kubelet's timing (hooks, grace periods, termination order, back-off, deadlines,
// sandbox retries), deterministic and without Docker.
import { RuntimeError } from '../../src/runtime/cri.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeLab, missingClusterDNSLine, podOf, stateOf } from '../support/fake-engine.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { volumeDir } from '../../src/engine/kubelet/volumes/volume-manager.js';

const sec = 1000;

test('postStart runs synchronously: the next container is created only after the hook returns', async () => {
  const lab = await fakeLab();
  lab.rt.execHandler = (name) => new Promise((r) => lab.clock.setTimeout(() => r({ exitCode: 0, stdout: '', stderr: '' }), 3 * sec));
  await lab.engine.createPod(podOf({ containers: [{ name: 'a', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'sleep 3'] } } } }, { name: 'b' }] }));
  await lab.clock.advanceAsync(5 * sec);
  assert.deepEqual(lab.rt.trace(['createContainer', 'startContainer', 'execSync'], lab.t0), [
    'createContainer a @0',
    'startContainer a @0',
    'execSync a @0',
    'createContainer b @3000',
    'startContainer b @3000',
  ]);
  await lab.close();
});

test('a failing postStart hook kills the container and leaves it Waiting PostStartHookError with the handler message', async () => {
  const lab = await fakeLab();
  lab.rt.execHandler = () => ({ exitCode: 3, stdout: 'hi\n', stderr: '' });
  const created = await lab.engine.createPod(podOf({ restartPolicy: 'Never', containers: [{ name: 'app', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo hi; exit 3'] } } } }] }));
  await lab.clock.advanceAsync(1 * sec);
  const uid = created.metadata?.uid;
  assert.deepEqual(lab.events(), [
    // createPodSandbox's GetPodDNS, then SyncPod's; the pod is Failed after that, so none more
    missingClusterDNSLine(uid, 2),
    'containers{app} Pulled: Container image "busybox:1.35" already present on machine',
    'containers{app} Created: Created container: app',
    'containers{app} Started: Started container app',
    'containers{app} FailedPostStartHook: PostStartHook failed',
    'containers{app} Killing: FailedPostStartHook',
  ]);
  const s = lab.pod()?.status?.containerStatuses?.[0];
  assert.deepEqual(
    { state: s?.state?.terminated?.exitCode, phase: lab.pod()?.status?.phase },
    { state: 143, phase: 'Failed' },
  );
  assert.ok(uid);
  await lab.close();
});

test('a failing postStart hook under restartPolicy Always shows PostStartHookError with the exact handler message, then CrashLoopBackOff', async () => {
  const lab = await fakeLab();
  lab.rt.execHandler = () => ({ exitCode: 3, stdout: 'hi\n', stderr: '' });
  const waiting: string[] = [];
  const sub = lab.engine.watch((e) => {
    const w = e.kind === 'Pod' ? e.object.status?.containerStatuses?.[0]?.state?.waiting : undefined;
    const line = w ? `${w.reason}: ${w.message ?? ''}` : undefined;
    if (line && waiting[waiting.length - 1] !== line) waiting.push(line);
  });
  const created = await lab.engine.createPod(podOf({ containers: [{ name: 'app', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo hi; exit 3'] } } } }] }));
  await lab.clock.advanceAsync(1 * sec);
  sub.dispose();
  const pod = `p_default(${created.metadata?.uid})`;
  assert.deepEqual(waiting, [
    'ContainerCreating: ',
    `PostStartHookError: Exec lifecycle hook ([sh -c echo hi; exit 3]) for Container "app" in Pod "${pod}" failed - error: command 'sh -c echo hi; exit 3' exited with 3: , message: "hi\\n"`,
    `CrashLoopBackOff: back-off 10s restarting failed container=app pod=${pod}`,
  ]);
  await lab.close();
});

test('preStop is cut at the grace period and a container ignoring TERM is killed max(remaining, 2) s later', async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { onTerm: 'ignore' });
  lab.rt.execHandler = () => new Promise(() => undefined); // a preStop that never returns
  await lab.engine.createPod(podOf({ terminationGracePeriodSeconds: 3, containers: [{ name: 'app', lifecycle: { preStop: { exec: { command: ['sleep', '30'] } } } }] }));
  await lab.clock.advanceAsync(1 * sec);
  const t = lab.clock.now();
  const gone = lab.engine.deletePod('default', 'p');
  await lab.clock.advanceAsync(10 * sec);
  await gone;
  assert.deepEqual(lab.rt.trace(['execSync', 'stopContainer', 'stopPodSandbox', 'removeContainer', 'removePodSandbox'], t), [
    'execSync app @0',
    'stopContainer app @3000',
    'stopPodSandbox POD @5000',
    'removeContainer app @5000',
    'removePodSandbox POD @5000',
  ]);
  assert.deepEqual(lab.rt.calls.find((c) => c.method === 'stopContainer')?.args[1], 2);
  await lab.close();
});

/** A running pod whose container `app` ignores SIGTERM, and the time its deletion tests start from. */
async function terminating(spec: Record<string, unknown> = {}, app: Record<string, unknown> = {}) {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { onTerm: 'ignore' });
  await lab.engine.createPod(podOf({ ...spec, containers: [{ name: 'app', ...app }] }));
  await lab.clock.advanceAsync(1 * sec);
  return { lab, t: lab.clock.now() };
}

test('a shorter grace while the pod terminates (a DELETE with --now after a plain one): the kubelet kills again with it, and the pod is gone 2 s later', async () => {
  const { lab, t } = await terminating();
  lab.engine.beginDeletion('default', 'p', 40);
  await lab.clock.advanceAsync(5 * sec);
  lab.engine.beginDeletion('default', 'p', 1);
  await lab.clock.advanceAsync(10 * sec);
  assert.deepEqual(
    {
      runtime: lab.rt.trace(['stopContainer', 'removeContainer'], t),
      timeouts: lab.rt.calls.filter((c) => c.method === 'stopContainer').map((c) => c.args[1]),
      gone: lab.pod() === undefined,
      killing: lab.events().filter((e) => e.includes('Killing')),
    },
    {
      // the first kill waits out its 40 s; the second, at 5 s, has the minimum grace of 2 s
      runtime: ['stopContainer app @0', 'stopContainer app @5000', 'removeContainer app @7000'],
      timeouts: [40, 2],
      gone: true,
      killing: ['containers{app} Killing: Stopping container app (x2)'],
    },
  );
  await lab.close();
});

test('a shorter grace that comes before the kill has begun (two DELETEs at once) is the one the kill uses', async () => {
  const { lab, t } = await terminating();
  lab.engine.beginDeletion('default', 'p', 40);
  lab.engine.beginDeletion('default', 'p', 1);
  await lab.clock.advanceAsync(10 * sec);
  assert.deepEqual(
    { runtime: lab.rt.trace(['stopContainer', 'removeContainer'], t), timeouts: lab.rt.calls.filter((c) => c.method === 'stopContainer').map((c) => c.args[1]), gone: lab.pod() === undefined },
    { runtime: ['stopContainer app @0', 'removeContainer app @2000'], timeouts: [2], gone: true },
  );
  await lab.close();
});

test('a shorter grace cancels the kill under way: a preStop sleep of 50 s (run by the kubelet) is cut, the container stopped with the new grace', async () => {
  const { lab, t } = await terminating({ terminationGracePeriodSeconds: 60 }, { lifecycle: { preStop: { sleep: { seconds: 50 } } } });
  lab.engine.beginDeletion('default', 'p');
  await lab.clock.advanceAsync(5 * sec);
  lab.engine.beginDeletion('default', 'p', 1);
  await lab.clock.advanceAsync(60 * sec);
  assert.deepEqual(
    { runtime: lab.rt.trace(['stopContainer', 'removeContainer'], t), timeouts: lab.rt.calls.filter((c) => c.method === 'stopContainer').map((c) => c.args[1]) },
    // the second pass's preStop sleep gets the 1 s left, then the minimum grace of 2 s
    { runtime: ['stopContainer app @6000', 'removeContainer app @8000'], timeouts: [2] },
  );
  await lab.close();
});

test("a forced DELETE of a pod terminating with a longer grace than its spec's: gone from the API at once, the kubelet kills again with the spec's grace (calculateEffectiveGracePeriod)", async () => {
  const { lab, t } = await terminating({ terminationGracePeriodSeconds: 30 });
  lab.engine.beginDeletion('default', 'p', 60);
  await lab.clock.advanceAsync(5 * sec);
  const forced = lab.engine.beginDeletion('default', 'p', 0);
  await lab.clock.advanceAsync(40 * sec);
  assert.deepEqual(
    { forced: forced.gone, runtime: lab.rt.trace(['stopContainer', 'removeContainer'], t), timeouts: lab.rt.calls.filter((c) => c.method === 'stopContainer').map((c) => c.args[1]) },
    { forced: true, runtime: ['stopContainer app @0', 'stopContainer app @5000', 'removeContainer app @35000'], timeouts: [60, 30] },
  );
  await lab.close();
});

test('on deletion the app containers stop first, then the sidecars in reverse order, each written to the status as it happens', async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { onTerm: 'ignore' });
  const seen: string[] = [];
  await lab.engine.createPod(podOf({ initContainers: [{ name: 's1', restartPolicy: 'Always' }, { name: 's2', restartPolicy: 'Always' }], containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(3 * sec);
  assert.deepEqual(['s1', 's2', 'app'].map((n) => stateOf(lab.pod(), n)), ['running', 'running', 'running']);
  const sub = lab.engine.watch((e) => {
    if (e.kind === 'Pod' && e.type === 'MODIFIED') seen.push(['s1', 's2', 'app'].map((n) => stateOf(e.object, n)).join(' '));
  });
  const t = lab.clock.now();
  const gone = lab.engine.deletePod('default', 'p', 5);
  await lab.clock.advanceAsync(10 * sec);
  await gone;
  sub.dispose();
  assert.deepEqual(lab.rt.trace(['stopContainer'], t), ['stopContainer app @0', 'stopContainer s2 @5000', 'stopContainer s1 @5000']);
  const distinct = seen.filter((s, i) => s !== seen[i - 1]);
  assert.deepEqual(distinct, [
    'running running running',
    'running running terminated:Error/137',
    'running terminated:Error/143 terminated:Error/137',
    'terminated:Error/143 terminated:Error/143 terminated:Error/137',
  ]);
  await lab.close();
});

test('a crash-looping container restarts at once, then after 10, 20 and 40 s', async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { exitAfterMs: 0, exitCode: 1 });
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(80 * sec);
  assert.deepEqual(lab.rt.trace(['startContainer'], lab.t0), ['startContainer app @0', 'startContainer app @0', 'startContainer app @10000', 'startContainer app @30000', 'startContainer app @70000']);
  await lab.close();
});

test("a crash loop's events pass the kubelet's spam filter: 25 per type, then one every five minutes, which a dropped event's count still reaches", async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { exitAfterMs: 0, exitCode: 1 });
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(1250 * sec);
  const ago = (t: string | undefined) => (Date.parse(t ?? '') - lab.t0) / sec;
  const seen = lab.engine
    .listEvents()
    .filter((e) => e.involvedObject.name === 'p' && e.source?.component === 'kubelet')
    .map((e) => `${e.type} ${e.reason} x${e.count} ${ago(e.firstTimestamp)}-${ago(e.lastTimestamp)}s`);
  assert.deepEqual(
    { starts: lab.rt.trace(['startContainer'], lab.t0).length, seen },
    {
      // starts at 0, 0, 10, 30, 70, 150, 310, 610, 910 and 1210 s
      starts: 10,
      seen: [
        // Warnings: each back-off sync records MissingClusterDNS, then BackOff; the 25 are gone at
        // 50 s, and each token after (one per 300 s) goes to the sync's first Warning
        `Warning MissingClusterDNS x147 0-1200s`,
        // Normal: three a start; the 25th at 910 s, with three tokens refilled by then; at 1210 s
        // two are left, so Started is dropped (its count still grows, for the next write)
        'Normal Pulled x10 0-1210s',
        'Normal Created x10 0-1210s',
        'Normal Started x9 0-910s',
        'Warning BackOff x8 0-50s',
      ],
    },
  );
  await lab.close();
});

test('activeDeadlineSeconds fails the pod with DeadlineExceeded and kills its containers with the pod grace', async () => {
  const lab = await fakeLab();
  await lab.engine.createPod(podOf({ activeDeadlineSeconds: 5, containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(8 * sec);
  const st = lab.pod()?.status;
  assert.deepEqual(
    { phase: st?.phase, reason: st?.reason, message: st?.message, app: stateOf(lab.pod(), 'app'), ready: st?.conditions?.find((c) => c.type === 'Ready')?.reason },
    { phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline', app: 'terminated:Error/143', ready: 'PodFailed' },
  );
  assert.deepEqual(lab.events().slice(-2), ['DeadlineExceeded: Pod was active on the node longer than the specified deadline', 'containers{app} Killing: Stopping container app']);
  assert.deepEqual(lab.rt.trace(['stopContainer', 'stopPodSandbox'], lab.t0), ['stopContainer app @5000', 'stopPodSandbox POD @5000']);
  await lab.close();
});

test("a container that cannot start: the Failed event names the container where the runtime's message has its ID (recordContainerEvent); the waiting message keeps the ID", async () => {
  const lab = await fakeLab();
  let id = '';
  lab.rt.failNext('startContainer', ([cid]) => {
    id = String(cid);
    return new RuntimeError(`failed to start container "${id}": Error response from daemon: exec: "printenv": executable file not found in $PATH (container ${id})`, 'Other');
  });
  await lab.engine.createPod(podOf({ restartPolicy: 'Never', containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(1 * sec);
  assert.ok(id !== '', 'the start was tried');
  assert.deepEqual(
    { failed: lab.events().filter((e) => e.includes(' Failed: ')), waiting: lab.pod()?.status?.containerStatuses?.[0]?.state?.waiting },
    {
      failed: ['containers{app} Failed: Error: failed to start container "app": Error response from daemon: exec: "printenv": executable file not found in $PATH (container app)'],
      waiting: { reason: 'RunContainerError', message: `failed to start container "${id}": Error response from daemon: exec: "printenv": executable file not found in $PATH (container ${id})` },
    },
  );
  await lab.close();
});

test("a mounted ConfigMap's change reaches the pod at its next resync (syncFrequency, a minute), not at once; a ConfigMap's write syncs no pod", async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { exitAfterMs: 3600_000 });
  await lab.engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { v: 'one' } });
  const created = await lab.engine.createPod(podOf({ volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }], containers: [{ name: 'app', volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] }] }));
  await lab.clock.advanceAsync(2 * sec);
  const file = join(volumeDir(lab.stateDir, created.metadata?.uid ?? '', 'configMap', 'cfg'), 'v');
  const dnsCount = () => {
    const e = lab.engine.listEvents().find((x) => x.involvedObject.name === 'p' && x.reason === 'MissingClusterDNS');
    return e?.count ?? 0;
  };
  const seen: [number, string, number][] = [[2, readFileSync(file, 'utf8'), dnsCount()]];
  await lab.engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { v: 'two' } });
  // unrelated ConfigMaps bring no sync either (each sync would count the MissingClusterDNS Warning once more)
  for (const n of ['a', 'b', 'c']) await lab.engine.applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, namespace: 'default' }, data: { x: n } });
  for (const t of [5, 30, 55, 75]) {
    await lab.clock.advanceAsync((t - seen.at(-1)![0]) * sec);
    seen.push([t, readFileSync(file, 'utf8'), dnsCount()]);
  }
  const n = seen[0]![2];
  assert.deepEqual(seen, [
    [2, 'one', n],
    [5, 'one', n],
    [30, 'one', n],
    [55, 'one', n],
    // the first resync after a minute: the new payload, and the Warning once more
    [75, 'two', n + 1],
  ]);
  await lab.close();
});

test('a sandbox that cannot be created is retried every 10 s, with one FailedCreatePodSandBox event each time', async () => {
  const lab = await fakeLab();
  for (let i = 0; i < 3; i++) lab.rt.failNext('runPodSandbox', new Error('port is already allocated'));
  const created = await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(35 * sec);
  assert.deepEqual(lab.rt.trace(['runPodSandbox'], lab.t0), ['runPodSandbox POD @0', 'runPodSandbox POD @10000', 'runPodSandbox POD @20000', 'runPodSandbox POD @30000']);
  // each attempt generates the sandbox's config (and its DNS) before it fails
  assert.deepEqual(lab.events().slice(0, 2), [missingClusterDNSLine(created.metadata?.uid, 7), 'FailedCreatePodSandBox: Failed to create pod sandbox: port is already allocated (x3)']);
  assert.equal(stateOf(lab.pod(), 'app'), 'running');
  await lab.close();
});

test('a dead sandbox whose re-creation fails is announced once per real attempt: SandboxChanged before each try, none on the syncs in between', async () => {
  const lab = await fakeLab();
  lab.rt.programs.set('app', { exitAfterMs: 3600_000, exitCode: 0 });
  await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(3 * sec);
  // The sandbox dies behind the kubelet's back (as when dockerd stops it); its re-creation fails once.
  const sb = (await lab.rt.listPodSandbox())[0]!;
  await lab.rt.stopPodSandbox(sb.id);
  lab.rt.failNext('runPodSandbox', new Error('daemon is shutting down'));
  const t = lab.clock.now();
  // The relist wakes the worker at 10 s and 20 s; the failed creation is retried 10 s after it.
  await lab.clock.advanceAsync(25 * sec);
  assert.deepEqual(lab.rt.trace(['runPodSandbox'], t), ['runPodSandbox POD @7000', 'runPodSandbox POD @17000']);
  assert.deepEqual(
    lab.events().filter((e) => /sandbox/i.test(e)),
    ['SandboxChanged: Pod sandbox changed, it will be killed and re-created. (x2)', 'FailedCreatePodSandBox: Failed to create pod sandbox: daemon is shutting down'],
  );
  assert.equal(stateOf(lab.pod(), 'app'), 'running');
  await lab.close();
});

test('a readiness probe keeps the pod NotReady until it succeeds, with an Unhealthy event per failure', async () => {
  const lab = await fakeLab();
  let healthy = false;
  lab.rt.execHandler = (_n, cmd) => (cmd[0] === 'check' ? { exitCode: healthy ? 0 : 1, stdout: healthy ? '' : 'not yet\n', stderr: '' } : { exitCode: 0, stdout: '', stderr: '' });
  await lab.engine.createPod(podOf({ containers: [{ name: 'app', readinessProbe: { exec: { command: ['check'] }, periodSeconds: 2 } }] }));
  await lab.clock.advanceAsync(5 * sec);
  const readyOf = () => lab.pod()?.status?.conditions?.find((c) => c.type === 'Ready');
  assert.deepEqual({ status: readyOf()?.status, reason: readyOf()?.reason, message: readyOf()?.message, phase: lab.pod()?.status?.phase }, { status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]', phase: 'Running' });
  healthy = true;
  await lab.clock.advanceAsync(3 * sec);
  assert.deepEqual({ ready: readyOf()?.status, containerReady: lab.pod()?.status?.containerStatuses?.[0]?.ready }, { ready: 'True', containerReady: true });
  assert.ok(lab.events().some((e) => /^containers\{app\} Unhealthy: Readiness probe failed: not yet\n( \(x\d+\))?$/.test(e)), lab.events().join(' | '));
  await lab.close();
});

test('a failing liveness probe kills the container after failureThreshold failures and restarts it', async () => {
  const lab = await fakeLab();
  lab.rt.execHandler = (_n, cmd) => (cmd[0] === 'alive' ? { exitCode: 1, stdout: '', stderr: "cat: can't open '/tmp/healthy': No such file or directory\n" } : { exitCode: 0, stdout: '', stderr: '' });
  const created = await lab.engine.createPod(podOf({ containers: [{ name: 'app', livenessProbe: { exec: { command: ['alive'] }, periodSeconds: 1, failureThreshold: 3 } }] }));
  await lab.clock.advanceAsync(3500);
  assert.deepEqual(lab.rt.trace(['startContainer', 'execSync', 'stopContainer'], lab.t0), [
    'startContainer app @0',
    'execSync app @1000',
    'execSync app @2000',
    'execSync app @3000',
    'stopContainer app @3000',
    'startContainer app @3000',
  ]);
  assert.deepEqual(lab.events(), [
    // two at the start (the sandbox's creation and the sync), one at each sync after that
    missingClusterDNSLine(created.metadata?.uid, 5),
    'containers{app} Pulled: Container image "busybox:1.35" already present on machine (x2)',
    'containers{app} Created: Created container: app (x2)',
    'containers{app} Started: Started container app (x2)',
    "containers{app} Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n (x3)",
    'containers{app} Killing: Container app failed liveness probe, will be restarted',
  ]);
  const s = lab.pod()?.status?.containerStatuses?.[0];
  assert.deepEqual({ restarts: s?.restartCount, last: s?.lastState?.terminated?.exitCode, state: Object.keys(s?.state ?? {}) }, { restarts: 1, last: 143, state: ['running'] });
  await lab.close();
});

test('a pod bound to a node the lab does not have is never run: it stays Pending with no runtime call', async () => {
  const lab = await fakeLab();
  await lab.engine.createPod(podOf({ nodeName: 'nowhere', containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(15 * sec);
  assert.deepEqual({ phase: lab.pod()?.status?.phase, calls: lab.rt.trace(['runPodSandbox', 'createContainer'], lab.t0) }, { phase: 'Pending', calls: [] });
  await lab.close();
});

test('a kubelet without cluster DNS warns MissingClusterDNS on the pod and on its node at each SyncPod of a ClusterFirst pod, and never for a Default one', async () => {
  const lab = await fakeLab();
  const first = await lab.engine.createPod(podOf({ restartPolicy: 'Never', containers: [{ name: 'app' }] }));
  await lab.engine.createPod({ ...podOf({ restartPolicy: 'Never', dnsPolicy: 'Default', containers: [{ name: 'app' }] }), metadata: { name: 'q', namespace: 'default' } });
  await lab.clock.advanceAsync(1 * sec);
  const node = lab.pod()?.spec?.nodeName;
  const dns = lab.engine.listEvents().filter((e) => e.reason === 'MissingClusterDNS');
  assert.deepEqual(
    dns.map((e) => ({ object: e.involvedObject, namespace: e.metadata.namespace, type: e.type, count: e.count, source: e.source })),
    [
      // the sandbox's creation and SyncPod's "Get podSandboxConfig for containers to start" in the
      // first sync, then the sync the container's start brings
      { object: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p', uid: first.metadata?.uid }, namespace: 'default', type: 'Warning', count: 3, source: { component: 'kubelet', host: node } },
      // the kubelet's node reference: the node's name stands for its UID
      { object: { kind: 'Node', name: node, uid: node }, namespace: 'default', type: 'Warning', count: 3, source: { component: 'kubelet', host: node } },
    ].sort((a, b) => a.object.kind.localeCompare(b.object.kind)),
  );
  assert.deepEqual(lab.events('q').filter((e) => e.startsWith('MissingClusterDNS')), []);
  await lab.close();
});

test('MissingClusterDNS of an idle pod grows as a kubelet resyncs it (every 60 s), not at each 10 s relist', async () => {
  const lab = await fakeLab();
  const created = await lab.engine.createPod(podOf({ containers: [{ name: 'app' }] }));
  await lab.clock.advanceAsync(5 * sec);
  const early = lab.events().filter((e) => e.startsWith('MissingClusterDNS'));
  await lab.clock.advanceAsync(120 * sec);
  const later = lab.events().filter((e) => e.startsWith('MissingClusterDNS'));
  // three at the start (the sandbox's creation, that sync, the container's start), then one at 60 s and one at 120 s
  assert.deepEqual({ early, later }, { early: [missingClusterDNSLine(created.metadata?.uid, 3)], later: [missingClusterDNSLine(created.metadata?.uid, 5)] });
  await lab.close();
});
