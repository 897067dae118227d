// The engine on the real Docker: namespaces shared as the dockershim shared them, init-container
// ordering and gating, restart policies, crash-loop back-off, image errors, graceful deletion.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { podStatusText } from '../../src/engine/printer.js';
import type { Engine } from '../../src/engine/engine.js';
import { eventsOf, podManifest, sh, sleep, useLab, waitFor } from './engine-helpers.js';

let engine: Engine;
useLab((e) => (engine = e));

const cs = (p: Pod, name: string): ContainerStatus | undefined =>
  [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])].find((c) => c.name === name);
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('namespaces', () => {
  test('two containers of a pod share the network and IPC namespaces of the sandbox', async () => {
    await engine.createPod(
      podManifest('shared-ns', {
        containers: [
          sh('server', 'mkdir /www && echo hello-from-server > /www/index.html && echo shm-token > /dev/shm/token && exec httpd -f -p 8080 -h /www'),
          sh('client', 'sleep 3600'),
        ],
      }),
    );
    const p = await waitFor(engine, 'shared-ns', ready, 30_000, 'Ready');
    assert.equal(podStatusText(p), 'Running');
    assert.match(p.status?.podIP ?? '', /^\d+\.\d+\.\d+\.\d+$/);
    let got = '';
    for (let i = 0; i < 20 && !got.includes('hello-from-server'); i++) {
      got = (await engine.exec('default', 'shared-ns', 'client', ['wget', '-q', '-O', '-', 'http://127.0.0.1:8080/'])).stdout;
      if (!got.includes('hello-from-server')) await sleep(250);
    }
    assert.match(got, /hello-from-server/, 'client reaches the server on localhost');
    const shm = await engine.exec('default', 'shared-ns', 'client', ['cat', '/dev/shm/token']);
    assert.equal(shm.stdout.trim(), 'shm-token', 'client sees the server\'s /dev/shm (shared IPC)');
    const pid = await engine.exec('default', 'shared-ns', 'client', ['cat', '/proc/1/cmdline']);
    assert.doesNotMatch(pid.stdout, /pause/, 'without shareProcessNamespace PID 1 is the container\'s own process');
    await assert.rejects(engine.exec('default', 'shared-ns', 'nope', ['true']), { message: 'container nope is not valid for pod shared-ns' });
    const evs = eventsOf(engine, 'shared-ns').map((e) => `${e.reason}:${e.involvedObject.fieldPath ?? ''}`);
    for (const want of ['Scheduled:', 'Pulled:spec.containers{server}', 'Created:spec.containers{server}', 'Started:spec.containers{server}', 'Started:spec.containers{client}']) {
      assert.ok(evs.includes(want), `event ${want} in ${evs.join(', ')}`);
    }
  });

  test('with shareProcessNamespace PID 1 is the pause process', async () => {
    await engine.createPod(podManifest('shared-pid', { shareProcessNamespace: true, containers: [sh('a', 'sleep 3600')] }));
    await waitFor(engine, 'shared-pid', ready, 30_000, 'Ready');
    const r = await engine.exec('default', 'shared-pid', 'a', ['cat', '/proc/1/cmdline']);
    assert.match(r.stdout, /pause/);
  });
});

describe('init containers', () => {
  test('run one at a time in order, each to exit 0, before the app container', async () => {
    await engine.createPod(
      podManifest('init-order', {
        restartPolicy: 'Never',
        volumes: [{ name: 'w', emptyDir: {} }],
        initContainers: [
          sh('first', 'echo first >> /w/log; sleep 1', { volumeMounts: [{ name: 'w', mountPath: '/w' }] }),
          sh('second', 'echo second >> /w/log', { volumeMounts: [{ name: 'w', mountPath: '/w' }] }),
        ],
        containers: [sh('app', 'echo app >> /w/log; cat /w/log', { volumeMounts: [{ name: 'w', mountPath: '/w' }] })],
      }),
    );
    const seen = new Set<string>();
    const sub = engine.watch((e) => {
      if (e.kind === 'Pod' && e.object.metadata?.name === 'init-order') seen.add(podStatusText(e.object));
    });
    const p = await waitFor(engine, 'init-order', (x) => x.status?.phase === 'Succeeded', 30_000, 'Succeeded');
    sub.dispose();
    assert.deepEqual(await engine.logs('default', 'init-order', 'app'), ['first', 'second', 'app']);
    assert.ok(seen.has('Init:0/2'), `saw Init:0/2 in ${[...seen]}`);
    assert.equal(podStatusText(p), 'Completed');
    const first = cs(p, 'first')!.state!.terminated!;
    const second = cs(p, 'second')!.state!.terminated!;
    const app = cs(p, 'app')!.state!.terminated!;
    assert.ok(Date.parse(second.startedAt!) >= Date.parse(first.finishedAt!), 'second starts after first finished');
    assert.ok(Date.parse(app.startedAt!) >= Date.parse(second.finishedAt!), 'app starts after second finished');
    assert.equal(p.status?.conditions?.find((c) => c.type === 'Initialized')?.status, 'True');
  });

  test('a failing init container under restartPolicy Never fails the pod and the app never starts', async () => {
    await engine.createPod(
      podManifest('init-never', {
        restartPolicy: 'Never',
        initContainers: [sh('check', 'echo nope >&2; exit 2')],
        containers: [sh('app', 'sleep 3600')],
      }),
    );
    const p = await waitFor(engine, 'init-never', (x) => x.status?.phase === 'Failed', 30_000, 'Failed');
    assert.equal(cs(p, 'check')?.state?.terminated?.exitCode, 2);
    assert.equal(cs(p, 'check')?.state?.terminated?.reason, 'Error');
    assert.equal(cs(p, 'app')?.state?.waiting?.reason, 'PodInitializing');
    assert.equal(podStatusText(p), 'Init:Error');
    assert.ok(!eventsOf(engine, 'init-never').some((e) => e.involvedObject.fieldPath === 'spec.containers{app}'), 'no event for the app container');
  });

  test('a failing init container under Always keeps the pod Pending and restarts with growing back-off', async () => {
    await engine.createPod(
      podManifest('init-loop', {
        initContainers: [sh('check', 'echo attempt; exit 1')],
        containers: [sh('app', 'sleep 3600')],
      }),
    );
    const statuses = new Set<string>();
    const starts: number[] = [];
    const sub = engine.watch((e) => {
      if (e.kind === 'Pod' && e.object.metadata?.name === 'init-loop') statuses.add(podStatusText(e.object));
      if (e.kind === 'Event' && e.object.involvedObject.name === 'init-loop' && e.object.reason === 'Started') starts.push(Date.now());
    });
    const p = await waitFor(engine, 'init-loop', (x) => (cs(x, 'check')?.restartCount ?? 0) >= 4, 40_000, 'restartCount >= 4');
    sub.dispose();
    assert.equal(p.status?.phase, 'Pending');
    assert.ok(statuses.has('Init:CrashLoopBackOff'), `saw ${[...statuses].join(', ')}`);
    assert.ok(statuses.has('Init:Error'));
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    // 1st restart immediate, then 1 s, 2 s, 4 s (the test's back-off: 1 s doubling to 4 s).
    assert.ok(gaps.length >= 3, `gaps ${gaps}`);
    assert.ok(gaps[2]! > gaps[1]! && gaps[1]! >= 900, `back-off grows: ${gaps}`);
    const backoff = eventsOf(engine, 'init-loop').find((e) => e.reason === 'BackOff');
    assert.match(backoff?.message ?? '', /^Back-off restarting failed container check in pod init-loop_default\(.+\)$/);
    const waiting = await waitFor(engine, 'init-loop', (x) => cs(x, 'check')?.state?.waiting?.reason === 'CrashLoopBackOff', 10_000, 'waiting CrashLoopBackOff');
    assert.match(cs(waiting, 'check')?.state?.waiting?.message ?? '', /^back-off \d+s restarting failed container=check pod=init-loop_default\(.+\)$/);
    assert.equal(cs(waiting, 'check')?.lastState?.terminated?.exitCode, 1);
    assert.ok(!cs(waiting, 'app')?.state?.running, 'app never runs');
    // The container GC keeps two instances in Docker; the lab still knows every attempt.
    const uid = waiting.metadata?.uid ?? '';
    const inDocker = execFileSync('docker', ['ps', '-aq', '--filter', `label=io.kubernetes.pod.uid=${uid}`, '--filter', 'label=io.kubernetes.container.name=check'], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(inDocker.length <= 2, `at most 2 instances of check in Docker, found ${inDocker.length}`);
    const info = await engine.debugInfo('default', 'init-loop');
    const attempts = info!.attempts.filter((a) => a.containerName === 'check');
    assert.ok(attempts.length >= 4, `every attempt is listed: ${attempts.length}`);
    assert.deepEqual(attempts.slice(0, 3).map((a) => a.attempt), [0, 1, 2]);
    assert.ok(attempts.every((a) => a.state !== 'exited' || a.exitCode === 1));
    assert.deepEqual(await engine.attemptLogs(attempts[0]!.id), ['attempt'], 'the first attempt\'s logs survive the GC');
    // ...with the runtime's timestamps when asked (kubectl logs --timestamps), from the archive as from Docker
    const stamped = await engine.attemptLogs(attempts[0]!.id, undefined, true);
    assert.match(stamped.join('\n'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z attempt$/);
    const fromDocker = await engine.attemptLogs(attempts.at(-1)!.id, undefined, true);
    assert.match(fromDocker.join('\n'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z attempt$/);
    await engine.deletePod('default', 'init-loop', 0);
  });
});

describe('restart policies of app containers', () => {
  const cases = [
    { name: 'OnFailure with exit 0 ends Succeeded', policy: 'OnFailure', script: 'exit 0', phase: 'Succeeded', status: 'Completed' },
    { name: 'Never with exit 3 ends Failed with reason Error', policy: 'Never', script: 'exit 3', phase: 'Failed', status: 'Error' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const name = `rp-${c.policy.toLowerCase()}`;
      await engine.createPod(podManifest(name, { restartPolicy: c.policy, containers: [sh('app', c.script)] }));
      const p = await waitFor(engine, name, (x) => x.status?.phase === c.phase, 30_000, c.phase);
      assert.equal(podStatusText(p), c.status);
      assert.equal(cs(p, 'app')?.restartCount, 0);
    });
  }

  test('Always restarts an exiting container and shows CrashLoopBackOff', async () => {
    await engine.createPod(podManifest('rp-always', { containers: [sh('app', 'echo run; exit 1')] }));
    const p = await waitFor(engine, 'rp-always', (x) => podStatusText(x) === 'CrashLoopBackOff' && (cs(x, 'app')?.restartCount ?? 0) >= 2, 30_000, 'CrashLoopBackOff');
    assert.equal(p.status?.phase, 'Running');
    assert.deepEqual(await engine.logs('default', 'rp-always', 'app', { previous: true }), ['run']);
    await engine.deletePod('default', 'rp-always', 0);
  });
});

describe('images', () => {
  test('a missing image with pull policy Never waits with ErrImageNeverPull', async () => {
    await engine.createPod(podManifest('never-pull', { containers: [{ name: 'app', image: 'podlab.invalid/absent:1', imagePullPolicy: 'Never' }] }));
    const p = await waitFor(engine, 'never-pull', (x) => cs(x, 'app')?.state?.waiting?.reason === 'ErrImageNeverPull', 20_000, 'ErrImageNeverPull');
    assert.equal(cs(p, 'app')?.state?.waiting?.message, 'Container image "podlab.invalid/absent:1" is not present with pull policy of Never');
    assert.equal(p.status?.phase, 'Pending');
    await engine.deletePod('default', 'never-pull', 0);
  });

  test('an image that cannot be pulled goes ErrImagePull then ImagePullBackOff while Pending', async () => {
    await engine.createPod(podManifest('bad-pull', { containers: [{ name: 'app', image: 'podlab.invalid/nope:1' }] }));
    const reasons = new Set<string>();
    const sub = engine.watch((e) => {
      if (e.kind === 'Pod' && e.object.metadata?.name === 'bad-pull') {
        const r = cs(e.object, 'app')?.state?.waiting?.reason;
        if (r) reasons.add(r);
      }
    });
    const p = await waitFor(engine, 'bad-pull', (x) => cs(x, 'app')?.state?.waiting?.reason === 'ImagePullBackOff', 40_000, 'ImagePullBackOff');
    sub.dispose();
    assert.ok(reasons.has('ErrImagePull'), `saw ${[...reasons]}`);
    assert.equal(p.status?.phase, 'Pending');
    const evs = eventsOf(engine, 'bad-pull');
    assert.ok(evs.some((e) => e.reason === 'Pulling' && e.message === 'Pulling image "podlab.invalid/nope:1"'));
    assert.ok(evs.some((e) => e.reason === 'Failed' && e.message === 'Error: ErrImagePull'));
    assert.ok(evs.some((e) => e.reason === 'Failed' && e.message?.startsWith('Failed to pull image "podlab.invalid/nope:1": ')));
    await engine.deletePod('default', 'bad-pull', 0);
  });
});

describe('deletion', () => {
  test('graceful deletion stops containers with Killing events and removes every container', async () => {
    await engine.createPod(podManifest('to-delete', { terminationGracePeriodSeconds: 5, containers: [sh('app', 'trap "exit 0" TERM; while true; do sleep 0.2; done')] }));
    const p = await waitFor(engine, 'to-delete', ready, 30_000, 'Ready');
    const uid = p.metadata?.uid ?? '';
    const phases: string[] = [];
    const killing: string[] = [];
    const sub = engine.watch((e) => {
      if (e.kind === 'Pod' && e.object.metadata?.uid === uid) phases.push(podStatusText(e.object));
      if (e.kind === 'Event' && e.object.involvedObject.uid === uid && e.object.reason === 'Killing') killing.push(e.object.message ?? '');
    });
    await engine.deletePod('default', 'to-delete');
    sub.dispose();
    assert.ok(phases.includes('Terminating'), `saw ${phases}`);
    assert.deepEqual(killing, ['Stopping container app']);
    const left = execFileSync('docker', ['ps', '-aq', '--filter', `label=io.kubernetes.pod.uid=${uid}`], { encoding: 'utf8' }).trim();
    assert.equal(left, '', 'no container of the pod is left');
    assert.equal(engine.getPod('default', 'to-delete'), undefined);
  });
});

describe('scheduling', () => {
  test('a pod that fits no node stays Pending with PodScheduled=False and a FailedScheduling event', async () => {
    await engine.createPod(podManifest('too-big', { containers: [{ name: 'app', image: 'busybox:1.35', resources: { requests: { cpu: '1000' } } }] }));
    const p = await waitFor(engine, 'too-big', (x) => x.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False') ?? false, 10_000, 'PodScheduled=False');
    const cond = p.status!.conditions!.find((c) => c.type === 'PodScheduled')!;
    assert.equal(cond.reason, 'Unschedulable');
    const want = '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    assert.equal(cond.message, want);
    const ev = eventsOf(engine, 'too-big').find((e) => e.reason === 'FailedScheduling');
    assert.equal(ev?.type, 'Warning');
    assert.equal(ev?.message, want);
    assert.equal(ev?.source?.component, 'default-scheduler');
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.spec?.nodeName, undefined);
    await engine.deletePod('default', 'too-big', 0);
    assert.equal(engine.getPod('default', 'too-big'), undefined, 'an unscheduled pod is deleted at once');
  });
});
